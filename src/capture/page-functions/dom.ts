import type { DomSnapshot } from "../artifact-shapes";
import { COMMON_HELPERS, cssPath, imageSource, resolvedUrl, runCache, textOfElement } from "./common";

/**
 * The DOM as the browser built it, at one viewport: page helpers (installed by page-helpers.ts) and the page
 * function that composes them, snapshotDom. Visible = rendered: not inside script/style/template/noscript, not
 * display:none or visibility:hidden, and not clipped to 1px or less (the screen-reader-only pattern).
 */

/** Whether an element is hidden: never rendered, display:none, visibility:hidden, clipped to 1px, or inside such an element. */
export function domIsHidden(el: Element | null): boolean {
  if (!el || el === document.documentElement) return false;
  const cache = runCache<Element, boolean>("dom hidden");
  const cached = cache.get(el);
  if (cached !== undefined) return cached;
  const tag = el.tagName.toLowerCase();
  let hidden = false;
  if (["script", "style", "template", "noscript", "head", "title"].includes(tag)) hidden = true;
  else {
    const cs = getComputedStyle(el);
    if (cs.display === "none") hidden = true;
    else if (cs.visibility === "hidden" || cs.visibility === "collapse") hidden = true;
    else {
      const r = el.getBoundingClientRect();
      const clipsSelf =
        cs.overflow === "hidden" || cs.overflowX === "hidden" || cs.clip.startsWith("rect") || cs.clipPath !== "none";
      if (clipsSelf && r.width <= 1 && r.height <= 1) hidden = true;
      else hidden = domIsHidden(el.parentElement);
    }
  }
  cache.set(el, hidden);
  return hidden;
}

/** Whether an element is visible. visibility:hidden can be undone by a visible descendant; display:none cannot. */
export function domIsVisible(el: Element): boolean {
  if (!domIsHidden(el)) return true;
  if (getComputedStyle(el).visibility !== "visible") return false;
  for (let p: Element | null = el; p && p !== document.documentElement; p = p.parentElement) {
    const pcs = getComputedStyle(p);
    if (pcs.display === "none" || ["script", "style", "template", "noscript", "head"].includes(p.tagName.toLowerCase()))
      return false;
    const r = p.getBoundingClientRect();
    if ((pcs.overflow === "hidden" || pcs.clip.startsWith("rect")) && r.width <= 1 && r.height <= 1) return false;
  }
  return true;
}

/**
 * Visible text: per element owning text nodes (its font size and weight), and the whole page's in reading order,
 * where inline neighbours join directly ("30 <b>days</b>.") and block boundaries get a space.
 */
export function domVisibleText(): Pick<DomSnapshot, "visibleText" | "pageText"> {
  const byParent = new Map<Element, string[]>();
  let pageText = "";
  let previousInline = false;
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const value = n.nodeValue ?? "";
      if (!parent || !value.trim()) continue;
      if (!domIsVisible(parent)) continue;
      const list = byParent.get(parent) ?? [];
      list.push(value);
      byParent.set(parent, list);
      const inline = getComputedStyle(parent).display.startsWith("inline");
      pageText += (inline && previousInline ? "" : " ") + value;
      previousInline = inline;
    }
  }
  const visibleText: DomSnapshot["visibleText"] = [];
  for (const [el, texts] of byParent) {
    const cs = getComputedStyle(el);
    visibleText.push({
      selector: cssPath(el),
      text: texts.join(" ").replace(/\s+/g, " ").trim(),
      inCode: !!el.closest("code, pre, kbd, samp"),
      fontSizePx: parseFloat(cs.fontSize),
      fontWeight: Number(cs.fontWeight) || 400,
    });
  }
  return { visibleText, pageText: pageText.replace(/\s+/g, " ").trim() };
}

/** How a form control is labelled, or null when it has no accessible label (a placeholder does not count). */
export function domLabelOf(el: Element): DomSnapshot["formControls"][number]["labelledBy"] {
  const id = el.getAttribute("id");
  if (id && Array.from(document.querySelectorAll("label")).some((l) => l.htmlFor === id && textOfElement(l)))
    return "label-for";
  const ancestor = el.closest("label");
  if (ancestor && textOfElement(ancestor)) return "ancestor-label";
  if ((el.getAttribute("aria-label") ?? "").trim()) return "aria-label";
  const ids = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
  if (ids.some((i) => textOfElement(document.getElementById(i) ?? document.createElement("i"))))
    return "aria-labelledby";
  if ((el.getAttribute("title") ?? "").trim()) return "title";
  return null;
}

/** Inputs, selects and text areas a person fills in (not hidden inputs or buttons), with how each is labelled. */
export function domFormControls(): DomSnapshot["formControls"] {
  return Array.from(document.querySelectorAll("input, select, textarea"))
    .filter(
      (el) =>
        el.tagName !== "INPUT" ||
        !["hidden", "submit", "button", "reset", "image"].includes((el as HTMLInputElement).type),
    )
    .map((el) => ({
      selector: cssPath(el),
      tag: el.tagName.toLowerCase(),
      type: el.tagName === "INPUT" ? (el as HTMLInputElement).type : el.tagName.toLowerCase(),
      labelledBy: domLabelOf(el),
      visible: domIsVisible(el),
    }));
}

/** Every URL the page's markup and styles load from: src, poster, srcset, link href, style url(), <style> url(). */
export function domSubresources(): DomSnapshot["subresources"] {
  const subresources: DomSnapshot["subresources"] = [];
  const addRef = (el: Element, attribute: string, raw: string) => {
    const value = raw.trim();
    if (value) subresources.push({ selector: cssPath(el), attribute, raw: value, resolved: resolvedUrl(value) });
  };
  const cssUrls = (css: string) => Array.from(css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g), (m) => m[2]!);
  for (const el of Array.from(
    document.querySelectorAll(
      "img, script[src], iframe[src], video, audio, source, embed[src], track[src], input[type=image]",
    ),
  )) {
    for (const attr of ["src", "poster"]) if (el.hasAttribute(attr)) addRef(el, attr, el.getAttribute(attr)!);
    const srcset = el.getAttribute("srcset");
    if (srcset) for (const candidate of srcset.split(",")) addRef(el, "srcset", candidate.trim().split(/\s+/)[0] ?? "");
  }
  for (const el of Array.from(document.querySelectorAll("link[href]"))) {
    const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rel.some((r) => ["stylesheet", "preload", "icon", "modulepreload", "apple-touch-icon", "manifest"].includes(r)))
      addRef(el, "href", el.getAttribute("href")!);
  }
  for (const el of Array.from(document.querySelectorAll("[style]")))
    for (const u of cssUrls(el.getAttribute("style")!)) addRef(el, "style url()", u);
  for (const el of Array.from(document.querySelectorAll("style")))
    for (const u of cssUrls(el.textContent ?? "")) addRef(el, "<style> url()", u);
  return subresources;
}

/** Headings, h1-h6 and role=heading (its aria-level first). */
export function domHeadings(): DomSnapshot["headings"] {
  const headings: DomSnapshot["headings"] = [];
  for (const el of Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6, [role=heading]"))) {
    const tagLevel = /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : NaN;
    const ariaLevel = Number(el.getAttribute("aria-level"));
    const level = el.getAttribute("role") === "heading" && ariaLevel >= 1 ? ariaLevel : tagLevel;
    if (!Number.isFinite(level)) continue;
    headings.push({ selector: cssPath(el), level, text: textOfElement(el), visible: domIsVisible(el) });
  }
  return headings;
}

/** Every <img> and <input type=image>: source, alt, whether it loaded. */
export function domImages(): DomSnapshot["images"] {
  return Array.from(document.querySelectorAll("img, input[type=image]")).map((el) => {
    const img = el as HTMLImageElement;
    const isImg = el.tagName === "IMG";
    return {
      selector: cssPath(el),
      tag: isImg ? "img" : "input",
      src: imageSource(el),
      hasAlt: el.hasAttribute("alt"),
      alt: el.getAttribute("alt"),
      naturalWidth: isImg ? img.naturalWidth : 0,
      complete: isImg ? img.complete : true,
      visible: domIsVisible(el),
    };
  });
}

/** Every <a href>: the href as written and resolved, its text. */
export function domAnchors(): DomSnapshot["anchors"] {
  return Array.from(document.querySelectorAll("a[href]")).map((el) => {
    const href = el.getAttribute("href") ?? "";
    return {
      selector: cssPath(el),
      href,
      resolved: resolvedUrl(href),
      text: textOfElement(el),
      visible: domIsVisible(el),
    };
  });
}

/** Every <meta>. */
export function domMetas(): DomSnapshot["metas"] {
  return Array.from(document.querySelectorAll("meta")).map((m) => ({
    name: m.getAttribute("name"),
    property: m.getAttribute("property"),
    httpEquiv: m.getAttribute("http-equiv"),
    content: m.getAttribute("content"),
  }));
}

/** Every <link href>, and whether it is in <head>. */
export function domLinkElements(): DomSnapshot["linkElements"] {
  return Array.from(document.querySelectorAll("link[href]")).map((l) => ({
    rel: (l.getAttribute("rel") ?? "").toLowerCase(),
    href: l.getAttribute("href")!,
    resolved: resolvedUrl(l.getAttribute("href")!),
    inHead: l.closest("head") !== null,
  }));
}

export const DOM_HELPERS = {
  ...COMMON_HELPERS,
  domIsHidden,
  domIsVisible,
  domVisibleText,
  domLabelOf,
  domFormControls,
  domSubresources,
  domHeadings,
  domImages,
  domAnchors,
  domMetas,
  domLinkElements,
};

/** Runs in the page, with DOM_HELPERS installed: the DOM at the current viewport, everything the DOM checks read. */
export function snapshotDom(helpersKey: string): DomSnapshot {
  const h = (globalThis as unknown as Record<symbol, typeof DOM_HELPERS>)[Symbol.for(helpersKey)]!;
  const { visibleText, pageText } = h.domVisibleText();
  const title = document.head?.querySelector("title") ?? null;
  return {
    url: location.href,
    viewport: { width: innerWidth, height: innerHeight },
    htmlLang: document.documentElement.getAttribute("lang"),
    title: title ? (title.textContent ?? "") : null,
    metas: h.domMetas(),
    headings: h.domHeadings(),
    images: h.domImages(),
    anchors: h.domAnchors(),
    visibleText,
    pageText,
    linkElements: h.domLinkElements(),
    formControls: h.domFormControls(),
    subresources: h.domSubresources(),
    jsonLd: Array.from(document.querySelectorAll('script[type="application/ld+json" i]')).map(
      (s) => s.textContent ?? "",
    ),
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
  };
}
