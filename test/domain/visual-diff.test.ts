import { describe, expect, test } from "bun:test";
import { diffImages, type Box, type RgbaImage } from "../../src/domain/visual-diff";

/** The visual diff as a pure function of two decoded images: tolerance, masks, and images of different sizes. */

const WHITE = [255, 255, 255] as const;
const BLUE = [20, 90, 220] as const;

/** A white image with filled rectangles. */
function image(width: number, height: number, boxes: Array<Box & { rgb?: readonly number[] }> = []): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...WHITE, 255], i * 4);
  for (const b of boxes)
    for (let y = b.y; y < b.y + b.height; y++)
      for (let x = b.x; x < b.x + b.width; x++) data.set([...(b.rgb ?? BLUE), 255], (y * width + x) * 4);
  return { width, height, data };
}

const pixel = (img: RgbaImage, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

describe("diffImages", () => {
  test("identical images: nothing changed", () => {
    const a = image(100, 80, [{ x: 10, y: 10, width: 20, height: 20 }]);
    const d = diffImages(a, image(100, 80, [{ x: 10, y: 10, width: 20, height: 20 }]), { threshold: 0.1, masks: [] });
    expect(d).toMatchObject({ width: 100, height: 80, changedPixels: 0, changedRatio: 0 });
  });

  test("a box moved: where it was and where it is changed, in red on the diff image", () => {
    const before = image(100, 80, [{ x: 10, y: 10, width: 20, height: 20 }]);
    const after = image(100, 80, [{ x: 60, y: 40, width: 20, height: 20 }]);
    const d = diffImages(before, after, { threshold: 0.1, masks: [] });
    expect(d.changedPixels).toBe(800);
    expect(d.changedRatio).toBeCloseTo(800 / 8000);
    expect(pixel(d.diff, 15, 15)).toEqual([255, 0, 0, 255]);
    expect(pixel(d.diff, 65, 45)).toEqual([255, 0, 0, 255]);
    expect(pixel(d.diff, 50, 5)).not.toEqual([255, 0, 0, 255]);
  });

  test("the threshold: a faint change is under the default tolerance and counted at 0", () => {
    const before = image(50, 50);
    const after = image(50, 50, [{ x: 0, y: 0, width: 50, height: 50, rgb: [250, 250, 250] }]);
    expect(diffImages(before, after, { threshold: 0.1, masks: [] }).changedPixels).toBe(0);
    expect(diffImages(before, after, { threshold: 0, masks: [] }).changedPixels).toBe(2500);
  });

  test("masks are neither compared nor counted, and show blue", () => {
    const before = image(100, 80, [{ x: 10, y: 10, width: 20, height: 20 }]);
    const after = image(100, 80, [{ x: 60, y: 40, width: 20, height: 20 }]);
    const masks = [
      { x: 5, y: 5, width: 30, height: 30 },
      { x: 55, y: 35, width: 30, height: 30 },
    ];
    const d = diffImages(before, after, { threshold: 0.1, masks });
    expect(d.changedPixels).toBe(0);
    expect(pixel(d.diff, 15, 15)).toEqual([120, 160, 255, 255]);
    // Half the change masked: the other half counts.
    expect(diffImages(before, after, { threshold: 0.1, masks: masks.slice(0, 1) }).changedPixels).toBe(400);
  });

  test("a page that got taller: the part only the new screenshot has counts as changed, but not where masked", () => {
    const before = image(40, 50);
    const after = image(40, 60);
    const d = diffImages(before, after, { threshold: 0.1, masks: [] });
    expect(d).toMatchObject({ width: 40, height: 60, changedPixels: 400 });
    expect(d.changedRatio).toBeCloseTo(400 / 2400);
    expect(pixel(d.diff, 10, 55)).toEqual([255, 0, 0, 255]);
    const masked = diffImages(before, after, { threshold: 0.1, masks: [{ x: 0, y: 50, width: 40, height: 5 }] });
    expect(masked.changedPixels).toBe(200);
  });

  test("a narrower and shorter new screenshot: the canvas is the larger of each, the rest changed", () => {
    const d = diffImages(image(30, 20), image(20, 30), { threshold: 0.1, masks: [] });
    // Canvas 30 × 30, overlap 20 × 20 unchanged.
    expect(d).toMatchObject({ width: 30, height: 30, changedPixels: 900 - 400 });
  });

  test("masks outside the canvas are clipped", () => {
    const d = diffImages(image(10, 10), image(10, 10, [{ x: 0, y: 0, width: 10, height: 10 }]), {
      threshold: 0.1,
      masks: [{ x: 5, y: 5, width: 100, height: 100 }],
    });
    expect(d.changedPixels).toBe(100 - 25);
  });
});
