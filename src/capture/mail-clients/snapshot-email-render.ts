import type { Box } from "../artifact-shapes";
import {
  COMMON_HELPERS,
  cssPath,
  inColouredContainer,
  pageBox,
  paintedInside,
  rgbaOf,
  shownWithArea,
} from "../page-functions/common";

export type RGB = [number, number, number];

/** What the email checks read from one render, beyond the layout snapshot. */
export interface EmailRenderSnapshot {
  /** The client's canvas colour behind the message. */
  canvas: RGB;
  /** Visible text, per element owning text nodes: its colour against the background composited under it. */
  textBlocks: Array<{
    selector: string;
    text: string;
    fontSizePx: number;
    bold: boolean;
    color: RGB;
    background: RGB;
    contrast: number;
    /** Dark renders: the same text's contrast in light mode, before the client darkened the message. */
    lightContrast?: number;
  }>;
  images: Array<{
    selector: string;
    /** Where the source points: remote (blocked here), data:, cid: (blocked here too), or nothing. */
    source: "remote" | "data" | "cid" | "none" | "other";
    url: string;
    alt: string | null;
    box: Box;
    shown: boolean;
    loaded: boolean;
    /** The href of the link around it, if any. */
    link: string | null;
    /** What the link around it shows with images off, its text or its images' alt ("" when none or not linked): many links may share an href such as #. */
    linkText: string;
  }>;
  links: Array<{
    selector: string;
    href: string;
    text: string;
    box: Box;
    shown: boolean;
    /** Looks like a button: a background colour unlike its surroundings, a border, a background image, or a coloured cell, table or wrapper around it alone. */
    buttonStyled: boolean;
    /** Its own text colour (of the element inside it that holds its text) blended over what is behind that text (null for a link without text of its own), and that background (background images are blocked, so they do not count). */
    color: RGB | null;
    background: RGB;
    /** Its own text against the background under it (WCAG 2.x ratio); null for a link without text. */
    contrast: number | null;
    /** How much of its width lies within the viewport. */
    visibleShare: number;
  }>;
  /** Words of visible live text (alt text of images not included) and of alt text of images that did not load. */
  words: number;
  altWords: number;
  viewportWidth: number;
}

/** What the page measures; the contrast ratios are computed outside it (withContrast), with culori. */
export type MeasuredEmailRender = Omit<EmailRenderSnapshot, "textBlocks" | "links"> & {
  textBlocks: Array<Omit<EmailRenderSnapshot["textBlocks"][number], "contrast">>;
  links: Array<Omit<EmailRenderSnapshot["links"][number], "contrast">>;
};

/**
 * What the email checks read from a rendered message, measured in its page: page helpers (installed by
 * page-helpers.ts) and the page function that composes them, snapshotEmailRender. The contrast ratios are computed
 * outside the page (gather-render.ts, withContrast, with culori).
 */

/** The background under an element: its ancestors' background colours composited over the client's canvas. */
export function backgroundUnder(el: Element | null, canvas: RGB): RGB {
  const layers: Array<[number, number, number, number]> = [];
  for (let n = el; n; n = n.parentElement) {
    const c = rgbaOf(getComputedStyle(n).backgroundColor);
    if (c[3] > 0) {
      layers.push(c);
      if (c[3] >= 1) break;
    }
  }
  let out: RGB = [...canvas];
  for (const [r, g, b, a] of layers.reverse())
    out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
  return out.map(Math.round) as RGB;
}

/** A colour with alpha blended over an opaque one. */
export function blendOver(fg: [number, number, number, number], bg: RGB): RGB {
  return [
    fg[0] * fg[3] + bg[0] * (1 - fg[3]),
    fg[1] * fg[3] + bg[1] * (1 - fg[3]),
    fg[2] * fg[3] + bg[2] * (1 - fg[3]),
  ].map(Math.round) as RGB;
}

/** Rendered with area. */
export function renderShown(el: Element): boolean {
  return shownWithArea(el, getComputedStyle(el), el.getBoundingClientRect());
}

/** Each element that owns visible text, with that text, and the count of its words. */
export function textOwners(): { owners: Map<Element, string>; words: number } {
  const owners = new Map<Element, string>();
  let words = 0;
  if (!document.body) return { owners, words };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    const text = (n.nodeValue ?? "").replace(/\s+/g, " ").trim();
    if (!el || !text || el.closest("script, style, noscript, template, title")) continue;
    if (!renderShown(el)) continue;
    words += text.split(" ").filter((w) => /\w/.test(w)).length;
    owners.set(el, `${owners.get(el) ?? ""} ${text}`.trim());
  }
  return { owners, words };
}

/** Visible text per owning element (at most 400): its colour against the background composited under it. */
export function renderTextBlocks(owners: Map<Element, string>, canvas: RGB): MeasuredEmailRender["textBlocks"] {
  const textBlocks: MeasuredEmailRender["textBlocks"] = [];
  for (const [el, text] of owners) {
    if (textBlocks.length >= 400) break;
    const cs = getComputedStyle(el);
    const background = backgroundUnder(el, canvas);
    textBlocks.push({
      selector: cssPath(el),
      text: text.slice(0, 120),
      fontSizePx: parseFloat(cs.fontSize) || 16,
      bold: Number(cs.fontWeight) >= 600,
      color: blendOver(rgbaOf(cs.color), background),
      background,
    });
  }
  return textBlocks;
}

/** What a link shows with images off: its text, else the alt text of its images. */
export function linkShowsText(a: Element | null): string {
  if (!a) return "";
  const own = (a.textContent ?? "").replace(/\s+/g, " ").trim();
  return (
    own ||
    Array.from(a.querySelectorAll("img"))
      .map((i) => i.getAttribute("alt") ?? "")
      .join(" ")
      .trim()
  );
}

/** Every image: where its source points, whether it loaded, the link around it; and the words of alt text of those that did not load. */
export function renderImages(): { images: EmailRenderSnapshot["images"]; altWords: number } {
  let altWords = 0;
  const images: EmailRenderSnapshot["images"] = [];
  for (const img of Array.from(document.images)) {
    const raw = img.getAttribute("src") ?? "";
    const source = !raw
      ? "none"
      : /^(https?:)?\/\//i.test(raw)
        ? "remote"
        : /^data:/i.test(raw)
          ? "data"
          : /^cid:/i.test(raw)
            ? "cid"
            : "other";
    const loaded = img.complete && img.naturalWidth > 0;
    const alt = img.getAttribute("alt");
    if (!loaded && alt) altWords += alt.split(/\s+/).filter((w) => /\w/.test(w)).length;
    images.push({
      selector: cssPath(img),
      source,
      url: raw.startsWith("data:") ? `${raw.slice(0, 40)}…` : raw,
      alt,
      box: pageBox(img.getBoundingClientRect()),
      shown: renderShown(img),
      loaded,
      link: img.closest("a[href]")?.getAttribute("href") ?? null,
      linkText: linkShowsText(img.closest("a[href]")),
    });
  }
  return { images, altWords };
}

/** A link's box: the union of its own box and its children's (an inline link around a block). */
export function linkBox(a: Element): DOMRect {
  const r = a.getBoundingClientRect();
  let left = r.left;
  let right = r.right;
  let top = r.top;
  let bottom = r.bottom;
  for (const child of Array.from(a.querySelectorAll("*"))) {
    const c = child.getBoundingClientRect();
    if (c.width === 0 || c.height === 0) continue;
    left = Math.min(left, c.left);
    right = Math.max(right, c.right);
    top = Math.min(top, c.top);
    bottom = Math.max(bottom, c.bottom);
  }
  return new DOMRect(left, top, right - left, bottom - top);
}

/** Every link: its box, whether it looks like a button, its own text's colour on what is behind it, how much of it is in view. */
export function renderLinks(owners: Map<Element, string>, canvas: RGB): MeasuredEmailRender["links"] {
  const width = document.documentElement.clientWidth;
  const links: MeasuredEmailRender["links"] = [];
  for (const a of Array.from(document.querySelectorAll("a[href]"))) {
    const cs = getComputedStyle(a);
    const union = linkBox(a);
    const own = (a.textContent ?? "").replace(/\s+/g, " ").trim();
    const bg = rgbaOf(cs.backgroundColor);
    const parentBg = backgroundUnder(a.parentElement, canvas);
    const border = Math.max(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0);
    const buttonStyled =
      (!!cs.backgroundImage && cs.backgroundImage !== "none") ||
      (bg[3] > 0 && blendOver(bg, parentBg).join() !== parentBg.join()) ||
      (border >= 1 && cs.borderTopStyle !== "none") ||
      // A "bulletproof" button: the coloured cell, table or wrapper around a lone link.
      inColouredContainer(a) ||
      // The button drawn on an element inside the link (a coloured span or table).
      paintedInside(a);
    // The text is drawn in the colour of the element that holds it, which for a link around a table or a
    // <span> is not the link itself: the first element inside it that owns visible text.
    const textHolder = [...owners.keys()].find((el) => a === el || a.contains(el)) ?? a;
    const linkBackground = backgroundUnder(textHolder, canvas);
    const inside = Math.max(0, Math.min(union.right, width) - Math.max(union.left, 0));
    links.push({
      selector: cssPath(a),
      href: a.getAttribute("href") ?? "",
      text: linkShowsText(a).slice(0, 120),
      box: pageBox(union),
      shown: renderShown(a) || Array.from(a.children).some((c) => renderShown(c)),
      buttonStyled,
      color: own ? blendOver(rgbaOf(getComputedStyle(textHolder).color), linkBackground) : null,
      background: linkBackground,
      visibleShare: union.width > 0 ? Math.round((inside / union.width) * 100) / 100 : 0,
    });
  }
  return links;
}

export const EMAIL_RENDER_HELPERS = {
  ...COMMON_HELPERS,
  backgroundUnder,
  blendOver,
  renderShown,
  textOwners,
  renderTextBlocks,
  linkShowsText,
  renderImages,
  linkBox,
  renderLinks,
};

/** Runs in the rendered message, with EMAIL_RENDER_HELPERS installed: what the email checks read of the render. */
export function snapshotEmailRender(args: { helpersKey: string; canvas: RGB }): MeasuredEmailRender {
  const h = (globalThis as unknown as Record<symbol, typeof EMAIL_RENDER_HELPERS>)[Symbol.for(args.helpersKey)]!;
  const { owners, words } = h.textOwners();
  const textBlocks = h.renderTextBlocks(owners, args.canvas);
  const { images, altWords } = h.renderImages();
  const links = h.renderLinks(owners, args.canvas);
  return {
    canvas: args.canvas,
    textBlocks,
    images,
    links,
    words,
    altWords,
    viewportWidth: document.documentElement.clientWidth,
  };
}

/** Runs in the rendered message, with EMAIL_RENDER_HELPERS installed: each visible text's colour and background. */
export function snapshotTextColours(args: { helpersKey: string; canvas: RGB }): TextColours {
  const h = (globalThis as unknown as Record<symbol, typeof EMAIL_RENDER_HELPERS>)[Symbol.for(args.helpersKey)]!;
  return h.renderTextBlocks(h.textOwners().owners, args.canvas).map((t) => ({
    selector: t.selector,
    color: t.color,
    background: t.background,
  }));
}

export type TextColours = Array<{ selector: string; color: RGB; background: RGB }>;
