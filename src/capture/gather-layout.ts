import type { PageHelpers } from "./page-helpers";
import type { LayoutSnapshot } from "./artifacts";

/**
 * Geometry at one viewport, measured inside the page (serialised by Playwright, so self-contained):
 * overlapping text, call-to-action candidates, tap targets, what sticks out sideways, broken images.
 */
export function snapshotLayout(helpersKey: string): LayoutSnapshot {
  const { cssPath, imageSource, inColouredContainer } = (globalThis as unknown as Record<symbol, PageHelpers>)[Symbol.for(helpersKey)]!;
  const visibleBox = (el: Element) => {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    // checkVisibility also knows content the browser skips rendering (closed <details>, content-visibility).
    const shown = el.checkVisibility() && cs.visibility !== "hidden" && Number(cs.opacity) > 0 && r.width > 0 && r.height > 0;
    return { shown, cs, r };
  };
  const sx = scrollX;
  const sy = scrollY;
  const box = (r: DOMRect) => ({ x: r.left + sx, y: r.top + sy, width: r.width, height: r.height });
  const textOf = (el: Element) => (el.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 80);
  const rgba = (css: string) => {
    const m = css.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 1];
  };
  const opaqueBackground = (el: Element | null): string => {
    for (let n = el; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3]! > 0) return getComputedStyle(n).backgroundColor;
    }
    return "rgb(255, 255, 255)";
  };

  // What of an element's text can show: its rects cut by every ancestor that clips its overflow or has a clip
  // (the visually-hidden pattern: a 1px box with overflow hidden and clip), in viewport coordinates.
  const clipCache = new Map<Element, { l: number; t: number; r: number; b: number }>();
  const clipOf = (el: Element): { l: number; t: number; r: number; b: number } => {
    const cached = clipCache.get(el);
    if (cached) return cached;
    const up = el.parentElement ? clipOf(el.parentElement) : { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
    const cs = getComputedStyle(el);
    let clip = up;
    if (cs.overflowX !== "visible" || cs.overflowY !== "visible" || cs.clip.startsWith("rect") || cs.clipPath !== "none") {
      const r = el.getBoundingClientRect();
      clip = { l: Math.max(up.l, r.left), t: Math.max(up.t, r.top), r: Math.min(up.r, r.right), b: Math.min(up.b, r.bottom) };
    }
    clipCache.set(el, clip);
    return clip;
  };

  // A text rect is its font's content box, taller than the glyphs: "22" at 96px with line-height 0.9 overhangs
  // its line box by 12px of empty ascent. What can overlap is the ink, measured in the element's own font.
  const pen = document.createElement("canvas").getContext("2d");
  const trims = new Map<string, { top: number; bottom: number }>();
  const inkTrim = (cs: CSSStyleDeclaration, text: string): { top: number; bottom: number } => {
    if (!pen) return { top: 0, bottom: 0 };
    const font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const shown = cs.textTransform === "uppercase" ? text.toUpperCase() : cs.textTransform === "lowercase" ? text.toLowerCase() : text;
    const key = `${font}|${shown}`;
    let trim = trims.get(key);
    if (!trim) {
      pen.font = font;
      const m = pen.measureText(shown);
      trim = { top: Math.max(0, m.fontBoundingBoxAscent - m.actualBoundingBoxAscent), bottom: Math.max(0, m.fontBoundingBoxDescent - m.actualBoundingBoxDescent) };
      trims.set(key, trim);
    }
    return trim;
  };

  // Text overlap: client rects of every visible text node, as far as no ancestor clips them, compared between unrelated elements.
  const rects: Array<{ el: Element; x: number; y: number; w: number; h: number }> = [];
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !(n.nodeValue ?? "").trim() || el.closest("script, style, noscript, template")) continue;
      const { shown, cs } = visibleBox(el);
      if (!shown || cs.visibility !== "visible") continue;
      range.selectNodeContents(n);
      const clip = clipOf(el);
      const trim = inkTrim(cs, (n.nodeValue ?? "").trim());
      for (const r of Array.from(range.getClientRects())) {
        const l = Math.max(r.left, clip.l);
        const t = Math.max(r.top + trim.top, clip.t);
        const w = Math.min(r.right, clip.r) - l;
        const h = Math.min(r.bottom - trim.bottom, clip.b) - t;
        if (w > 0 && h > 0) rects.push({ el, x: l + sx, y: t + sy, w, h });
      }
    }
  }
  const overlaps: LayoutSnapshot["textOverlaps"] = [];
  const seenPairs = new Set<string>();
  const sorted = rects.slice().sort((a, b) => a.y - b.y);
  for (let i = 0; i < sorted.length && overlaps.length < 50; i++) {
    const a = sorted[i]!;
    for (let j = i + 1; j < sorted.length && sorted[j]!.y < a.y + a.h; j++) {
      const b = sorted[j]!;
      if (a.el === b.el || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (w < 4 || h < 4) continue;
      const key = [cssPath(a.el), cssPath(b.el)].sort().join("|");
      if (seenPairs.has(key)) continue;
      seenPairs.add(key);
      overlaps.push({ a: cssPath(a.el), b: cssPath(b.el), textA: textOf(a.el), textB: textOf(b.el), width: Math.round(w), height: Math.round(h) });
    }
  }

  // Interactive elements: call-to-action candidates and tap targets.
  const TARGETS = 'a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], summary';
  const interactive = Array.from(document.querySelectorAll(TARGETS));
  // The text of a block outside any target in it: what makes a link part of a sentence.
  const sentenceCache = new Map<Element, string>();
  const sentenceText = (block: Element): string => {
    const cached = sentenceCache.get(block);
    if (cached !== undefined) return cached;
    let text = "";
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const target = n.parentElement?.closest(TARGETS);
      if (!target || !block.contains(target)) text += n.nodeValue ?? "";
    }
    const own = text.replace(/\s+/g, " ").trim();
    sentenceCache.set(block, own);
    return own;
  };
  const controls: LayoutSnapshot["controls"] = [];
  for (const el of interactive) {
    const { shown, cs, r } = visibleBox(el);
    const parentBg = opaqueBackground(el.parentElement);
    const bg = rgba(cs.backgroundColor);
    const border = Math.max(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0);
    const buttonStyled = (bg[3]! > 0 && cs.backgroundColor !== parentBg) || (border >= 1 && cs.borderTopStyle !== "none") || inColouredContainer(el);
    const block = el.parentElement;
    // WCAG 2.5.8 exempts targets inside a sentence: a link whose parent block holds text of its own, not only
    // the text of other targets (a row of links separated by spaces is not a sentence).
    const inline = el.tagName === "A" && !!block && cs.display.startsWith("inline") && sentenceText(block).length > 10;
    controls.push({
      selector: cssPath(el),
      tag: el.tagName.toLowerCase(),
      type: (el as HTMLInputElement).type ?? "",
      text: textOf(el) || (el as HTMLInputElement).value || el.getAttribute("aria-label") || "",
      href: el.tagName === "A" ? (el as HTMLAnchorElement).href : "",
      shown,
      display: cs.display,
      visibility: cs.visibility,
      opacity: Number(cs.opacity),
      box: box(r),
      buttonStyled,
      inline,
    });
  }

  // Elements that stick out past the right edge of the viewport, widest first.
  const width = document.documentElement.clientWidth;
  const overflowing: LayoutSnapshot["overflowing"] = [];
  for (const el of Array.from(document.body?.querySelectorAll("*") ?? [])) {
    const r = el.getBoundingClientRect();
    if (r.right + sx > width + 1 && r.width > 0 && r.height > 0 && getComputedStyle(el).position !== "fixed") {
      const parent = el.parentElement?.getBoundingClientRect();
      // Report the outermost culprit: skip children of an element that already overflows.
      if (parent && parent.right + sx > width + 1) continue;
      overflowing.push({ selector: cssPath(el), right: Math.round(r.right + sx), width: Math.round(r.width) });
    }
  }

  const brokenImages = Array.from(document.images)
    .filter((img) => img.complete && img.naturalWidth === 0 && visibleBox(img).shown)
    .map((img) => ({ selector: cssPath(img), src: imageSource(img) }));

  const h1 = Array.from(document.querySelectorAll("h1")).find((h) => visibleBox(h).shown);
  return {
    viewport: { width: innerWidth, height: innerHeight },
    documentWidth: document.documentElement.scrollWidth,
    documentHeight: document.documentElement.scrollHeight,
    textOverlaps: overlaps,
    controls,
    overflowing: overflowing.sort((a, b) => b.right - a.right).slice(0, 20),
    brokenImages,
    visibleH1: h1 ? textOf(h1) : null,
  };
}
