import { filterDeclarations, SANITIZE_CSS_HELPERS, type SanitizeState } from "./sanitize-css";
import {
  caniemailRule,
  describeElement,
  lineAt,
  SANITIZE_RECORD_HELPERS,
  sanitizeNote,
  sourceIndex,
  sourceLine,
} from "./sanitize-record";
import { blockTargets, SANITIZE_STYLESHEET_HELPERS, sanitizeStyleText } from "./sanitize-stylesheet";

/**
 * The sanitizer's markup: what a client removes or rewrites in the message's document (a DOMParser document:
 * nothing in it runs or loads). Page helpers (installed by page-helpers.ts), composed by sanitizeInPage.
 */

/** Word reads the Office drawing markup (VML) the message gives it; drawn here as plain boxes. */
export function drawVml(s: SanitizeState, doc: Document): void {
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
      const childFill = Array.from(el.children)
        .find((c) => c.tagName.toLowerCase() === "v:fill")
        ?.getAttribute("color");
      box.setAttribute(
        "style",
        `${style}; display: inline-block; box-sizing: border-box; text-align: center; vertical-align: middle;` +
          (filled && (fill || childFill) ? ` background-color: ${fill || childFill};` : "") +
          (stroked && stroke ? ` border: ${el.getAttribute("strokeweight") || "1px"} solid ${stroke};` : "") +
          (tag === "v:roundrect"
            ? ` border-radius: ${el.getAttribute("arcsize") ? "8px" : "4px"};`
            : tag === "v:oval"
              ? " border-radius: 50%;"
              : ""),
      );
      box.setAttribute("data-assay-vml", tag);
      while (el.firstChild) box.appendChild(el.firstChild);
      el.replaceWith(box);
      sanitizeNote(s, "VML shapes drawn as boxes (Word engine)", {
        action: "element-rewritten",
        target: `<${tag}>`,
        rule: "Word draws VML shapes; here they are drawn as plain boxes with their fill and stroke colours",
        source: "word-engine",
      });
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

/** Scripts, frames, embeds, <base>, <link>, a refresh or a Content-Security-Policy: what no client keeps. */
export function removeUnsafeMarkup(s: SanitizeState, doc: Document): void {
  for (const el of Array.from(
    doc.querySelectorAll("script, iframe, frame, frameset, embed, applet, base, link, meta[http-equiv]"),
  )) {
    const tag = el.tagName.toLowerCase();
    if (tag === "meta" && !/refresh|content-security/i.test(el.getAttribute("http-equiv") ?? "")) continue;
    const line = sourceLine(s, `<${tag}`, tag);
    sanitizeNote(s, `removed <${tag}>`, {
      action: "element-removed",
      target: `<${tag}>`,
      rule: "no mail client runs scripts or loads frames, embeds, linked style sheets, <base> or refreshes",
      source: "assay",
      ...(line ? { line } : {}),
    });
    el.remove();
  }
}

/** The elements the client does not support (caniemail): removed, or replaced by their fallback content. */
export function removeUnsupportedElements(s: SanitizeState, doc: Document): void {
  for (const e of s.rules.unsupported.elements) {
    for (const el of Array.from(doc.querySelectorAll(e.selector))) {
      const line = sourceLine(s, `<${e.selector}`, e.selector);
      sanitizeNote(s, `removed <${e.selector}> (${e.why})`, {
        action: "element-removed",
        target: `<${e.selector}>${e.fallback ? " (its fallback content kept)" : ""}`,
        selector: describeElement(el),
        ...caniemailRule(e.why),
        ...(line ? { line } : {}),
      });
      if (e.fallback)
        el.replaceWith(
          ...Array.from(el.childNodes).filter(
            (n) => !(n instanceof Element && ["source", "track", "param"].includes(n.tagName.toLowerCase())),
          ),
        );
      else el.remove();
    }
  }
}

/** Event handler attributes and javascript: URLs. */
export function removeScriptAttributes(s: SanitizeState, doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll("*"))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const removed = (what: string) =>
        sanitizeNote(s, what, {
          action: "attribute-removed",
          target: `${attr.name}="${attr.value.slice(0, 60)}"`,
          selector: describeElement(el),
          rule: "no mail client runs scripts: event handlers and javascript: links are removed",
          source: "assay",
        });
      if (name.startsWith("on")) {
        removed("removed event handler attributes");
        el.removeAttribute(attr.name);
      } else if (
        ["href", "src", "action", "formaction", "xlink:href"].includes(name) &&
        /^\s*javascript:/i.test(attr.value)
      ) {
        removed("removed javascript: URLs");
        el.removeAttribute(attr.name);
      }
    }
  }
}

/** Images whose source is a data: URL lose it, for a client that does not show them. */
export function removeBase64Images(s: SanitizeState, doc: Document): void {
  for (const img of Array.from(doc.querySelectorAll('img[src^="data:" i]'))) {
    const line = sourceLine(s, (img.getAttribute("src") ?? "").slice(0, 60), "data-image");
    sanitizeNote(s, `removed data: image sources (${s.rules.unsupported.base64Images})`, {
      action: "attribute-removed",
      target: `src="${(img.getAttribute("src") ?? "").slice(0, 40)}…"`,
      selector: describeElement(img),
      ...caniemailRule(s.rules.unsupported.base64Images ?? "image-base64"),
      ...(line ? { line } : {}),
      on: () => [img],
    });
    img.removeAttribute("src");
    img.setAttribute("data-assay-nosrc", "base64");
  }
}

/** Style blocks, rewritten (and the @font-face families they declare collected: Word's font fallback reads them), or removed. */
export function sanitizeStyleBlocks(s: SanitizeState, doc: Document): void {
  for (const style of Array.from(doc.querySelectorAll("style"))) {
    const at = sourceIndex(s, "<style", "style");
    s.blockStart = Math.max(0, at);
    s.blockLine = at < 0 ? undefined : lineAt(s, at);
    s.cursors.set("rule", s.blockStart);
    if (!s.rules.styleBlocks) {
      sanitizeNote(s, "removed every <style> block (non-Google account: caniemail html-style note 2)", {
        action: "style-block-removed",
        target: "<style>",
        rule: "<style> is not supported with non-Google accounts in the Gmail app (caniemail html-style note 2)",
        source: "caniemail",
        ...(s.blockLine ? { line: s.blockLine } : {}),
        on: () => blockTargets(s, style.textContent ?? ""),
      });
      style.remove();
      continue;
    }
    if (!s.rules.styleInBody && doc.body?.contains(style)) {
      sanitizeNote(s, "removed <style> blocks inside <body>", {
        action: "style-block-removed",
        target: "<style>",
        rule: "<style> is supported in the <head> only (caniemail html-style: not supported inside the <body>)",
        source: "caniemail",
        ...(s.blockLine ? { line: s.blockLine } : {}),
        on: () => blockTargets(s, style.textContent ?? ""),
      });
      style.remove();
      continue;
    }
    const text = sanitizeStyleText(s, style.textContent ?? "");
    if (text === null) style.remove();
    else style.textContent = text;
  }
}

/** The background attribute of tables and cells, for a client that shows no background images. */
export function removeBackgroundAttributes(s: SanitizeState, doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll("[background]"))) {
    const value = el.getAttribute("background") ?? "";
    const line = sourceLine(s, `background="${value}`, "background-attribute");
    sanitizeNote(s, "removed background images (non-Google account: caniemail css-background-image note 1)", {
      action: "attribute-removed",
      target: `background="${value.slice(0, 80)}"`,
      selector: describeElement(el),
      rule: "background images are not supported with non-Google accounts in the Gmail app (caniemail css-background-image note 1)",
      source: "caniemail",
      ...(line ? { line } : {}),
      on: () => [el],
    });
    el.removeAttribute("background");
  }
}

/** Inline styles, rewritten (VML boxes drawn by drawVml are left as drawn). */
export function sanitizeInlineStyles(s: SanitizeState, doc: Document): void {
  for (const el of Array.from(doc.querySelectorAll("[style]"))) {
    if (el.hasAttribute("data-assay-vml")) continue;
    const written = el.getAttribute("style") ?? "";
    const line = sourceLine(s, written, "style-attribute");
    const text = filterDeclarations(s, written, el.tagName.toLowerCase(), {
      selector: describeElement(el),
      ...(line ? { line } : {}),
      on: () => [el],
    });
    if (text) el.setAttribute("style", text);
    else el.removeAttribute("style");
  }
}

/**
 * Gmail's links: the href is kept, and the reader's click goes through Google's redirect (data-saferedirecturl,
 * https://www.google.com/url?q=<href>&source=gmail…) in a new tab (target="_blank"), as messages saved from Gmail
 * show. Only web links: mailto: and the like open as they are. One change, counted per link.
 */
export function rewriteLinks(s: SanitizeState, doc: Document): void {
  const redirect = s.rules.linkRedirect;
  if (!redirect) return;
  for (const a of Array.from(doc.querySelectorAll("a[href]"))) {
    const href = (a.getAttribute("href") ?? "").trim();
    if (!/^https?:\/\//i.test(href)) continue;
    a.setAttribute("data-saferedirecturl", `${redirect}${encodeURIComponent(href)}&source=gmail`);
    a.setAttribute("target", "_blank");
    sanitizeNote(s, "links opened through Google's redirect", {
      action: "link-rewritten",
      target: `links open through ${redirect}<href>&source=gmail in a new tab (the href is kept)`,
      rule: "Gmail opens a message's web links through its google.com/url redirect (data-saferedirecturl), in a new tab; the link's href stays the sender's",
      source: "gmail-links",
    });
  }
}

/** Word reads width and height on images from their attributes only. */
export function wordImageSizes(doc: Document): void {
  for (const img of Array.from(doc.querySelectorAll("img:not([data-assay-vml])"))) {
    const w = img.getAttribute("width");
    const h = img.getAttribute("height");
    const extra = `${w && /^\d+$/.test(w) ? `width: ${w}px !important;` : ""}${h && /^\d+$/.test(h) ? ` height: ${h}px !important;` : ""}`;
    if (extra) img.setAttribute("style", `${img.getAttribute("style") ?? ""}; ${extra}`);
  }
}

/** The client's prefixes on class names and ids in the markup (the style blocks got theirs in filterSelector). */
export function prefixClassesAndIds(s: SanitizeState, doc: Document): void {
  const { classPrefix, idPrefix } = s.rules;
  if (classPrefix) {
    for (const el of Array.from(doc.querySelectorAll("[class]"))) {
      el.setAttribute(
        "class",
        (el.getAttribute("class") ?? "")
          .split(/\s+/)
          .filter(Boolean)
          .map((c) => classPrefix + c)
          .join(" "),
      );
    }
    sanitizeNote(s, `class names prefixed with ${classPrefix}`, {
      action: "names-prefixed",
      target: `class and id names prefixed with ${classPrefix}`,
      rule: `class names and ids are prefixed with ${classPrefix} in the markup and the style blocks; attribute selectors ([class=…]) are not, so they stop matching (caniemail css-selector-attribute notes)`,
      source: "caniemail",
    });
  }
  if (idPrefix) {
    for (const el of Array.from(doc.querySelectorAll("[id]"))) el.setAttribute("id", idPrefix + el.getAttribute("id"));
  }
}

/** <body> becomes a <div> that keeps its attributes, inside the client's own page, which holds the head. */
export function bodyToDiv(s: SanitizeState, doc: Document): void {
  const body = doc.body;
  const div = doc.createElement("div");
  for (const attr of Array.from(body.attributes)) div.setAttribute(attr.name, attr.value);
  div.classList.add("assay-msg-body");
  // bgcolor, text and background on <body> carry over as the div's attributes only where a div honours them.
  const bg = body.getAttribute("bgcolor");
  if (bg) div.setAttribute("style", `background-color: ${bg}; ${div.getAttribute("style") ?? ""}`);
  while (body.firstChild) div.appendChild(body.firstChild);
  body.appendChild(div);
  for (const attr of Array.from(body.attributes)) body.removeAttribute(attr.name);
  // The client's own page holds the head: only the message's styles survive from it.
  for (const el of Array.from(doc.head.children))
    if (el.tagName.toLowerCase() !== "style" && el.tagName.toLowerCase() !== "meta") el.remove();
  sanitizeNote(s, "<body> replaced by a <div>", {
    action: "element-rewritten",
    target: "<body>",
    rule: "the client shows the message inside its own page: <body> becomes a <div> that keeps its attributes",
    source: "observed",
  });
}

export const SANITIZE_HELPERS = {
  ...SANITIZE_RECORD_HELPERS,
  ...SANITIZE_CSS_HELPERS,
  ...SANITIZE_STYLESHEET_HELPERS,
  drawVml,
  removeUnsafeMarkup,
  removeUnsupportedElements,
  removeScriptAttributes,
  removeBase64Images,
  sanitizeStyleBlocks,
  sanitizeInlineStyles,
  removeBackgroundAttributes,
  rewriteLinks,
  wordImageSizes,
  prefixClassesAndIds,
  bodyToDiv,
};
