import type { Box, ImagesSnapshot, PageImage, PagePicture } from "../artifact-shapes";
import { COMMON_HELPERS, cssPath, imageSource, pageBox, resolvedUrl, shownWithArea } from "./common";

/**
 * The images painted at one viewport: page helpers (installed by page-helpers.ts) and the page function that
 * composes them, snapshotImages. Every <img> / <input type=image> and every element whose computed
 * background-image holds a url(), with the size the picture is actually painted at (object-fit, background-size
 * and transforms applied) and its natural size; plus the boxes of images, video and frames, which colour
 * measurements leave out. Pseudo-element backgrounds (::before, ::after) are not seen: they have no box the DOM
 * can measure.
 */

/** The scroll offset and viewport width at the start of a snapshot: what every box is measured against. */
export type ImageFrame = { sx: number; sy: number; viewportWidth: number };

/** Rendered with area, and at least partly inside the viewport's width. */
export function shownInFrame(el: Element, cs: CSSStyleDeclaration, r: DOMRect, frame: ImageFrame): boolean {
  return shownWithArea(el, cs, r) && r.right + frame.sx > 0 && r.left + frame.sx < frame.viewportWidth;
}

/** A CSS length in pixels (0 when it is not one). */
export function px(v: string): number {
  return parseFloat(v) || 0;
}

/** Transform scale: the rendered box against the layout box. */
export function transformScale(el: HTMLElement, r: DOMRect): { x: number; y: number } {
  return {
    x: el.offsetWidth > 0 ? r.width / el.offsetWidth : 1,
    y: el.offsetHeight > 0 ? r.height / el.offsetHeight : 1,
  };
}

/** Top-level comma split of a CSS list (gradients hold commas inside parentheses, URLs inside quotes). */
export function cssLayers(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) {
      out.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(value.slice(start).trim());
  return out;
}

/** The resolved URL of a url() background layer, or null for a gradient (or a URL that does not resolve). */
export function backgroundUrl(layer: string): string | null {
  const m = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*))\s*\)$/.exec(layer);
  if (!m) return null;
  return resolvedUrl((m[1] ?? m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1").trim()) || null;
}

/**
 * Natural sizes of background pictures, by URL: decoded together (from the memory cache, normally), for at most
 * 1.5 s in all, and for at most 100 distinct pictures; past that a natural size reads as unknown (0×0).
 */
export async function naturalSizes(urls: string[]): Promise<Map<string, { w: number; h: number }>> {
  const pictures = new Map<string, HTMLImageElement>();
  for (const url of urls) {
    if (pictures.has(url) || pictures.size >= 100) continue;
    const im = new Image();
    im.src = url;
    pictures.set(url, im);
  }
  const decoding = [...pictures.values()].map((im) => im.decode().catch(() => {}));
  await Promise.race([Promise.all(decoding), new Promise((r) => setTimeout(r, 1500))]);
  return new Map([...pictures].map(([url, im]) => [url, { w: im.naturalWidth ?? 0, h: im.naturalHeight ?? 0 }]));
}

/** The size an <img>'s picture is painted at inside its content box, per object-fit and transforms; null without a content box. */
export function paintedImgSize(el: HTMLImageElement, cs: CSSStyleDeclaration, r: DOMRect): PageImage["painted"] {
  const nw = el.naturalWidth || 0;
  const nh = el.naturalHeight || 0;
  const cw =
    el.offsetWidth - px(cs.borderLeftWidth) - px(cs.borderRightWidth) - px(cs.paddingLeft) - px(cs.paddingRight);
  const ch =
    el.offsetHeight - px(cs.borderTopWidth) - px(cs.borderBottomWidth) - px(cs.paddingTop) - px(cs.paddingBottom);
  if (cw <= 0 || ch <= 0) return null;
  let painted: { width: number; height: number };
  const fit = cs.objectFit;
  if (fit === "fill" || !nw || !nh) painted = { width: cw, height: ch };
  else {
    const contain = Math.min(cw / nw, ch / nh);
    const s =
      fit === "cover"
        ? Math.max(cw / nw, ch / nh)
        : fit === "none"
          ? 1
          : fit === "scale-down"
            ? Math.min(1, contain)
            : contain;
    painted = { width: nw * s, height: nh * s };
  }
  const scale = transformScale(el, r);
  return { width: painted.width * scale.x, height: painted.height * scale.y };
}

/** Every <img> and <input type=image>, and the boxes of those shown. */
export function imgImages(frame: ImageFrame): { images: PageImage[]; mediaBoxes: Box[] } {
  const images: PageImage[] = [];
  const mediaBoxes: Box[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLImageElement>('img, input[type="image" i]'))) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const nw = el.naturalWidth || 0;
    // A picture that failed to load shows nothing of itself (a lazy one not loaded yet is not counted as failed).
    const broken = el.tagName === "IMG" && el.complete && !nw;
    const shown = shownInFrame(el, cs, r, frame) && !broken;
    const box = pageBox(r, frame.sx, frame.sy);
    images.push({
      selector: cssPath(el),
      kind: "img",
      src: imageSource(el),
      shown,
      box,
      painted: paintedImgSize(el, cs, r),
      fit: cs.objectFit,
      naturalWidth: nw,
      naturalHeight: el.naturalHeight || 0,
    });
    if (shown) mediaBoxes.push(box);
  }
  return { images, mediaBoxes };
}

/** The boxes of the video, frames and embedded objects shown. */
export function embeddedMediaBoxes(frame: ImageFrame): Box[] {
  const boxes: Box[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("video, iframe, embed, object"))) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (shownInFrame(el, cs, r, frame)) boxes.push(pageBox(r, frame.sx, frame.sy));
  }
  return boxes;
}

/** Every element whose computed background-image holds a url(). */
export function elementsWithBackgroundImage(): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>("*")).filter((el) =>
    getComputedStyle(el).backgroundImage.includes("url("),
  );
}

/** The size a background layer's picture is painted at in a positioning area, per its background-size; null when unknown. */
export function paintedBackgroundSize(
  fit: string,
  areaW: number,
  areaH: number,
  nw: number,
  nh: number,
): PageImage["painted"] {
  if (fit === "cover" || fit === "contain") {
    if (!nw || !nh) return null;
    const s = fit === "cover" ? Math.max(areaW / nw, areaH / nh) : Math.min(areaW / nw, areaH / nh);
    return { width: nw * s, height: nh * s };
  }
  const [a = "auto", b = "auto"] = fit.split(/\s+/);
  const len = (v: string, of: number) => (v === "auto" ? null : v.endsWith("%") ? (parseFloat(v) / 100) * of : px(v));
  let w = len(a, areaW);
  let h = len(b, areaH);
  if (w === null && h === null) [w, h] = nw && nh ? [nw, nh] : [null, null];
  else if (w === null) w = nw && nh ? (h! * nw) / nh : null;
  else if (h === null) h = nw && nh ? (w * nh) / nw : null;
  return w !== null && h !== null ? { width: w, height: h } : null;
}

/** Each url() layer of the elements' backgrounds, and the boxes of the elements that show one (the root's excepted). */
export function backgroundImages(
  elements: HTMLElement[],
  naturals: Map<string, { w: number; h: number }>,
  frame: ImageFrame,
): { images: PageImage[]; mediaBoxes: Box[] } {
  const images: PageImage[] = [];
  const mediaBoxes: Box[] = [];
  for (const el of elements) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const shown = shownInFrame(el, cs, r, frame);
    const box = pageBox(r, frame.sx, frame.sy);
    const sizes = cssLayers(cs.backgroundSize);
    const scale = transformScale(el, r);
    // The background positioning area (background-origin), in layout pixels.
    const origin = cs.backgroundOrigin.split(",")[0]!.trim();
    const borderX = px(cs.borderLeftWidth) + px(cs.borderRightWidth);
    const borderY = px(cs.borderTopWidth) + px(cs.borderBottomWidth);
    const areaW =
      el.offsetWidth -
      (origin === "border-box" ? 0 : borderX) -
      (origin === "content-box" ? px(cs.paddingLeft) + px(cs.paddingRight) : 0);
    const areaH =
      el.offsetHeight -
      (origin === "border-box" ? 0 : borderY) -
      (origin === "content-box" ? px(cs.paddingTop) + px(cs.paddingBottom) : 0);
    let anyUrl = false;
    const layers = cssLayers(cs.backgroundImage);
    for (let i = 0; i < layers.length; i++) {
      const src = backgroundUrl(layers[i]!);
      if (!src) continue;
      anyUrl = true;
      const fit = sizes[i % sizes.length] ?? "auto";
      const { w: nw, h: nh } = naturals.get(src) ?? { w: 0, h: 0 };
      let painted = areaW > 0 && areaH > 0 ? paintedBackgroundSize(fit, areaW, areaH, nw, nh) : null;
      if (painted) painted = { width: painted.width * scale.x, height: painted.height * scale.y };
      images.push({
        selector: cssPath(el),
        kind: "background",
        src,
        shown,
        box,
        painted,
        fit,
        naturalWidth: nw,
        naturalHeight: nh,
      });
    }
    // The root's background paints the whole canvas: it is the page, not a picture on it.
    if (anyUrl && shown && el !== document.documentElement && el !== document.body) mediaBoxes.push(box);
  }
  return { images, mediaBoxes };
}

export const IMAGES_HELPERS = {
  ...COMMON_HELPERS,
  shownInFrame,
  px,
  transformScale,
  cssLayers,
  backgroundUrl,
  naturalSizes,
  paintedImgSize,
  imgImages,
  embeddedMediaBoxes,
  elementsWithBackgroundImage,
  paintedBackgroundSize,
  backgroundImages,
};

/** Runs in the page, with IMAGES_HELPERS installed: the images painted at the current viewport. */
export async function snapshotImages(helpersKey: string): Promise<ImagesSnapshot> {
  const h = (globalThis as unknown as Record<symbol, typeof IMAGES_HELPERS>)[Symbol.for(helpersKey)]!;
  const frame = { sx: scrollX, sy: scrollY, viewportWidth: document.documentElement.clientWidth };
  const pictures = h.imgImages(frame);
  const embedded = h.embeddedMediaBoxes(frame);
  const withBackground = h.elementsWithBackgroundImage();
  const urls = withBackground.flatMap((el) =>
    h
      .cssLayers(getComputedStyle(el).backgroundImage)
      .map(h.backgroundUrl)
      .filter((u): u is string => !!u),
  );
  const backgrounds = h.backgroundImages(withBackground, await h.naturalSizes(urls), frame);
  return {
    viewport: { width: innerWidth, height: innerHeight },
    images: [...pictures.images, ...backgrounds.images],
    mediaBoxes: [...pictures.mediaBoxes, ...embedded, ...backgrounds.mediaBoxes],
  };
}

/**
 * Runs in the page, with IMAGES_HELPERS installed: the pictures whose text may be read (image-text), every shown <img>
 * and <input type=image> painted at least `min` large, in document order, with its alt and the link or button around it.
 */
export function snapshotPictures(args: { helpersKey: string; min: { width: number; height: number } }): PagePicture[] {
  const h = (globalThis as unknown as Record<symbol, typeof IMAGES_HELPERS>)[Symbol.for(args.helpersKey)]!;
  const pictures: PagePicture[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLImageElement>('img, input[type="image" i]'))) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const src = h.imageSource(el);
    if (!src || !h.shownWithArea(el, cs, r) || r.width < args.min.width || r.height < args.min.height) continue;
    const control = el.parentElement?.closest("a[href], button, [role=button], [role=link]") ?? null;
    pictures.push({
      selector: h.cssPath(el),
      src,
      alt: el.getAttribute("alt"),
      box: h.pageBox(r),
      control: control ? h.cssPath(control) : null,
    });
  }
  return pictures;
}
