import { decode as decodeJpeg, encode as encodeJpeg } from "jpeg-js";
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

/** A PNG (a WebDriver screenshot) as the JPEG every capture is stored as. */
export function jpegOfPng(png: Uint8Array): Uint8Array {
  const image = decodedScreenshot({ contentType: "image/png", data: png });
  return new Uint8Array(encodeJpeg({ width: image.width, height: image.height, data: image.data }, 80).data);
}
