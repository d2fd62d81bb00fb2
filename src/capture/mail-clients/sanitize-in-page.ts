import type { UnsupportedCss } from "./caniemail-support";

/** A mail client's sanitizer, as data the in-page function reads (see profiles.ts for who sets what). */
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
}

export interface SanitizeResult {
  html: string;
  /** What the sanitizer changed, one line per kind of change, with counts. */
  notes: string[];
}

/**
 * Runs inside a blank page (serialised by Playwright, so self-contained): parses the message with DOMParser
 * (nothing in it runs or loads), rewrites it the way the client's sanitizer does, and serialises it back.
 * CSS is parsed by the browser's own CSS parser (a constructed stylesheet) and written back rule by rule.
 */
export function sanitizeInPage(input: { html: string; rules: SanitizerRules }): SanitizeResult {
  const { rules } = input;
  const u = rules.unsupported;
  const counts = new Map<string, number>();
  const note = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
  const doc = new DOMParser().parseFromString(input.html, "text/html");
  const fontFaceFamilies = new Set<string>();

  // ---- declarations ----
  const splitTop = (text: string, sep: string): string[] => {
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
  };
  const valueFeatures = u.values.map((v) => ({ property: v.property ? new RegExp(v.property) : null, value: new RegExp(v.value, v.flags), why: v.why }));
  const isWordSizedBox = (tag: string) => ["div", "p", "span", "body", "img"].includes(tag);
  const filterDeclarations = (text: string, tag: string | null): string => {
    const kept: string[] = [];
    for (const part of splitTop(text, ";")) {
      const colon = part.indexOf(":");
      if (colon < 0) continue;
      let prop = part.slice(0, colon).trim().toLowerCase();
      let value = part.slice(colon + 1).trim();
      if (!prop || !value) continue;
      let important = false;
      const imp = /!\s*important\s*$/i.exec(value);
      if (imp) {
        important = true;
        value = value.slice(0, imp.index).trim();
      }
      if (rules.word && prop === "mso-hide" && /^all$/i.test(value)) {
        kept.push("display: none !important");
        note("mso-hide:all hides the element in Outlook for Windows");
        continue;
      }
      if (rules.rewriteProperties[prop]) {
        note(`${prop} rewritten to ${rules.rewriteProperties[prop]}`);
        prop = rules.rewriteProperties[prop]!;
      }
      const unsupportedProp = u.properties[prop];
      if (unsupportedProp) {
        note(`removed ${prop} (${unsupportedProp})`);
        continue;
      }
      if (rules.noNegativeMargins && /^margin/.test(prop) && /(^|\s)-\d/.test(value)) {
        note("removed negative margins (not supported: caniemail css-margin note 1)");
        continue;
      }
      const vf = valueFeatures.find((f) => (!f.property || f.property.test(prop)) && f.value.test(value));
      if (vf) {
        note(`removed ${prop}: ${value.slice(0, 40)} (${vf.why})`);
        continue;
      }
      if (rules.word) {
        if (prop === "display" && !/^none$/i.test(value)) {
          note("removed display values other than none (Word engine: only display:none; caniemail css-display note 5)");
          continue;
        }
        if (/^margin/.test(prop) && /\bauto\b/i.test(value)) {
          value = value.replace(/\bauto\b/gi, "0");
          note("margin auto read as 0 (Word engine: caniemail css-margin note 4)");
        }
        if (/^margin/.test(prop) && tag && ["span", "body"].includes(tag)) {
          note("removed margin on span/body (Word engine: caniemail css-margin note 2)");
          continue;
        }
        if (/^padding/.test(prop) && tag && !["td", "th"].includes(tag)) {
          note("removed padding outside table cells (Word engine: caniemail css-padding note 1)");
          continue;
        }
        if (/^(width|height)$/.test(prop) && tag && isWordSizedBox(tag)) {
          note(`removed ${prop} on div/p/span/img (Word engine: caniemail css-width/css-height notes)`);
          continue;
        }
        if (prop === "max-width" && tag && tag !== "table") {
          note("removed max-width outside tables (Word engine: caniemail css-max-width note 1)");
          continue;
        }
        if (prop === "font-family") {
          const first = value.split(",")[0]!.trim().replace(/^["']|["']$/g, "").toLowerCase();
          if (fontFaceFamilies.has(first)) {
            value = '"Times New Roman", serif';
            note("web font replaced by Times New Roman (Word engine: caniemail css-at-font-face note 5)");
          }
        }
      }
      kept.push(`${prop}: ${value}${important ? " !important" : ""}`);
    }
    return kept.join("; ");
  };

  // ---- selectors ----
  const selectorFeatures = u.selectors.map((s) => ({ pattern: new RegExp(s.pattern, s.flags), why: s.why }));
  const prefixNames = (selector: string): string => {
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
      const prefix = c === "." ? rules.classPrefix : c === "#" ? rules.idPrefix : null;
      if (bracket === 0 && prefix && /[-_a-zA-Z]/.test(selector[i + 1] ?? "")) {
        out += c + prefix;
        continue;
      }
      out += c;
    }
    return out;
  };
  const filterSelector = (selector: string): string | null => {
    let s = selector.trim();
    if (!s) return null;
    const feature = selectorFeatures.find((f) => f.pattern.test(s));
    if (feature) {
      note(`removed selectors using ${feature.why}`);
      return null;
    }
    if (rules.bodyToDiv) {
      if (/(^|[\s>+~(])(html|:root)(?![\w-])/i.test(s)) {
        note("removed html/:root selectors (the client's own page owns them)");
        return null;
      }
      s = s.replace(/(^|[\s>+~(])body(?![\w-])/gi, "$1div.assay-msg-body");
    }
    return rules.classPrefix || rules.idPrefix ? prefixNames(s) : s;
  };

  // ---- rules ----
  const mediaAllowed = (condition: string, nested: boolean): boolean => {
    if (u.atRules.media) {
      note(`removed media queries (${u.atRules.media})`);
      return false;
    }
    if (nested && rules.dropNestedMedia) {
      note("removed nested media queries");
      return false;
    }
    for (const m of u.mediaFeatures) {
      if (new RegExp(m.pattern, m.flags).test(condition)) {
        note(`removed media queries on ${m.why}`);
        return false;
      }
    }
    if (rules.mediaNoHeight && /height/i.test(condition)) {
      note("removed height-based media queries (not supported: caniemail css-at-media note 7)");
      return false;
    }
    if (rules.mediaFeaturesAllowed) {
      const features = [...condition.matchAll(/\(\s*([a-z-]+)/gi)].map((m) => m[1]!.toLowerCase());
      if (features.some((f) => !rules.mediaFeaturesAllowed!.includes(f))) {
        note(`removed media queries on features other than ${rules.mediaFeaturesAllowed.join(", ")} (caniemail css-at-media note 2)`);
        return false;
      }
    }
    return true;
  };
  let nestedAtRule = false;
  const writeRules = (list: CSSRuleList, depth: number): string => {
    const out: string[] = [];
    for (const rule of Array.from(list)) {
      if (rule instanceof CSSStyleRule) {
        const selectors = splitTop(rule.selectorText, ",").map(filterSelector).filter((s): s is string => !!s);
        if (!selectors.length) continue;
        const body = filterDeclarations(rule.style.cssText, null);
        let nested = "";
        if (rule.cssRules && rule.cssRules.length) {
          if (u.nesting) note(`removed nested rules (${u.nesting})`);
          else nested = Array.from(rule.cssRules).map((r) => r.cssText).join(" ");
        }
        if (body || nested) out.push(`${selectors.join(", ")} { ${body}${body && nested ? "; " : ""}${nested} }`);
      } else if (rule instanceof CSSMediaRule) {
        if (depth > 0) nestedAtRule = true;
        const condition = rule.conditionText ?? rule.media.mediaText;
        if (!mediaAllowed(condition, depth > 0)) continue;
        const inner = writeRules(rule.cssRules, depth + 1);
        if (inner) out.push(`@media ${condition} { ${inner} }`);
      } else if (rule instanceof CSSSupportsRule) {
        if (depth > 0) nestedAtRule = true;
        if (u.atRules.supports) {
          note(`removed @supports (${u.atRules.supports})`);
          continue;
        }
        const inner = writeRules(rule.cssRules, depth + 1);
        if (inner) out.push(`@supports ${rule.conditionText} { ${inner} }`);
      } else if (rule instanceof CSSFontFaceRule) {
        if (u.atRules["font-face"]) {
          note(`removed @font-face (${u.atRules["font-face"]})`);
          continue;
        }
        const family = rule.style.getPropertyValue("font-family").trim().replace(/^["']|["']$/g, "").toLowerCase();
        if (family) fontFaceFamilies.add(family);
        out.push(rule.cssText);
      } else if (rule instanceof CSSKeyframesRule) {
        if (u.atRules.keyframes) {
          note(`removed @keyframes (${u.atRules.keyframes})`);
          continue;
        }
        out.push(rule.cssText);
      } else {
        out.push(rule.cssText);
      }
    }
    return out.join("\n");
  };
  const sanitizeStyleText = (text: string): string | null => {
    if (rules.styleBlockMaxBytes !== null && new TextEncoder().encode(text).length > rules.styleBlockMaxBytes) {
      note(`removed a <style> block over ${Math.round(rules.styleBlockMaxBytes / 1024)} KB`);
      return null;
    }
    if (/@import\b/i.test(text)) note(u.atRules.import ? `removed @import (${u.atRules.import})` : "@import not loaded (remote content is blocked)");
    const sheet = new CSSStyleSheet();
    try {
      sheet.replaceSync(text);
    } catch {
      note("removed a <style> block the CSS parser refused");
      return null;
    }
    nestedAtRule = false;
    const out = writeRules(sheet.cssRules, 0);
    if (nestedAtRule && rules.dropBlockOnNestedAtRule) {
      note("removed a <style> block holding a nested at-rule");
      return null;
    }
    return out;
  };

  // ---- markup ----
  // Word reads the Office drawing markup (VML) the message gives it; shown here as plain boxes.
  if (rules.word) {
    const vml = Array.from(doc.querySelectorAll("*")).filter((el) => el.tagName.includes(":"));
    for (const el of vml.reverse()) {
      const tag = el.tagName.toLowerCase();
      if (["v:rect", "v:roundrect", "v:oval"].includes(tag)) {
        const box = doc.createElement("div");
        const style = el.getAttribute("style") ?? "";
        const fill = el.getAttribute("fillcolor");
        const filled = el.getAttribute("filled") !== "f" && el.getAttribute("filled") !== "false";
        const stroke = el.getAttribute("strokecolor");
        const stroked = el.getAttribute("stroked") !== "f" && el.getAttribute("stroked") !== "false";
        const childFill = Array.from(el.children).find((c) => c.tagName.toLowerCase() === "v:fill")?.getAttribute("color");
        box.setAttribute(
          "style",
          `${style}; display: inline-block; box-sizing: border-box; text-align: center; vertical-align: middle;` +
            (filled && (fill || childFill) ? ` background-color: ${fill || childFill};` : "") +
            (stroked && stroke ? ` border: ${el.getAttribute("strokeweight") || "1px"} solid ${stroke};` : "") +
            (tag === "v:roundrect" ? ` border-radius: ${el.getAttribute("arcsize") ? "8px" : "4px"};` : tag === "v:oval" ? " border-radius: 50%;" : ""),
        );
        box.setAttribute("data-assay-vml", tag);
        while (el.firstChild) box.appendChild(el.firstChild);
        el.replaceWith(box);
        note("VML shapes drawn as boxes (Word engine)");
      } else if (tag === "v:image") {
        const img = doc.createElement("img");
        img.setAttribute("src", el.getAttribute("src") ?? "");
        img.setAttribute("alt", el.getAttribute("alt") ?? el.getAttribute("o:title") ?? "");
        img.setAttribute("data-assay-vml", tag);
        el.replaceWith(img);
      } else if (tag === "v:textbox") {
        const box = doc.createElement("div");
        box.setAttribute("data-assay-vml", tag);
        box.setAttribute("style", "padding: 4px;");
        while (el.firstChild) box.appendChild(el.firstChild);
        el.replaceWith(box);
      } else if (tag === "v:fill" || tag === "o:lock") {
        el.remove();
      } else {
        el.replaceWith(...Array.from(el.childNodes));
      }
    }
  }

  for (const el of Array.from(doc.querySelectorAll("script, iframe, frame, frameset, embed, applet, base, link, meta[http-equiv]"))) {
    const tag = el.tagName.toLowerCase();
    if (tag === "meta" && !/refresh|content-security/i.test(el.getAttribute("http-equiv") ?? "")) continue;
    note(`removed <${tag}>`);
    el.remove();
  }
  for (const e of u.elements) {
    for (const el of Array.from(doc.querySelectorAll(e.selector))) {
      note(`removed <${e.selector}> (${e.why})`);
      if (e.fallback) el.replaceWith(...Array.from(el.childNodes).filter((n) => !(n instanceof Element && ["source", "track", "param"].includes(n.tagName.toLowerCase()))));
      else el.remove();
    }
  }
  for (const el of Array.from(doc.querySelectorAll("*"))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith("on")) {
        el.removeAttribute(attr.name);
        note("removed event handler attributes");
      } else if (["href", "src", "action", "formaction", "xlink:href"].includes(name) && /^\s*javascript:/i.test(attr.value)) {
        el.removeAttribute(attr.name);
        note("removed javascript: URLs");
      }
    }
  }
  if (u.base64Images) {
    for (const img of Array.from(doc.querySelectorAll('img[src^="data:" i]'))) {
      img.removeAttribute("src");
      img.setAttribute("data-assay-nosrc", "base64");
      note(`removed data: image sources (${u.base64Images})`);
    }
  }

  // Style blocks: first pass collects @font-face families (Word's font fallback reads them), second rewrites.
  const styles = Array.from(doc.querySelectorAll("style"));
  for (const style of styles) {
    if (!rules.styleInBody && doc.body?.contains(style)) {
      note("removed <style> blocks inside <body>");
      style.remove();
      continue;
    }
    const text = sanitizeStyleText(style.textContent ?? "");
    if (text === null) style.remove();
    else style.textContent = text;
  }

  // Inline styles, then class and id prefixes.
  for (const el of Array.from(doc.querySelectorAll("[style]"))) {
    if (el.hasAttribute("data-assay-vml")) continue;
    const text = filterDeclarations(el.getAttribute("style") ?? "", el.tagName.toLowerCase());
    if (text) el.setAttribute("style", text);
    else el.removeAttribute("style");
  }
  if (rules.word) {
    // Word reads width and height on images from their attributes only.
    for (const img of Array.from(doc.querySelectorAll("img:not([data-assay-vml])"))) {
      const w = img.getAttribute("width");
      const h = img.getAttribute("height");
      const extra = `${w && /^\d+$/.test(w) ? `width: ${w}px !important;` : ""}${h && /^\d+$/.test(h) ? ` height: ${h}px !important;` : ""}`;
      if (extra) img.setAttribute("style", `${img.getAttribute("style") ?? ""}; ${extra}`);
    }
  }
  if (rules.classPrefix) {
    for (const el of Array.from(doc.querySelectorAll("[class]"))) {
      el.setAttribute("class", (el.getAttribute("class") ?? "").split(/\s+/).filter(Boolean).map((c) => rules.classPrefix + c).join(" "));
    }
    note(`class names prefixed with ${rules.classPrefix}`);
  }
  if (rules.idPrefix) {
    for (const el of Array.from(doc.querySelectorAll("[id]"))) el.setAttribute("id", rules.idPrefix + el.getAttribute("id"));
  }

  if (rules.bodyToDiv && doc.body) {
    const div = doc.createElement("div");
    for (const attr of Array.from(doc.body.attributes)) div.setAttribute(attr.name, attr.value);
    div.classList.add("assay-msg-body");
    // bgcolor, text and background on <body> carry over as the div's attributes only where a div honours them.
    const bg = doc.body.getAttribute("bgcolor");
    if (bg) div.setAttribute("style", `background-color: ${bg}; ${div.getAttribute("style") ?? ""}`);
    while (doc.body.firstChild) div.appendChild(doc.body.firstChild);
    doc.body.appendChild(div);
    for (const attr of Array.from(doc.body.attributes)) doc.body.removeAttribute(attr.name);
    // The client's own page holds the head: only the message's styles survive from it.
    for (const el of Array.from(doc.head.children)) if (el.tagName.toLowerCase() !== "style" && el.tagName.toLowerCase() !== "meta") el.remove();
    note("<body> replaced by a <div>");
  }

  const notes = [...counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what));
  return { html: `<!DOCTYPE html>\n${doc.documentElement.outerHTML}`, notes };
}
