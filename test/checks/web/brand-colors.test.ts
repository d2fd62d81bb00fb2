import { expect, test } from "bun:test";
import type { CapturePalette } from "../../../src/capture/artifacts";
import { converter, differenceCiede2000 } from "culori";
import { brandColors } from "../../../src/validations/web/brand-colors";
import { artifacts, evaluate } from "../support/web-artifacts";

const toRgb = converter("rgb");
/** A hex colour as the capture's 0-255 channels. */
function rgb255(hex: string): [number, number, number] {
  const { r, g, b } = toRgb(hex)!;
  return [Math.round(r * 255), Math.round(g * 255), Math.round(b * 255)];
}

/** A desktop-md capture sampled at 100×100: each bin a colour, its pixel count and where it lies. */
function capture(bins: Array<[hex: string, count: number, y: number]>, maskedPixels = 0): CapturePalette {
  return {
    viewport: "desktop-md",
    captureWidth: 1280,
    captureHeight: 1000,
    sampleWidth: 100,
    sampleHeight: 100,
    totalPixels: 10_000,
    maskedPixels,
    bins: bins.map(([hex, count, y]) => ({ rgb: rgb255(hex), count, box: { x: 0, y, width: 1280, height: 100 } })),
  };
}

const page = capture([
  ["#ffffff", 6000, 300], // background: near-white, neutral
  ["#212529", 1200, 900], // footer: near-black, neutral
  ["#808080", 500, 800], // grey, neutral
  ["#0a58ca", 1000, 0], // header, on brand
  ["#0b5acc", 100, 50], // a shade of it from anti-aliasing: joins its group
  ["#ffc107", 300, 500], // call to action, on brand
  ["#e11d48", 700, 100], // promo band, off brand
  ["#00c853", 199, 700], // 1.99% green: below the 2% that makes a colour prominent
]);

test("a page whose prominent colours are all in the palette passes; neutrals and small areas are not judged", async () => {
  const out = await evaluate(brandColors, artifacts({ palette: page }), { palette: ["#0a58ca", "#ffc107", "#e11d48"] });
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("77.0% neutral");
  expect(out.reasoning).not.toContain("#00c853");
});

test("a prominent colour far from every palette colour fails, with its share, place and nearest palette colour", async () => {
  const out = await evaluate(brandColors, artifacts({ palette: page }), { palette: ["#0a58ca", "#ffc107"] });
  expect(out.verdict).toBe("fail");
  expect(out.findings).toHaveLength(1);
  expect(out.findings[0]!.message).toStartWith(
    "#e11d48 covers 7.0% of the page at desktop-md (around x 0-1280, y 100-200); the nearest palette colour #0a58ca is ΔE00",
  );
  expect(out.findings[0]!.measured).toMatchObject({ color: "#e11d48", share: 0.07, nearest: "#0a58ca" });
});

test("the tolerance decides how far is too far", async () => {
  const promo = artifacts({
    palette: capture([
      ["#ffffff", 9000, 0],
      ["#e11d48", 1000, 100],
    ]),
  });
  const out = await evaluate(brandColors, promo, { palette: ["#c2185b"] });
  expect(out.verdict).toBe("fail");
  const distance = out.findings[0]!.measured!.deltaE2000 as number;
  expect(distance).toBeGreaterThan(10);
  expect((await evaluate(brandColors, promo, { palette: ["#c2185b"], tolerance: Math.ceil(distance) })).verdict).toBe(
    "pass",
  );
});

test("CIEDE2000 as culori computes it matches Sharma, Wu and Dalal's published test data", () => {
  const deltaE2000 = differenceCiede2000();
  // The published pairs are CIELAB values; culori's CIEDE2000 reads them in its D65 Lab space as they are.
  const lab = (l: number, a: number, b: number) => ({ mode: "lab65" as const, l, a, b });
  // Pairs 1, 7, 17, 21, 25 and 34 of the paper's table 1, with their ΔE00 to four decimals.
  const pairs: Array<[[number, number, number], [number, number, number], number]> = [
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[50, 2.5, 0], [50, 3.1736, 0.5854], 1.0],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ];
  for (const [a, b, expected] of pairs) {
    expect(deltaE2000(lab(...a), lab(...b))).toBeCloseTo(expected, 4);
    expect(deltaE2000(lab(...b), lab(...a))).toBeCloseTo(expected, 4);
  }
});
