import type { Box, CapturePalette } from "../artifact-shapes";
import { inBlankPage } from "../image-evidence";
import { imagesGatherer } from "./images";
import { screenshotGatherer } from "./screenshot";
import { defineWebGatherer } from "./web-page";

/** Width of the palette's sample of the capture. */
const PALETTE_SAMPLE_WIDTH = 320;

/**
 * "palette": the colours of the desktop-md capture, pixel by pixel as users see them, decoded from its JPEG in a
 * blank page of the job's context; the boxes of images, video and frames at that size are left out (photographs
 * are not brand colours). None when the job has no desktop-md capture.
 */
export const paletteGatherer = defineWebGatherer({
  kind: "palette",
  sizes: "once",
  dependsOn: [screenshotGatherer, imagesGatherer],
  async gather({ context }, { screenshots, images }): Promise<{ palette?: CapturePalette }> {
    const shot = screenshots?.["desktop-md"];
    if (!shot) return {};
    const masks = images?.["desktop-md"]?.mediaBoxes ?? [];
    const sample = await inBlankPage(context, (lab) =>
      lab.evaluate(samplePalette, {
        jpegBase64: Buffer.from(shot.data).toString("base64"),
        masks,
        maxWidth: PALETTE_SAMPLE_WIDTH,
      }),
    );
    return { palette: { viewport: "desktop-md", ...sample } };
  },
});

/**
 * Runs in a blank page of the job's browser context (no subject script can reach it): decodes a capture's
 * JPEG, samples it nearest-neighbour (so every sample is a pixel users see, never a blend) at most
 * `maxWidth` wide, leaves out the pixels inside `masks` (images, video, frames: photographs are not brand
 * colours), and bins the rest by colour, 4 bits per channel, keeping each bin's mean colour, pixel count and
 * extent. Self-contained.
 */
async function samplePalette(args: {
  jpegBase64: string;
  masks: Box[];
  maxWidth: number;
}): Promise<Omit<CapturePalette, "viewport">> {
  const binary = atob(args.jpegBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/jpeg" }));
  const scale = Math.min(1, args.maxWidth / bitmap.width);
  const w = Math.max(1, Math.round(bitmap.width * scale));
  const h = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = new OffscreenCanvas(w, h);
  const g = canvas.getContext("2d", { willReadFrequently: true })!;
  g.imageSmoothingEnabled = false;
  g.drawImage(bitmap, 0, 0, w, h);
  const data = g.getImageData(0, 0, w, h).data;
  const masked = new Uint8Array(w * h);
  for (const m of args.masks) {
    const x0 = Math.max(0, Math.floor(m.x * scale));
    const x1 = Math.min(w, Math.ceil((m.x + m.width) * scale));
    const y0 = Math.max(0, Math.floor(m.y * scale));
    const y1 = Math.min(h, Math.ceil((m.y + m.height) * scale));
    for (let y = y0; y < y1; y++) masked.fill(1, y * w + x0, Math.max(y * w + x0, y * w + x1));
  }
  const bins = new Map<
    number,
    { r: number; g: number; b: number; count: number; x0: number; y0: number; x1: number; y1: number }
  >();
  let maskedPixels = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (masked[i]) {
        maskedPixels++;
        continue;
      }
      const r = data[i * 4]!;
      const gr = data[i * 4 + 1]!;
      const b = data[i * 4 + 2]!;
      const key = ((r >> 4) << 8) | ((gr >> 4) << 4) | (b >> 4);
      const bin = bins.get(key);
      if (bin) {
        bin.r += r;
        bin.g += gr;
        bin.b += b;
        bin.count++;
        if (x < bin.x0) bin.x0 = x;
        if (x > bin.x1) bin.x1 = x;
        if (y > bin.y1) bin.y1 = y;
      } else bins.set(key, { r, g: gr, b, count: 1, x0: x, y0: y, x1: x, y1: y });
    }
  }
  return {
    captureWidth: bitmap.width,
    captureHeight: bitmap.height,
    sampleWidth: w,
    sampleHeight: h,
    totalPixels: w * h,
    maskedPixels,
    bins: [...bins.values()].map((b) => ({
      rgb: [Math.round(b.r / b.count), Math.round(b.g / b.count), Math.round(b.b / b.count)] as [
        number,
        number,
        number,
      ],
      count: b.count,
      box: {
        x: Math.round(b.x0 / scale),
        y: Math.round(b.y0 / scale),
        width: Math.round((b.x1 - b.x0 + 1) / scale),
        height: Math.round((b.y1 - b.y0 + 1) / scale),
      },
    })),
  };
}
