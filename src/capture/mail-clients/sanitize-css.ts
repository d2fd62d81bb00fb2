import type { UnsupportedCss } from "./caniemail-support";
import { caniemailRule, sanitizeNote, type ChangeAt, type ChangeLog, type RecordLimits } from "./sanitize-record";

/** A mail client's sanitizer, as data the in-page functions read (see profiles.ts for who sets what). */
export interface SanitizerRules {
  client: string;
  /** From caniemail: what the client's newest tested version does not support. */
  unsupported: UnsupportedCss;
  /** <style> elements inside <body> are kept (Gmail removes them: caniemail html-style note "not supported inside the <body>"). */
  styleInBody: boolean;
  /** A <style> element longer than this (UTF-8 bytes) is removed whole (Gmail: 16 KB). */
  styleBlockMaxBytes: number | null;
  /** A <style> element holding an at-rule nested in another is removed whole (Gmail). */
  dropBlockOnNestedAtRule: boolean;
  /** Only these media features may appear in a media query; others remove the query (Yahoo: screen, min/max-width, min/max-height). */
  mediaFeaturesAllowed: string[] | null;
  /** Height-based media queries are removed (Gmail, caniemail css-at-media note 7). */
  mediaNoHeight: boolean;
  /** Nested media queries are removed (Outlook.com, caniemail css-at-media note 10). */
  dropNestedMedia: boolean;
  /** Class names and ids are rewritten with this prefix in the markup and in the style blocks; attribute selectors are not (Outlook.com, Yahoo, Gmail). */
  classPrefix: string | null;
  idPrefix: string | null;
  /** <body> becomes a <div> that keeps its attributes; `body` selectors then match that div, `html` ones nothing. */
  bodyToDiv: boolean;
  /** Properties the client renames (Yahoo turns height into min-height: caniemail css-height note 1). */
  rewriteProperties: Record<string, string>;
  /** Negative margins are removed (caniemail css-margin note 1: Gmail, Outlook.com, Outlook for Windows, Yahoo). */
  noNegativeMargins: boolean;
  /** Outlook for Windows: the Word engine's limits, applied by hand (see profiles.ts). */
  word: boolean;
  /** <style> blocks are kept at all (the Gmail app removes every one for a non-Google account: caniemail html-style note 2). */
  styleBlocks: boolean;
  /** Background images are kept (the Gmail app drops them for a non-Google account: caniemail css-background-image note 1). */
  backgroundImages: boolean;
  /** Links are opened through this redirect (Gmail: https://www.google.com/url?q=…), in a new tab; the href is kept. */
  linkRedirect: string | null;
}

/** One sanitizing of a message, in the page: the rules, what was changed so far (counted by kind), and what the style blocks declared. */
export interface SanitizeState extends ChangeLog {
  rules: SanitizerRules;
  /** The message's document, where the elements a change applies to are found and marked. */
  doc: Document;
  /** The render is in dark mode: a prefers-color-scheme: dark query would apply there. */
  dark: boolean;
  /** Where the style block being written starts in the source, and its line (undefined when not found as written). */
  blockStart: number;
  blockLine: number | undefined;
  /** @font-face families the style blocks declared (the Word engine replaces them). */
  fontFaceFamilies: Set<string>;
  /** The style block being written holds an at-rule nested in another. */
  nestedAtRule: boolean;
  valueFeatures: Array<{ property: RegExp | null; value: RegExp; why: string }>;
  selectorFeatures: Array<{ pattern: RegExp; why: string }>;
}

/**
 * The sanitizer's CSS: declarations, selectors, media queries, rules and whole style blocks, rewritten the way a
 * client's sanitizer does. Page helpers (installed by page-helpers.ts), composed by sanitizeInPage; CSS is parsed by
 * the browser's own parser (a constructed stylesheet) and written back rule by rule.
 */

/** A new sanitizing of a message under `rules`. */
export function sanitizeState(
  rules: SanitizerRules,
  source: string,
  limits: RecordLimits,
  doc: Document,
  dark: boolean,
): SanitizeState {
  const u = rules.unsupported;
  return {
    rules,
    doc,
    dark,
    counts: new Map(),
    changes: new Map(),
    order: new Map(),
    omitted: 0,
    source,
    cursors: new Map(),
    lineStarts: null,
    searches: 0,
    markings: 0,
    limits,
    blockStart: 0,
    blockLine: undefined,
    fontFaceFamilies: new Set(),
    nestedAtRule: false,
    valueFeatures: u.values.map((v) => ({
      property: v.property ? new RegExp(v.property) : null,
      value: new RegExp(v.value, v.flags),
      why: v.why,
    })),
    selectorFeatures: u.selectors.map((s) => ({ pattern: new RegExp(s.pattern, s.flags), why: s.why })),
  };
}

/**
 * The elements of the message a style rule's selector matches, as written (before the client's prefixes), or none
 * when the browser cannot match it (pseudo-elements, unknown pseudo-classes); a :hover or :focus rule matches nothing
 * at rest, so a change to it explains nothing there.
 */
export function matchingElements(s: SanitizeState, selector: string): Element[] {
  try {
    return Array.from(s.doc.querySelectorAll(selector)).slice(0, s.limits.marks);
  } catch {
    return [];
  }
}

/** Splits CSS text at `sep` outside quotes, parentheses and brackets. */
export function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/**
 * One declaration as the Word engine reads it on an element of `tag` (null in a style block): the value it keeps,
 * or null when it drops the declaration.
 */
export function wordDeclaration(
  s: SanitizeState,
  prop: string,
  value: string,
  tag: string | null,
  at: ChangeAt = {},
): string | null {
  const removed = (what: string, rule: string) =>
    sanitizeNote(s, what, {
      action: "declaration-removed",
      rule,
      source: "word-engine",
      ...at,
      target: `${prop}: ${value}`,
    });
  if (prop === "display" && !/^none$/i.test(value)) {
    removed(
      "removed display values other than none (Word engine: only display:none; caniemail css-display note 5)",
      "Word engine: display is read only as none (caniemail css-display note 5)",
    );
    return null;
  }
  if (/^margin/.test(prop) && /\bauto\b/i.test(value)) {
    sanitizeNote(s, "margin auto read as 0 (Word engine: caniemail css-margin note 4)", {
      action: "declaration-rewritten",
      rule: "Word engine: margin auto is read as 0, so centred blocks sit left (caniemail css-margin note 4)",
      source: "word-engine",
      ...at,
      target: `${prop}: ${value}`,
    });
    value = value.replace(/\bauto\b/gi, "0");
  }
  if (/^margin/.test(prop) && tag && ["span", "body"].includes(tag)) {
    removed(
      "removed margin on span/body (Word engine: caniemail css-margin note 2)",
      "Word engine: no margin on <span> or <body> (caniemail css-margin note 2)",
    );
    return null;
  }
  if (/^padding/.test(prop) && tag && !["td", "th"].includes(tag)) {
    removed(
      "removed padding outside table cells (Word engine: caniemail css-padding note 1)",
      "Word engine: padding only on table cells, so a <a> or <div> loses its padding (caniemail css-padding note 1)",
    );
    return null;
  }
  if (/^(width|height)$/.test(prop) && tag && ["div", "p", "span", "body", "img"].includes(tag)) {
    removed(
      `removed ${prop} on div/p/span/img (Word engine: caniemail css-width/css-height notes)`,
      `Word engine: no ${prop} on div, p, span or img (caniemail css-${prop} notes)`,
    );
    return null;
  }
  if (prop === "max-width" && tag && tag !== "table") {
    removed(
      "removed max-width outside tables (Word engine: caniemail css-max-width note 1)",
      "Word engine: max-width only on tables (caniemail css-max-width note 1)",
    );
    return null;
  }
  if (prop === "font-family") {
    const first = value
      .split(",")[0]!
      .trim()
      .replace(/^["']|["']$/g, "")
      .toLowerCase();
    if (s.fontFaceFamilies.has(first)) {
      sanitizeNote(s, "web font replaced by Times New Roman (Word engine: caniemail css-at-font-face note 5)", {
        action: "declaration-rewritten",
        rule: "Word engine: a web font falls back to Times New Roman, not to the next font listed (caniemail css-at-font-face note 5)",
        source: "word-engine",
        ...at,
        target: `${prop}: ${value}`,
      });
      return '"Times New Roman", serif';
    }
  }
  return value;
}

/** A declaration list (a style attribute on an element of `tag`, or a rule's body when `tag` is null) as the client keeps it. */
export function filterDeclarations(s: SanitizeState, text: string, tag: string | null, at: ChangeAt = {}): string {
  const { rules } = s;
  const u = rules.unsupported;
  const kept: string[] = [];
  for (const part of splitTopLevel(text, ";")) {
    const colon = part.indexOf(":");
    if (colon < 0) continue;
    let prop = part.slice(0, colon).trim().toLowerCase();
    let value: string | null = part.slice(colon + 1).trim();
    if (!prop || !value) continue;
    let important = false;
    const imp = /!\s*important\s*$/i.exec(value);
    if (imp) {
      important = true;
      value = value.slice(0, imp.index).trim();
    }
    const declared = { ...at, target: `${prop}: ${value}` };
    if (rules.word && prop === "mso-hide" && /^all$/i.test(value)) {
      kept.push("display: none !important");
      sanitizeNote(s, "mso-hide:all hides the element in Outlook for Windows", {
        action: "declaration-rewritten",
        rule: "Word engine: mso-hide: all hides the element",
        source: "word-engine",
        ...declared,
      });
      continue;
    }
    if (rules.rewriteProperties[prop]) {
      sanitizeNote(s, `${prop} rewritten to ${rules.rewriteProperties[prop]}`, {
        action: "declaration-rewritten",
        rule: `${prop} is rewritten to ${rules.rewriteProperties[prop]} (caniemail css-${prop} note 1)`,
        source: "caniemail",
        ...declared,
      });
      prop = rules.rewriteProperties[prop]!;
    }
    if (!rules.backgroundImages && (prop === "background-image" || (prop === "background" && /url\(/i.test(value)))) {
      sanitizeNote(s, "removed background images (non-Google account: caniemail css-background-image note 1)", {
        action: "declaration-removed",
        rule: "background images are not supported with non-Google accounts in the Gmail app (caniemail css-background-image note 1)",
        source: "caniemail",
        ...declared,
      });
      continue;
    }
    const unsupportedProp = u.properties[prop];
    if (unsupportedProp) {
      sanitizeNote(s, `removed ${prop} (${unsupportedProp})`, {
        action: "declaration-removed",
        ...caniemailRule(unsupportedProp),
        ...declared,
      });
      continue;
    }
    if (rules.noNegativeMargins && /^margin/.test(prop) && /(^|\s)-\d/.test(value)) {
      sanitizeNote(s, "removed negative margins (not supported: caniemail css-margin note 1)", {
        action: "declaration-removed",
        rule: "negative margins are not supported (caniemail css-margin note 1)",
        source: "caniemail",
        ...declared,
      });
      continue;
    }
    const vf = s.valueFeatures.find((f) => (!f.property || f.property.test(prop)) && f.value.test(value!));
    if (vf) {
      sanitizeNote(s, `removed ${prop}: ${value.slice(0, 40)} (${vf.why})`, {
        action: "declaration-removed",
        ...caniemailRule(vf.why),
        ...declared,
      });
      continue;
    }
    if (rules.word) value = wordDeclaration(s, prop, value, tag, at);
    if (value !== null) kept.push(`${prop}: ${value}${important ? " !important" : ""}`);
  }
  return kept.join("; ");
}

/** A selector with the client's class and id prefixes (outside attribute selectors and strings). */
export function prefixNames(s: SanitizeState, selector: string): string {
  let out = "";
  let bracket = 0;
  let quote: string | null = null;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (quote) {
      out += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    if (c === "[") bracket++;
    if (c === "]") bracket = Math.max(0, bracket - 1);
    const prefix = c === "." ? s.rules.classPrefix : c === "#" ? s.rules.idPrefix : null;
    if (bracket === 0 && prefix && /[-_a-zA-Z]/.test(selector[i + 1] ?? "")) {
      out += c + prefix;
      continue;
    }
    out += c;
  }
  return out;
}

/**
 * A selector as the client keeps it (rewritten for its body-to-div and prefixes), or null when it drops it; a dropped
 * selector marks the elements it matches when its rule `applies` to this render (not inside a media query it fails).
 */
export function filterSelector(s: SanitizeState, selector: string, line?: number, applies = true): string | null {
  let kept = selector.trim();
  if (!kept) return null;
  const written = kept;
  const at = {
    target: kept,
    selector: kept,
    ...(line ? { line } : {}),
    ...(applies ? { on: () => matchingElements(s, written) } : {}),
  };
  const feature = s.selectorFeatures.find((f) => f.pattern.test(kept));
  if (feature) {
    sanitizeNote(s, `removed selectors using ${feature.why}`, {
      action: "selector-removed",
      ...caniemailRule(feature.why),
      ...at,
    });
    return null;
  }
  if (s.rules.bodyToDiv) {
    if (/(^|[\s>+~(])(html|:root)(?![\w-])/i.test(kept)) {
      sanitizeNote(s, "removed html/:root selectors (the client's own page owns them)", {
        action: "selector-removed",
        rule: "the message's <body> becomes a <div> inside the client's own page, so html and :root selectors match nothing",
        source: "observed",
        ...at,
      });
      return null;
    }
    kept = kept.replace(/(^|[\s>+~(])body(?![\w-])/gi, "$1div.assay-msg-body");
  }
  return s.rules.classPrefix || s.rules.idPrefix ? prefixNames(s, kept) : kept;
}

export const SANITIZE_CSS_HELPERS = {
  sanitizeState,
  matchingElements,
  splitTopLevel,
  wordDeclaration,
  filterDeclarations,
  prefixNames,
  filterSelector,
};
