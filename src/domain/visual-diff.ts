import pixelmatch from "pixelmatch";

/**
 * One page's screenshot at one size against the baseline's, pixel by pixel (pixelmatch): a pure function of the two
 * decoded images, the per-pixel tolerance and the masked regions. Both images are laid over one canvas from their
 * top-left corners, as large as the larger of each: where both have pixels, pixelmatch compares them (its
 * `threshold`, anti-aliased pixels not counted); where only one has (a page that got taller or wider), every pixel
 * counts as changed. Masked pixels (the run's rectangles, and the boxes of its mask selectors) are never compared nor
 * counted. `changedRatio` is the changed pixels over the canvas's.
 */

/** A decoded image: RGBA, four bytes per pixel, row after row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A rectangle in the screenshot's pixels (a page's CSS pixels: screenshots are taken at a device scale of 1). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DiffOptions {
  /** pixelmatch's per-pixel threshold: 0 (any difference) to 1 (none counts); Assay's default is 0.1. */
  threshold: number;
  masks: readonly Box[];
}

export interface ImageDiff {
  width: number;
  height: number;
  changedPixels: number;
  /** changedPixels over the canvas's pixels, 0 to 1. */
  changedRatio: number;
  /** Changed pixels red over a faded copy of the current image, only-here areas red, masks blue. */
  diff: RgbaImage;
}

export const DEFAULT_VISUAL_THRESHOLD = 0.1;
export const DEFAULT_MAX_CHANGED_RATIO = 0.001;

const CHANGED: readonly [number, number, number] = [255, 0, 0];
const MASKED: readonly [number, number, number] = [120, 160, 255];

export function diffImages(baseline: RgbaImage, current: RgbaImage, options: DiffOptions): ImageDiff {
  const width = Math.max(baseline.width, current.width);
  const height = Math.max(baseline.height, current.height);
  const overlapWidth = Math.min(baseline.width, current.width);
  const overlapHeight = Math.min(baseline.height, current.height);
  const masked = maskOf(width, height, options.masks);
  const diff = new Uint8Array(width * height * 4);
  let changedPixels = 0;

  if (overlapWidth > 0 && overlapHeight > 0) {
    const a = crop(baseline, overlapWidth, overlapHeight);
    const b = crop(current, overlapWidth, overlapHeight);
    const overlapMask = cropMask(masked, width, overlapWidth, overlapHeight);
    const out = new Uint8Array(overlapWidth * overlapHeight * 4);
    changedPixels += pixelmatch(a, b, out, overlapWidth, overlapHeight, {
      threshold: options.threshold,
      diffColor: [...CHANGED],
      ignoreMask: overlapMask,
    });
    for (let y = 0; y < overlapHeight; y++)
      diff.set(out.subarray(y * overlapWidth * 4, (y + 1) * overlapWidth * 4), y * width * 4);
  }
  // Outside the overlap only one image has pixels: each one not masked is a change.
  for (let y = 0; y < height; y++) {
    const from = y < overlapHeight ? overlapWidth : 0;
    for (let x = from; x < width; x++) {
      if (masked[y * width + x]) continue;
      paint(diff, (y * width + x) * 4, CHANGED);
      changedPixels++;
    }
  }
  for (let i = 0; i < masked.length; i++) if (masked[i]) paint(diff, i * 4, MASKED);
  const pixels = width * height;
  return {
    width,
    height,
    changedPixels,
    changedRatio: pixels === 0 ? 0 : changedPixels / pixels,
    diff: { width, height, data: diff },
  };
}

/** One byte per canvas pixel, non-zero where a mask covers it (masks clipped to the canvas). */
function maskOf(width: number, height: number, masks: readonly Box[]): Uint8Array {
  const masked = new Uint8Array(width * height);
  for (const box of masks) {
    const x0 = Math.max(0, Math.floor(box.x));
    const y0 = Math.max(0, Math.floor(box.y));
    const x1 = Math.min(width, Math.ceil(box.x + box.width));
    const y1 = Math.min(height, Math.ceil(box.y + box.height));
    for (let y = y0; y < y1; y++) masked.fill(1, y * width + x0, Math.max(y * width + x0, y * width + x1));
  }
  return masked;
}

/** The image's top-left width × height pixels (itself when it is that size; rows are contiguous, so a taller one is a view). */
function crop(image: RgbaImage, width: number, height: number): Uint8Array {
  if (image.width === width) return image.data.subarray(0, width * height * 4);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    out.set(image.data.subarray(y * image.width * 4, (y * image.width + width) * 4), y * width * 4);
  return out;
}

function cropMask(mask: Uint8Array, canvasWidth: number, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) out.set(mask.subarray(y * canvasWidth, y * canvasWidth + width), y * width);
  return out;
}

function paint(data: Uint8Array, at: number, [r, g, b]: readonly [number, number, number]): void {
  data[at] = r;
  data[at + 1] = g;
  data[at + 2] = b;
  data[at + 3] = 255;
}
