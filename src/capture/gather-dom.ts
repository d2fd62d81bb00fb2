import type { DomSnapshot } from "./artifacts";

/**
 * Runs inside the page (serialised by Playwright), so it must not reference anything outside itself.
 * Visible = rendered: not inside script/style/template/noscript, not display:none or
 * visibility:hidden, and not clipped to 1px or less (the screen-reader-only pattern).
 */
export function snapshotDom(): DomSnapshot {
  const cssPath = (el: Element): string => {
    if (el.id && document.querySelectorAll(`#${CSS.escape(el.id)}`).length === 1) return `#${CSS.escape(el.id)}`;
    const parts: string[] = [];
    let node: Element | null = el;
    while (node && node.nodeType === 1 && node !== document.documentElement) {
      const tag = node.tagName.toLowerCase();
      if (node.id && document.querySelectorAll(`#${CSS.escape(node.id)}`).length === 1) {
        parts.unshift(`#${CSS.escape(node.id)}`);
        return parts.join(" > ");
      }
      const parent: Element | null = node.parentElement;
      let part = tag;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.tagName === node!.tagName);
        if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
      }
      parts.unshift(part);
      node = parent;
    }
    parts.unshift("html");
    return parts.join(" > ");
  };

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
    visibleText.push({
      selector: cssPath(el),
      text: texts.join(" ").replace(/\s+/g, " ").trim(),
      inCode: !!el.closest("code, pre, kbd, samp"),
    });
  }

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
      src: isImg ? img.currentSrc || img.src : (el as HTMLInputElement).src,
      hasAlt: el.hasAttribute("alt"),
      alt: el.getAttribute("alt"),
      naturalWidth: isImg ? img.naturalWidth : 0,
      complete: isImg ? img.complete : true,
      visible: isVisible(el),
    };
  });

  const anchors: DomSnapshot["anchors"] = Array.from(document.querySelectorAll("a[href]")).map((el) => {
    const href = el.getAttribute("href") ?? "";
    let resolved = "";
    try {
      resolved = new URL(href, document.baseURI).href;
    } catch {}
    return { selector: cssPath(el), href, resolved, text: textOf(el), visible: isVisible(el) };
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
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
  };
}
