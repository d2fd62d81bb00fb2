import type { PageHelpers } from "./page-helpers";
import type { Box, ImageSourceInfo, ImagesSnapshot } from "./artifacts";

/**
 * The images painted at one viewport, measured inside the page (serialised by Playwright, so self-contained):
 * every <img> / <input type=image> and every element whose computed background-image holds a url(), with the
 * size the picture is actually painted at (object-fit, background-size and transforms applied) and its
 * natural size; plus the boxes of images, video and frames, which colour measurements leave out.
 * Pseudo-element backgrounds (::before, ::after) are not seen: they have no box the DOM can measure.
 */
export async function snapshotImages(helpersKey: string): Promise<ImagesSnapshot> {
  const { cssPath, imageSource } = (globalThis as unknown as Record<symbol, PageHelpers>)[Symbol.for(helpersKey)]!;
  const sx = scrollX;
  const sy = scrollY;
  const viewportWidth = document.documentElement.clientWidth;
  const px = (v: string) => parseFloat(v) || 0;
  const shownBox = (el: Element, cs: CSSStyleDeclaration, r: DOMRect) =>
    el.checkVisibility() && cs.visibility !== "hidden" && Number(cs.opacity) > 0 && r.width > 0 && r.height > 0 && r.right + sx > 0 && r.left + sx < viewportWidth;
  const pageBox = (r: DOMRect): Box => ({ x: r.left + sx, y: r.top + sy, width: r.width, height: r.height });
  /** Transform scale: the rendered box against the layout box. */
  const scaleOf = (el: HTMLElement, r: DOMRect) => ({
    x: el.offsetWidth > 0 ? r.width / el.offsetWidth : 1,
    y: el.offsetHeight > 0 ? r.height / el.offsetHeight : 1,
  });

  // Natural sizes of background pictures: decoded together (from the memory cache, normally), for at most
  // 1.5 s in all, and for at most 100 distinct pictures; past that a natural size reads as unknown (0×0).
  const pictures = new Map<string, HTMLImageElement>();
  const loadNaturals = async (urls: string[]) => {
    for (const url of urls) {
      if (pictures.has(url) || pictures.size >= 100) continue;
      const im = new Image();
      im.src = url;
      pictures.set(url, im);
    }
    const decoding = [...pictures.values()].map((im) => im.decode().catch(() => {}));
    await Promise.race([Promise.all(decoding), new Promise((r) => setTimeout(r, 1500))]);
  };
  const natural = (url: string) => {
    const im = pictures.get(url);
    return { w: im?.naturalWidth ?? 0, h: im?.naturalHeight ?? 0 };
  };
  /** Top-level comma split (gradients hold commas inside parentheses, URLs inside quotes). */
  const layers = (value: string): string[] => {
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
  };
  const urlOf = (layer: string): string | null => {
    const m = /^url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)]*))\s*\)$/.exec(layer);
    if (!m) return null;
    const raw = (m[1] ?? m[2] ?? m[3] ?? "").replace(/\\(.)/g, "$1").trim();
    try {
      return new URL(raw, document.baseURI).href;
    } catch {
      return null;
    }
  };

  const images: ImagesSnapshot["images"] = [];
  const mediaBoxes: Box[] = [];
  for (const el of Array.from(document.querySelectorAll<HTMLImageElement>('img, input[type="image" i]'))) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const nw = el.naturalWidth || 0;
    const nh = el.naturalHeight || 0;
    // A picture that failed to load shows nothing of itself (a lazy one not loaded yet is not counted as failed).
    const broken = el.tagName === "IMG" && el.complete && !nw;
    const shown = shownBox(el, cs, r) && !broken;
    // The content box, in layout pixels, then the picture inside it per object-fit.
    const cw = el.offsetWidth - px(cs.borderLeftWidth) - px(cs.borderRightWidth) - px(cs.paddingLeft) - px(cs.paddingRight);
    const ch = el.offsetHeight - px(cs.borderTopWidth) - px(cs.borderBottomWidth) - px(cs.paddingTop) - px(cs.paddingBottom);
    let painted: { width: number; height: number } | null = null;
    if (cw > 0 && ch > 0) {
      const fit = cs.objectFit;
      if (fit === "fill" || !nw || !nh) painted = { width: cw, height: ch };
      else {
        const contain = Math.min(cw / nw, ch / nh);
        const s = fit === "cover" ? Math.max(cw / nw, ch / nh) : fit === "none" ? 1 : fit === "scale-down" ? Math.min(1, contain) : contain;
        painted = { width: nw * s, height: nh * s };
      }
      const scale = scaleOf(el, r);
      painted = { width: painted.width * scale.x, height: painted.height * scale.y };
    }
    const src = imageSource(el);
    images.push({ selector: cssPath(el), kind: "img", src, shown, box: pageBox(r), painted, fit: cs.objectFit, naturalWidth: nw, naturalHeight: nh });
    if (shown) mediaBoxes.push(pageBox(r));
  }
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("video, iframe, embed, object"))) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (shownBox(el, cs, r)) mediaBoxes.push(pageBox(r));
  }
  const withBackground = Array.from(document.querySelectorAll<HTMLElement>("*")).filter((el) => getComputedStyle(el).backgroundImage.includes("url("));
  await loadNaturals(withBackground.flatMap((el) => layers(getComputedStyle(el).backgroundImage).map(urlOf).filter((u): u is string => !!u)));
  for (const el of withBackground) {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const shown = shownBox(el, cs, r);
    const sizes = layers(cs.backgroundSize);
    const scale = scaleOf(el, r);
    // The background positioning area (background-origin), in layout pixels.
    const borderX = px(cs.borderLeftWidth) + px(cs.borderRightWidth);
    const borderY = px(cs.borderTopWidth) + px(cs.borderBottomWidth);
    const padX = px(cs.paddingLeft) + px(cs.paddingRight);
    const padY = px(cs.paddingTop) + px(cs.paddingBottom);
    const origin = cs.backgroundOrigin.split(",")[0]!.trim();
    const areaW = el.offsetWidth - (origin === "border-box" ? 0 : borderX) - (origin === "content-box" ? padX : 0);
    const areaH = el.offsetHeight - (origin === "border-box" ? 0 : borderY) - (origin === "content-box" ? padY : 0);
    let anyUrl = false;
    const bgLayers = layers(cs.backgroundImage);
    for (let i = 0; i < bgLayers.length; i++) {
      const src = urlOf(bgLayers[i]!);
      if (!src) continue;
      anyUrl = true;
      const fit = sizes[i % sizes.length] ?? "auto";
      const { w: nw, h: nh } = natural(src);
      let painted: { width: number; height: number } | null = null;
      if (areaW > 0 && areaH > 0) {
        if (fit === "cover" || fit === "contain") {
          if (nw && nh) {
            const s = fit === "cover" ? Math.max(areaW / nw, areaH / nh) : Math.min(areaW / nw, areaH / nh);
            painted = { width: nw * s, height: nh * s };
          }
        } else {
          const [a = "auto", b = "auto"] = fit.split(/\s+/);
          const len = (v: string, of: number) => (v === "auto" ? null : v.endsWith("%") ? (parseFloat(v) / 100) * of : px(v));
          let w = len(a, areaW);
          let h = len(b, areaH);
          if (w === null && h === null) [w, h] = nw && nh ? [nw, nh] : [null, null];
          else if (w === null) w = nw && nh ? (h! * nw) / nh : null;
          else if (h === null) h = nw && nh ? (w * nh) / nw : null;
          if (w !== null && h !== null) painted = { width: w, height: h };
        }
        if (painted) painted = { width: painted.width * scale.x, height: painted.height * scale.y };
      }
      images.push({ selector: cssPath(el), kind: "background", src, shown, box: pageBox(r), painted, fit, naturalWidth: nw, naturalHeight: nh });
    }
    // The root's background paints the whole canvas: it is the page, not a picture on it.
    if (anyUrl && shown && el !== document.documentElement && el !== document.body) mediaBoxes.push(pageBox(r));
  }
  return { viewport: { width: innerWidth, height: innerHeight }, images, mediaBoxes };
}

/**
 * Runs in a blank page of the job's browser context (no subject script can reach it): decodes each source
 * (a data: URL) and measures its natural size, a 128-bit difference hash of its luminance over white (9×8
 * horizontal and 8×9 vertical gradients) and a 16×16 colour thumbnail. Self-contained.
 */
export async function measureImageSources(sources: Array<{ key: string; src: string }>): Promise<Record<string, ImageSourceInfo>> {
  const out: Record<string, ImageSourceInfo> = {};
  // Every picture is first painted over white at one fixed size, so a vector and a raster copy of the same
  // logo are reduced the same way from there.
  const base = document.createElement("canvas");
  base.width = base.height = 64;
  const b = base.getContext("2d")!;
  const canvas = document.createElement("canvas");
  const g = canvas.getContext("2d", { willReadFrequently: true })!;
  const draw = (w: number, h: number) => {
    canvas.width = w;
    canvas.height = h;
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = "high";
    g.drawImage(base, 0, 0, w, h);
    return g.getImageData(0, 0, w, h).data;
  };
  const luma = (d: Uint8ClampedArray, i: number) => 0.299 * d[i * 4]! + 0.587 * d[i * 4 + 1]! + 0.114 * d[i * 4 + 2]!;
  for (const { key, src } of sources) {
    const im = new Image();
    im.src = src;
    const decoded = await Promise.race([
      im.decode().then(() => true, () => false),
      new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
    ]);
    if (!decoded || !im.naturalWidth || !im.naturalHeight) {
      out[key] = { naturalWidth: 0, naturalHeight: 0, hash: null, thumbnail: null, error: "it could not be decoded as an image" };
      continue;
    }
    try {
      b.fillStyle = "#fff";
      b.fillRect(0, 0, 64, 64);
      b.imageSmoothingEnabled = true;
      b.imageSmoothingQuality = "high";
      b.drawImage(im, 0, 0, 64, 64);
      // A bit is set where a cell is brighter than the next by more than a few levels: flat areas read as 0
      // every time instead of flipping on encoding noise.
      const bits: number[] = [];
      const across = draw(9, 8);
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(luma(across, y * 9 + x) > luma(across, y * 9 + x + 1) + 3 ? 1 : 0);
      const down = draw(8, 9);
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(luma(down, y * 8 + x) > luma(down, (y + 1) * 8 + x) + 3 ? 1 : 0);
      let hash = "";
      for (let i = 0; i < bits.length; i += 4) hash += ((bits[i]! << 3) | (bits[i + 1]! << 2) | (bits[i + 2]! << 1) | bits[i + 3]!).toString(16);
      const small = draw(16, 16);
      const thumbnail: number[] = [];
      for (let i = 0; i < 256; i++) thumbnail.push(small[i * 4]!, small[i * 4 + 1]!, small[i * 4 + 2]!);
      out[key] = { naturalWidth: im.naturalWidth, naturalHeight: im.naturalHeight, hash, thumbnail };
    } catch (e) {
      out[key] = { naturalWidth: im.naturalWidth, naturalHeight: im.naturalHeight, hash: null, thumbnail: null, error: String(e) };
    }
  }
  return out;
}
