import { decode as decodeJpeg } from "jpeg-js";
import { PNG } from "pngjs";
/** Screenshots as pixels and back: a capture (JPEG, or PNG) decoded to RGBA, and an RGBA image written as a PNG. */

/** Pixels as the codec reads and writes them: 4 bytes a pixel, row by row (what the pure diff takes, by shape). */
interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A stored capture's pixels, by its content type: image/png through pngjs, anything else as JPEG through jpeg-js. */
export function decodedScreenshot(image: { contentType: string; data: Uint8Array }): RgbaImage {
  if (image.contentType === "image/png") {
    const png = PNG.sync.read(Buffer.from(image.data));
    return { width: png.width, height: png.height, data: new Uint8Array(png.data) };
  }
  return decodeJpeg(image.data, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
}

/** RGB with the Paeth filter: about three times faster to write than pngjs's adaptive choice, for a like size. */
export function encodedPng(image: RgbaImage): Uint8Array {
  const png = new PNG({ width: image.width, height: image.height });
  png.data = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return new Uint8Array(PNG.sync.write(png, { colorType: 2, filterType: 4 }));
}

/**
 * A PNG (a WebDriver screenshot) as the JPEG every capture is stored as, quality 80 as Chromium's. Bun's own codec
 * (libspng, libjpeg-turbo, on a worker thread): jpeg-js took 0.45-0.8 s on the server's thread for a 1280x3000 page,
 * Bun.Image 0.08-0.09 s in the same run.
 */
export function jpegOfPng(png: Uint8Array): Promise<Uint8Array> {
  return new Bun.Image(png).jpeg({ quality: 80 }).bytes();
}
