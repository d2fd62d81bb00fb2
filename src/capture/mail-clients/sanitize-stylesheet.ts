import {
  filterDeclarations,
  filterSelector,
  matchingElements,
  splitTopLevel,
  type SanitizeState,
} from "./sanitize-css";
import { caniemailRule, sanitizeNote, skipSourceBlock, sourceLine, type RuleSourceId } from "./sanitize-record";

/**
 * The sanitizer's style sheets: media queries, at-rules, rules and whole <style> blocks, rewritten the way a
 * client's sanitizer does, each change recorded with its rule. Page helpers (installed by page-helpers.ts); CSS is
 * parsed by the browser's own parser (a constructed stylesheet) and written back rule by rule.
 */

/**
 * Whether a media query would hold in this render: at the client's width (the sanitizer runs in the render's page,
 * at its viewport, in light mode), and in its colour scheme (a dark render answers prefers-color-scheme as dark).
 */
export function mediaApplies(s: SanitizeState, condition: string): boolean {
  const scheme = s.dark
    ? condition.replace(/prefers-color-scheme\s*:\s*(dark|light)/gi, (_, v: string) =>
        v.toLowerCase() === "dark" ? "prefers-color-scheme: light" : "prefers-color-scheme: dark",
      )
    : condition;
  try {
    return matchMedia(scheme).matches;
  } catch {
    return false;
  }
}

/** The elements the style rules of a list match, in this render (inside media queries that hold here). */
export function ruleTargets(s: SanitizeState, list: CSSRuleList): Element[] {
  const out = new Set<Element>();
  const walk = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSStyleRule) for (const el of matchingElements(s, rule.selectorText)) out.add(el);
      else if (rule instanceof CSSMediaRule) {
        if (mediaApplies(s, rule.conditionText ?? rule.media.mediaText)) walk(rule.cssRules);
      } else if (rule instanceof CSSSupportsRule) walk(rule.cssRules);
    }
  };
  walk(list);
  return [...out];
}

/** The elements a style block's rules match in this render (none when the CSS parser refuses it). */
export function blockTargets(s: SanitizeState, text: string): Element[] {
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(text);
  } catch {
    return [];
  }
  return ruleTargets(s, sheet.cssRules);
}

/**
 * Whether the client keeps a media query with this condition (`nested` in another at-rule); a query it drops marks
 * the elements its rules would have styled here (`on`), when it would have held in this render.
 */
export function mediaAllowed(
  s: SanitizeState,
  condition: string,
  nested: boolean,
  line?: number,
  on?: () => Iterable<Element>,
): boolean {
  const { rules } = s;
  const u = rules.unsupported;
  const at = {
    action: "media-query-removed" as const,
    target: `@media ${condition}`,
    ...(line ? { line } : {}),
    ...(on ? { on } : {}),
  };
  if (u.atRules.media) {
    sanitizeNote(s, `removed media queries (${u.atRules.media})`, { ...at, ...caniemailRule(u.atRules.media) });
    return false;
  }
  if (nested && rules.dropNestedMedia) {
    sanitizeNote(s, "removed nested media queries", {
      ...at,
      rule: "nested media queries are not supported (caniemail css-at-media note 10)",
      source: "caniemail",
    });
    return false;
  }
  for (const m of u.mediaFeatures) {
    if (new RegExp(m.pattern, m.flags).test(condition)) {
      sanitizeNote(s, `removed media queries on ${m.why}`, { ...at, ...caniemailRule(m.why) });
      return false;
    }
  }
  if (rules.mediaNoHeight && /height/i.test(condition)) {
    sanitizeNote(s, "removed height-based media queries (not supported: caniemail css-at-media note 7)", {
      ...at,
      rule: "media queries on height are not supported (caniemail css-at-media note 7; Gmail's CSS page lists width, orientation and resolution)",
      source: "gmail-css",
    });
    return false;
  }
  if (rules.mediaFeaturesAllowed) {
    const features = [...condition.matchAll(/\(\s*([a-z-]+)/gi)].map((m) => m[1]!.toLowerCase());
    if (features.some((f) => !rules.mediaFeaturesAllowed!.includes(f))) {
      sanitizeNote(
        s,
        `removed media queries on features other than ${rules.mediaFeaturesAllowed.join(", ")} (caniemail css-at-media note 2)`,
        {
          ...at,
          rule: `media queries on features other than ${rules.mediaFeaturesAllowed.join(", ")} are removed (caniemail css-at-media note 2)`,
          source: "caniemail",
        },
      );
      return false;
    }
  }
  return true;
}

/**
 * A list of CSS rules written back as the client keeps them (`depth`: how deep in at-rules they are; `applies`: the
 * at-rules around them hold in this render, so what is dropped from them marks the elements they match).
 */
export function writeRules(s: SanitizeState, list: CSSRuleList, depth: number, applies = true): string {
  const u = s.rules.unsupported;
  const out: string[] = [];
  // A rule's line: where its first selector (or at-rule) is written, searched on from the block's start.
  const lineOf = (text: string) => sourceLine(s, text, "rule", s.blockStart);
  const atRule = (
    name: string,
    why: string,
    line: number | undefined,
    target: string,
    on?: () => Iterable<Element>,
  ) => {
    sanitizeNote(s, `removed ${name} (${why})`, {
      action: "at-rule-removed",
      ...caniemailRule(why),
      target,
      ...(line ? { line } : {}),
      ...(applies && on ? { on } : {}),
    });
    skipSourceBlock(s, "rule");
  };
  for (const rule of Array.from(list)) {
    if (rule instanceof CSSStyleRule) {
      const written = splitTopLevel(rule.selectorText, ",");
      const line = lineOf(written[0]!.trim()) ?? s.blockLine;
      const selectors = written
        .map((sel) => filterSelector(s, sel, line, applies))
        .filter((sel): sel is string => !!sel);
      if (!selectors.length) continue;
      let matched: Element[] | undefined;
      const on = () => (matched ??= matchingElements(s, rule.selectorText));
      const body = filterDeclarations(s, rule.style.cssText, null, {
        selector: rule.selectorText,
        ...(line ? { line } : {}),
        ...(applies ? { on } : {}),
      });
      let nested = "";
      if (rule.cssRules?.length) {
        if (u.nesting) atRule("nested rules", u.nesting, line, `${rule.selectorText} { … }`, on);
        else
          nested = Array.from(rule.cssRules)
            .map((r) => r.cssText)
            .join(" ");
      }
      if (body || nested) out.push(`${selectors.join(", ")} { ${body}${body && nested ? "; " : ""}${nested} }`);
    } else if (rule instanceof CSSMediaRule) {
      if (depth > 0) s.nestedAtRule = true;
      const condition = rule.conditionText ?? rule.media.mediaText;
      const holds = applies && mediaApplies(s, condition);
      const on = holds ? () => ruleTargets(s, rule.cssRules) : undefined;
      if (!mediaAllowed(s, condition, depth > 0, lineOf("@media") ?? s.blockLine, on)) {
        skipSourceBlock(s, "rule");
        continue;
      }
      const inner = writeRules(s, rule.cssRules, depth + 1, holds);
      if (inner) out.push(`@media ${condition} { ${inner} }`);
    } else if (rule instanceof CSSSupportsRule) {
      if (depth > 0) s.nestedAtRule = true;
      if (u.atRules.supports) {
        atRule(
          "@supports",
          u.atRules.supports,
          lineOf("@supports") ?? s.blockLine,
          `@supports ${rule.conditionText}`,
          () => ruleTargets(s, rule.cssRules),
        );
        continue;
      }
      const inner = writeRules(s, rule.cssRules, depth + 1, applies);
      if (inner) out.push(`@supports ${rule.conditionText} { ${inner} }`);
    } else if (rule instanceof CSSFontFaceRule) {
      if (u.atRules["font-face"]) {
        atRule("@font-face", u.atRules["font-face"], lineOf("@font-face") ?? s.blockLine, "@font-face");
        continue;
      }
      const family = rule.style
        .getPropertyValue("font-family")
        .trim()
        .replace(/^["']|["']$/g, "")
        .toLowerCase();
      if (family) s.fontFaceFamilies.add(family);
      out.push(rule.cssText);
    } else if (rule instanceof CSSKeyframesRule) {
      if (u.atRules.keyframes) {
        atRule("@keyframes", u.atRules.keyframes, lineOf("@keyframes") ?? s.blockLine, `@keyframes ${rule.name}`);
        continue;
      }
      out.push(rule.cssText);
    } else {
      out.push(rule.cssText);
    }
  }
  return out.join("\n");
}

/** A <style> block's text as the client keeps it, or null when it removes the block whole. */
export function sanitizeStyleText(s: SanitizeState, text: string): string | null {
  const { rules } = s;
  const u = rules.unsupported;
  const block = (what: string, rule: string, source: RuleSourceId) =>
    sanitizeNote(s, what, {
      action: "style-block-removed",
      target: "<style>",
      rule,
      source,
      ...(s.blockLine ? { line: s.blockLine } : {}),
      on: () => blockTargets(s, text),
    });
  if (rules.styleBlockMaxBytes !== null && new TextEncoder().encode(text).length > rules.styleBlockMaxBytes) {
    block(
      `removed a <style> block over ${Math.round(rules.styleBlockMaxBytes / 1024)} KB`,
      `a <style> block over ${Math.round(rules.styleBlockMaxBytes / 1024)} KB is removed whole (Gmail's CSS page: style blocks up to 16 KB)`,
      "gmail-css",
    );
    return null;
  }
  if (/@import\b/i.test(text))
    sanitizeNote(
      s,
      u.atRules.import ? `removed @import (${u.atRules.import})` : "@import not loaded (remote content is blocked)",
      {
        action: "at-rule-removed",
        target: "@import",
        ...(u.atRules.import
          ? caniemailRule(u.atRules.import)
          : { rule: "nothing remote is loaded in a render", source: "assay" as const }),
        ...(s.blockLine ? { line: s.blockLine } : {}),
      },
    );
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(text);
  } catch {
    block("removed a <style> block the CSS parser refused", "a style sheet the CSS parser refuses is dropped", "assay");
    return null;
  }
  s.nestedAtRule = false;
  const out = writeRules(s, sheet.cssRules, 0);
  if (s.nestedAtRule && rules.dropBlockOnNestedAtRule) {
    block(
      "removed a <style> block holding a nested at-rule",
      "Gmail removes a whole <style> block when it holds an at-rule nested in another (one CSS error drops the block)",
      "observed",
    );
    return null;
  }
  return out;
}

export const SANITIZE_STYLESHEET_HELPERS = {
  mediaApplies,
  ruleTargets,
  blockTargets,
  mediaAllowed,
  writeRules,
  sanitizeStyleText,
};
