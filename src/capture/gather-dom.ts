import type { PageHelpers } from "./page-helpers";
import type { DomSnapshot } from "./artifacts";

/**
 * Runs inside the page (serialised by Playwright), so it must not reference anything outside itself.
 * Visible = rendered: not inside script/style/template/noscript, not display:none or
 * visibility:hidden, and not clipped to 1px or less (the screen-reader-only pattern).
 */
export function snapshotDom(helpersKey: string): DomSnapshot {
  const { cssPath, imageSource } = (globalThis as unknown as Record<symbol, PageHelpers>)[Symbol.for(helpersKey)]!;

  const hiddenCache = new Map<Element, boolean>();
  const isHidden = (el: Element | null): boolean => {
    if (!el || el === document.documentElement) return false;
    const cached = hiddenCache.get(el);
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
        else hidden = isHidden(el.parentElement);
      }
    }
    hiddenCache.set(el, hidden);
    return hidden;
  };
  // visibility:hidden can be undone by a visible descendant; display:none cannot.
  const isVisible = (el: Element): boolean => {
    if (isHidden(el)) {
      const cs = getComputedStyle(el);
      if (cs.visibility !== "visible") return false;
      let p: Element | null = el;
      while (p && p !== document.documentElement) {
        const pcs = getComputedStyle(p);
        if (pcs.display === "none" || ["script", "style", "template", "noscript", "head"].includes(p.tagName.toLowerCase())) return false;
        const r = p.getBoundingClientRect();
        if ((pcs.overflow === "hidden" || pcs.clip.startsWith("rect")) && r.width <= 1 && r.height <= 1) return false;
        p = p.parentElement;
      }
      return true;
    }
    return true;
  };

  const textOf = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim();
  const resolve = (raw: string) => {
    try {
      return new URL(raw, document.baseURI).href;
    } catch {
      return "";
    }
  };

  const visibleText: DomSnapshot["visibleText"] = [];
  const byParent = new Map<Element, string[]>();
  // Reading order: inline neighbours join directly ("30 <b>days</b>."), block boundaries get a space.
  let pageText = "";
  let previousInline = false;
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      const value = n.nodeValue ?? "";
      if (!parent || !value.trim()) continue;
      if (!isVisible(parent)) continue;
      const list = byParent.get(parent) ?? [];
      list.push(value);
      byParent.set(parent, list);
      const inline = getComputedStyle(parent).display.startsWith("inline");
      pageText += (inline && previousInline ? "" : " ") + value;
      previousInline = inline;
    }
  }
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

  const labelOf = (el: Element): DomSnapshot["formControls"][number]["labelledBy"] => {
    const id = el.getAttribute("id");
    if (id && Array.from(document.querySelectorAll("label")).some((l) => l.htmlFor === id && textOf(l))) return "label-for";
    const ancestor = el.closest("label");
    if (ancestor && textOf(ancestor)) return "ancestor-label";
    if ((el.getAttribute("aria-label") ?? "").trim()) return "aria-label";
    const ids = (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean);
    if (ids.some((i) => textOf(document.getElementById(i) ?? document.createElement("i")))) return "aria-labelledby";
    if ((el.getAttribute("title") ?? "").trim()) return "title";
    return null;
  };
  const formControls: DomSnapshot["formControls"] = Array.from(document.querySelectorAll("input, select, textarea"))
    .filter((el) => el.tagName !== "INPUT" || !["hidden", "submit", "button", "reset", "image"].includes((el as HTMLInputElement).type))
    .map((el) => ({
      selector: cssPath(el),
      tag: el.tagName.toLowerCase(),
      type: el.tagName === "INPUT" ? (el as HTMLInputElement).type : el.tagName.toLowerCase(),
      labelledBy: labelOf(el),
      visible: isVisible(el),
    }));

  const subresources: DomSnapshot["subresources"] = [];
  const addRef = (el: Element, attribute: string, raw: string) => {
    const value = raw.trim();
    if (value) subresources.push({ selector: cssPath(el), attribute, raw: value, resolved: resolve(value) });
  };
  const cssUrls = (css: string) => Array.from(css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g), (m) => m[2]!);
  for (const el of Array.from(document.querySelectorAll("img, script[src], iframe[src], video, audio, source, embed[src], track[src], input[type=image]"))) {
    for (const attr of ["src", "poster"]) if (el.hasAttribute(attr)) addRef(el, attr, el.getAttribute(attr)!);
    for (const attr of ["srcset"]) {
      const v = el.getAttribute(attr);
      if (v) for (const candidate of v.split(",")) addRef(el, attr, candidate.trim().split(/\s+/)[0] ?? "");
    }
  }
  for (const el of Array.from(document.querySelectorAll("link[href]"))) {
    const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
    if (rel.some((r) => ["stylesheet", "preload", "icon", "modulepreload", "apple-touch-icon", "manifest"].includes(r))) addRef(el, "href", el.getAttribute("href")!);
  }
  for (const el of Array.from(document.querySelectorAll("[style]"))) for (const u of cssUrls(el.getAttribute("style")!)) addRef(el, "style url()", u);
  for (const el of Array.from(document.querySelectorAll("style"))) for (const u of cssUrls(el.textContent ?? "")) addRef(el, "<style> url()", u);

  const headings: DomSnapshot["headings"] = [];
  for (const el of Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6, [role=heading]"))) {
    const tagLevel = /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : NaN;
    const ariaLevel = Number(el.getAttribute("aria-level"));
    const level = el.getAttribute("role") === "heading" && ariaLevel >= 1 ? ariaLevel : tagLevel;
    if (!Number.isFinite(level)) continue;
    headings.push({ selector: cssPath(el), level, text: textOf(el), visible: isVisible(el) });
  }

  const images: DomSnapshot["images"] = Array.from(document.querySelectorAll("img, input[type=image]")).map((el) => {
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
      visible: isVisible(el),
    };
  });

  const anchors: DomSnapshot["anchors"] = Array.from(document.querySelectorAll("a[href]")).map((el) => {
    const href = el.getAttribute("href") ?? "";
    return { selector: cssPath(el), href, resolved: resolve(href), text: textOf(el), visible: isVisible(el) };
  });

  const titleEl = document.head?.querySelector("title") ?? null;
  return {
    url: location.href,
    viewport: { width: innerWidth, height: innerHeight },
    htmlLang: document.documentElement.getAttribute("lang"),
    title: titleEl ? titleEl.textContent ?? "" : null,
    metas: Array.from(document.querySelectorAll("meta")).map((m) => ({
      name: m.getAttribute("name"),
      property: m.getAttribute("property"),
      httpEquiv: m.getAttribute("http-equiv"),
      content: m.getAttribute("content"),
    })),
    headings,
    images,
    anchors,
    visibleText,
    pageText: pageText.replace(/\s+/g, " ").trim(),
    linkElements: Array.from(document.querySelectorAll("link[href]")).map((l) => ({
      rel: (l.getAttribute("rel") ?? "").toLowerCase(),
      href: l.getAttribute("href")!,
      resolved: resolve(l.getAttribute("href")!),
      inHead: l.closest("head") !== null,
    })),
    formControls,
    subresources,
    jsonLd: Array.from(document.querySelectorAll('script[type="application/ld+json" i]')).map((s) => s.textContent ?? ""),
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
  };
}
