import type { LayoutSnapshot } from "../artifact-shapes";
import {
  COMMON_HELPERS,
  cssPath,
  imageSource,
  inColouredContainer,
  paintedInside,
  pageBox,
  rgbaOf,
  runCache,
  shownWithArea,
  textOfElement,
} from "./common";

/**
 * Geometry at one viewport: page helpers (installed by page-helpers.ts) and the page function that composes them,
 * snapshotLayout: overlapping text, call-to-action candidates, tap targets, what sticks out sideways, broken images,
 * words broken letter by letter.
 */

/** An element's computed style and box, and whether it is rendered with area. */
export function layoutBox(el: Element): { shown: boolean; cs: CSSStyleDeclaration; r: DOMRect } {
  const cs = getComputedStyle(el);
  const r = el.getBoundingClientRect();
  return { shown: shownWithArea(el, cs, r), cs, r };
}

/** An element's text as a layout finding quotes it: white space collapsed, at most 80 characters. */
export function shortText(el: Element): string {
  return textOfElement(el).slice(0, 80);
}

/** The colour of the nearest background with any opacity at or above an element, white when there is none. */
export function opaqueBackground(el: Element | null): string {
  for (let n = el; n; n = n.parentElement) {
    const c = rgbaOf(getComputedStyle(n).backgroundColor);
    if (c[3] > 0) return getComputedStyle(n).backgroundColor;
  }
  return "rgb(255, 255, 255)";
}

/**
 * The part of the page anyone can see or scroll to, in viewport coordinates: the root scroller's scrollable
 * area, from the page's origin (from its far left, right to left). What lies beyond it, a skip link at top:-40px
 * until it is focused or a label at left:-9999px, is on no screen.
 */
export function reachableArea(): { l: number; t: number; r: number; b: number } {
  const root = document.scrollingElement ?? document.documentElement;
  const rtl = getComputedStyle(document.documentElement).direction === "rtl";
  const left = rtl ? document.documentElement.clientWidth - root.scrollWidth : 0;
  return { l: left - scrollX, t: -scrollY, r: left + root.scrollWidth - scrollX, b: root.scrollHeight - scrollY };
}

/** The viewport rectangle a clip: rect(…) leaves of an absolutely positioned element's border box; null when none. */
export function clipRectOf(cs: CSSStyleDeclaration, r: DOMRect): { l: number; t: number; r: number; b: number } | null {
  const m = cs.clip.match(/^rect\((.*)\)$/);
  if (!m || (cs.position !== "absolute" && cs.position !== "fixed")) return null;
  const [top, right, bottom, left] = m[1]!.split(/[\s,]+/).map((v) => (v === "auto" ? null : parseFloat(v)));
  return {
    l: r.left + (left ?? 0),
    t: r.top + (top ?? 0),
    r: right == null ? r.right : r.left + right,
    b: bottom == null ? r.bottom : r.top + bottom,
  };
}

/**
 * What of an element's text can show: the part of the page anyone can reach (reachableArea; for a fixed element,
 * the viewport), cut by every ancestor that clips its overflow or has a clip (the visually-hidden pattern: a 1px
 * box with overflow hidden and clip).
 */
export function clipOf(el: Element): { l: number; t: number; r: number; b: number } {
  const cache = runCache<Element, { l: number; t: number; r: number; b: number }>("layout clip");
  const cached = cache.get(el);
  if (cached) return cached;
  const cs = getComputedStyle(el);
  let up = el.parentElement ? clipOf(el.parentElement) : reachableArea();
  if (cs.position === "fixed") {
    const { clientWidth, clientHeight } = document.documentElement;
    up = {
      l: Math.max(up.l, 0),
      t: Math.max(up.t, 0),
      r: Math.min(up.r, clientWidth),
      b: Math.min(up.b, clientHeight),
    };
  }
  let clip = up;
  if (
    cs.overflowX !== "visible" ||
    cs.overflowY !== "visible" ||
    cs.clip.startsWith("rect") ||
    cs.clipPath !== "none"
  ) {
    const r = el.getBoundingClientRect();
    const own = clipRectOf(cs, r) ?? { l: r.left, t: r.top, r: r.right, b: r.bottom };
    clip = {
      l: Math.max(up.l, own.l),
      t: Math.max(up.t, own.t),
      r: Math.min(up.r, own.r),
      b: Math.min(up.b, own.b),
    };
  }
  cache.set(el, clip);
  return clip;
}

/**
 * The empty space above and below a text's glyphs in its line box. A text rect is its font's content box, taller
 * than the glyphs: "22" at 96px with line-height 0.9 overhangs its line box by 12px of empty ascent. What can
 * overlap is the ink, measured in the element's own font.
 */
export function inkTrim(cs: CSSStyleDeclaration, text: string): { top: number; bottom: number } {
  const pens = runCache<string, CanvasRenderingContext2D | null>("ink pen");
  if (!pens.has("pen")) pens.set("pen", document.createElement("canvas").getContext("2d"));
  const pen = pens.get("pen");
  if (!pen) return { top: 0, bottom: 0 };
  const font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const shown =
    cs.textTransform === "uppercase"
      ? text.toUpperCase()
      : cs.textTransform === "lowercase"
        ? text.toLowerCase()
        : text;
  const trims = runCache<string, { top: number; bottom: number }>("ink trims");
  const key = `${font}|${shown}`;
  let trim = trims.get(key);
  if (!trim) {
    pen.font = font;
    const m = pen.measureText(shown);
    trim = {
      top: Math.max(0, m.fontBoundingBoxAscent - m.actualBoundingBoxAscent),
      bottom: Math.max(0, m.fontBoundingBoxDescent - m.actualBoundingBoxDescent),
    };
    trims.set(key, trim);
  }
  return trim;
}

/** The ink rectangles (page coordinates) of every visible text node, as far as no ancestor clips them. */
export function textInkRects(): Array<{ el: Element; x: number; y: number; w: number; h: number }> {
  const rects: Array<{ el: Element; x: number; y: number; w: number; h: number }> = [];
  if (!document.body) return rects;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || !(n.nodeValue ?? "").trim() || el.closest("script, style, noscript, template")) continue;
    const { shown, cs } = layoutBox(el);
    if (!shown || cs.visibility !== "visible") continue;
    range.selectNodeContents(n);
    const clip = clipOf(el);
    const trim = inkTrim(cs, (n.nodeValue ?? "").trim());
    for (const r of Array.from(range.getClientRects())) {
      const l = Math.max(r.left, clip.l);
      const t = Math.max(r.top + trim.top, clip.t);
      const w = Math.min(r.right, clip.r) - l;
      const h = Math.min(r.bottom - trim.bottom, clip.b) - t;
      if (w > 0 && h > 0) rects.push({ el, x: l + scrollX, y: t + scrollY, w, h });
    }
  }
  return rects;
}

/** Text rectangles of unrelated elements (neither holds the other) that overlap by 4px or more each way; at most 50 pairs. */
export function textOverlaps(
  rects: Array<{ el: Element; x: number; y: number; w: number; h: number }>,
): LayoutSnapshot["textOverlaps"] {
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
      overlaps.push({
        a: cssPath(a.el),
        b: cssPath(b.el),
        textA: shortText(a.el),
        textB: shortText(b.el),
        width: Math.round(w),
        height: Math.round(h),
      });
    }
  }
  return overlaps;
}

/** The text of a block outside any interactive element in it (`targets`): what makes a link part of a sentence. */
export function sentenceText(block: Element, targets: string): string {
  const cache = runCache<Element, string>("sentence text");
  const cached = cache.get(block);
  if (cached !== undefined) return cached;
  let text = "";
  const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const target = n.parentElement?.closest(targets);
    if (!target || !block.contains(target)) text += n.nodeValue ?? "";
  }
  const own = text.replace(/\s+/g, " ").trim();
  cache.set(block, own);
  return own;
}

/** Interactive elements: call-to-action candidates and tap targets, with their box and whether they look like buttons. */
export function layoutControls(): LayoutSnapshot["controls"] {
  const targets = "a[href], button, input:not([type=hidden]), select, textarea, [role=button], [role=link], summary";
  const controls: LayoutSnapshot["controls"] = [];
  for (const el of Array.from(document.querySelectorAll(targets))) {
    const { shown, cs, r } = layoutBox(el);
    const parentBg = opaqueBackground(el.parentElement);
    const bg = rgbaOf(cs.backgroundColor);
    const border = Math.max(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0);
    const buttonStyled =
      (bg[3] > 0 && cs.backgroundColor !== parentBg) ||
      (border >= 1 && cs.borderTopStyle !== "none") ||
      inColouredContainer(el) ||
      paintedInside(el);
    const block = el.parentElement;
    // WCAG 2.5.8 exempts targets inside a sentence: a link whose parent block holds text of its own, not only
    // the text of other targets (a row of links separated by spaces is not a sentence).
    const inline =
      el.tagName === "A" && !!block && cs.display.startsWith("inline") && sentenceText(block, targets).length > 10;
    // A menu's current item is highlighted like a button; it is where the reader is, not what to do next.
    const currentNavItem =
      !!el.closest('[aria-current]:not([aria-current=""]):not([aria-current="false"])') ||
      (el.tagName === "A" &&
        !!el.closest("nav, [role=navigation]") &&
        (el.classList.contains("active") || (el as HTMLAnchorElement).href === location.href.split("#")[0]));
    controls.push({
      selector: cssPath(el),
      tag: el.tagName.toLowerCase(),
      type: (el as HTMLInputElement).type ?? "",
      text: shortText(el) || (el as HTMLInputElement).value || el.getAttribute("aria-label") || "",
      href: el.tagName === "A" ? (el as HTMLAnchorElement).href : "",
      shown,
      display: cs.display,
      visibility: cs.visibility,
      opacity: Number(cs.opacity),
      box: pageBox(r),
      buttonStyled,
      inline,
      currentNavItem,
    });
  }
  return controls;
}

/** Elements that stick out past the right edge of the viewport (the outermost culprits, not fixed ones), widest first, at most 20. */
export function overflowingElements(): LayoutSnapshot["overflowing"] {
  const width = document.documentElement.clientWidth;
  const overflowing: LayoutSnapshot["overflowing"] = [];
  for (const el of Array.from(document.body?.querySelectorAll("*") ?? [])) {
    const r = el.getBoundingClientRect();
    if (r.right + scrollX > width + 1 && r.width > 0 && r.height > 0 && getComputedStyle(el).position !== "fixed") {
      const parent = el.parentElement?.getBoundingClientRect();
      // Report the outermost culprit: skip children of an element that already overflows.
      if (parent && parent.right + scrollX > width + 1) continue;
      overflowing.push({ selector: cssPath(el), right: Math.round(r.right + scrollX), width: Math.round(r.width) });
    }
  }
  return overflowing.sort((a, b) => b.right - a.right).slice(0, 20);
}

/**
 * Words broken letter by letter: a word of 4 or more Latin, Greek or Cyrillic letters or digits whose visible glyphs
 * fall on 3 or more lines, at most 3 characters a line (a column narrower than the word under overflow-wrap: anywhere
 * or word-break: break-all). Only text whose lines are all narrower than 4 of its ems is read. A long token broken
 * in two, a hyphenated word, scripts that break between any characters (CJK, Thai), text clipped to nothing (the
 * visually-hidden pattern) and vertical writing are not. At most 20, one per element.
 */
export function wordsBrokenIntoLetters(): LayoutSnapshot["brokenWords"] {
  const found: LayoutSnapshot["brokenWords"] = [];
  if (!document.body) return found;
  const seen = new Set<Element>();
  const word = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}\p{Nd}]{4,}/gu;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let n = walker.nextNode(); n && found.length < 20; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = n.nodeValue ?? "";
    if (!el || seen.has(el) || text.trim().length < 4 || el.closest("script, style, noscript, template, svg")) continue;
    const { shown, cs } = layoutBox(el);
    if (!shown || cs.visibility !== "visible" || !cs.writingMode.startsWith("horizontal")) continue;
    range.selectNodeContents(n);
    const lines = Array.from(range.getClientRects());
    const em = parseFloat(cs.fontSize) || 16;
    if (lines.length < 3 || lines.some((r) => r.width >= 4 * em)) continue;
    const clip = clipOf(el);
    for (const m of text.matchAll(word)) {
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set<number>();
      let width = 0;
      for (const r of Array.from(range.getClientRects())) {
        if (r.width <= 0 || r.right <= clip.l || r.left >= clip.r || r.bottom <= clip.t || r.top >= clip.b) continue;
        tops.add(Math.round(r.top));
        width = Math.max(width, r.width);
      }
      if (tops.size >= 3 && m[0].length / tops.size <= 3) {
        found.push({ selector: cssPath(el), word: m[0].slice(0, 40), lines: tops.size, width: Math.round(width) });
        seen.add(el);
        break;
      }
    }
  }
  return found;
}

/** Images that finished loading without a picture and are shown. */
export function brokenImages(): LayoutSnapshot["brokenImages"] {
  return Array.from(document.images)
    .filter((img) => img.complete && img.naturalWidth === 0 && layoutBox(img).shown)
    .map((img) => ({ selector: cssPath(img), src: imageSource(img) }));
}

export const LAYOUT_HELPERS = {
  ...COMMON_HELPERS,
  layoutBox,
  shortText,
  opaqueBackground,
  reachableArea,
  clipRectOf,
  clipOf,
  inkTrim,
  textInkRects,
  textOverlaps,
  sentenceText,
  layoutControls,
  overflowingElements,
  wordsBrokenIntoLetters,
  brokenImages,
};

/** Runs in the page, with LAYOUT_HELPERS installed: the geometry at the current viewport. */
export function snapshotLayout(helpersKey: string): LayoutSnapshot {
  const h = (globalThis as unknown as Record<symbol, typeof LAYOUT_HELPERS>)[Symbol.for(helpersKey)]!;
  const textOverlaps = h.textOverlaps(h.textInkRects());
  const controls = h.layoutControls();
  const overflowing = h.overflowingElements();
  const brokenImages = h.brokenImages();
  const brokenWords = h.wordsBrokenIntoLetters();
  const h1 = Array.from(document.querySelectorAll("h1")).find((el) => h.layoutBox(el).shown);
  return {
    viewport: { width: innerWidth, height: innerHeight },
    documentWidth: document.documentElement.scrollWidth,
    documentHeight: document.documentElement.scrollHeight,
    textOverlaps,
    controls,
    overflowing,
    brokenImages,
    brokenWords,
    visibleH1: h1 ? h.shortText(h1) : null,
  };
}
