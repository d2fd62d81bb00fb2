import { expect, test } from "bun:test";
import { measureGlyphs, type GlyphRenders } from "../../src/capture/glyph-pixels";

/**
 * measureGlyphs on hand-made renders of a 20×10 region: a glyph block (columns 5-14, rows 2-7) whose core is fully
 * covered and whose left and right columns are anti-aliased edges at half coverage. The renders through a real
 * browser are in test/checks/web/color-contrast.test.ts.
 */
const W = 20;
const H = 10;
type Rgb = [number, number, number];

/** The coverage of each pixel: 1 inside the block, 0.5 on its edge columns, 0 elsewhere. */
const coverage = (x: number, y: number) => (y < 2 || y > 7 || x < 5 || x > 14 ? 0 : x === 5 || x === 14 ? 0.5 : 1);

/** A render: the text colour blended over the background by coverage (`text` null: the text transparent). */
function render(text: Rgb | null, background: (x: number, y: number) => Rgb, alpha = 1): Uint8Array {
  const px = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const bg = background(x, y);
      const a = text ? coverage(x, y) * alpha : 0;
      for (let c = 0; c < 3; c++) px[(y * W + x) * 4 + c] = Math.round(a * (text?.[c] ?? 0) + (1 - a) * bg[c]!);
      px[(y * W + x) * 4 + 3] = 255;
    }
  return px;
}

function renders(text: Rgb, background: (x: number, y: number) => Rgb, over: Partial<GlyphRenders> = {}): GlyphRenders {
  return {
    width: W,
    height: H,
    asShown: render(text, background),
    transparent: render(null, background),
    black: render([0, 0, 0], background),
    white: render([255, 255, 255], background),
    ...over,
  };
}

const pale = (): Rgb => [244, 244, 244];

test("the fully covered glyph pixels against the pixels behind them, edges left out", () => {
  const m = measureGlyphs(renders([176, 176, 176], pale));
  if ("unmeasured" in m) throw new Error(m.unmeasured);
  // 10 columns × 6 rows touched, 8 × 6 fully covered.
  expect([m.glyphPixels, m.corePixels]).toEqual([60, 48]);
  // #b0b0b0 on #f4f4f4 is 1.97:1 everywhere in the core; the half-covered edges (about 1.4:1) are not counted.
  expect([m.percentiles[0], m.percentiles[100]]).toEqual([1.97, 1.97]);
  expect([m.color, m.backgrounds]).toEqual(["#b0b0b0", ["#f4f4f4", "#f4f4f4"]]);
  expect(m.haloPixels).toBe(0);
});

test("a background that varies gives the spread of ratios, lowest to highest", () => {
  const m = measureGlyphs(renders([255, 255, 255], (x) => (x < 10 ? [0, 0, 0] : [200, 200, 200])));
  if ("unmeasured" in m) throw new Error(m.unmeasured);
  expect(m.percentiles[0]).toBe(1.67);
  expect(m.percentiles[100]).toBe(21);
  expect(m.backgrounds).toEqual(["#000000", "#c8c8c8"]);
});

test("a background that changed between renders, translucent text, or text that did not go are not measured", () => {
  const moved = renders([0, 0, 0], pale, { white: render([255, 255, 255], () => [200, 100, 100]) });
  expect(measureGlyphs(moved)).toEqual({ unmeasured: expect.stringContaining("changed between renders") });
  const seenThrough = renders([0, 0, 0], pale, {
    black: render([0, 0, 0], pale, 0.6),
    white: render([255, 255, 255], pale, 0.6),
  });
  expect(measureGlyphs(seenThrough)).toEqual({ unmeasured: expect.stringContaining("translucent layer") });
  const stayed = renders([40, 40, 40], pale, { transparent: render([40, 40, 40], pale) });
  expect(measureGlyphs(stayed)).toEqual({ unmeasured: expect.stringContaining("did not disappear") });
});

test("a shadow around the glyphs, drawn only as shown, is counted as a halo", () => {
  const shadowed = render([255, 255, 255], (x, y) =>
    coverage(x, y) === 0 && x >= 4 && x <= 15 && y >= 1 && y <= 8 ? [0, 0, 0] : [230, 230, 230],
  );
  const m = measureGlyphs(renders([255, 255, 255], () => [230, 230, 230], { asShown: shadowed }));
  if ("unmeasured" in m) throw new Error(m.unmeasured);
  expect(m.haloPixels).toBeGreaterThan(0);
});

test("given what the glyphs are painted over (their halo), the core is measured against that, not the page behind", () => {
  // White glyphs over a pale page, painted over a black halo: 1.08:1 against the page, 21:1 against the halo.
  const halo = render(null, (x, y) => (x >= 4 && x <= 15 && y >= 1 && y <= 8 ? [0, 0, 0] : [230, 230, 230]));
  const m = measureGlyphs(renders([255, 255, 255], () => [230, 230, 230], { behind: halo }));
  if ("unmeasured" in m) throw new Error(m.unmeasured);
  expect([m.percentiles[0], m.percentiles[100]]).toEqual([21, 21]);
  expect(m.backgrounds).toEqual(["#000000", "#000000"]);
  const without = measureGlyphs(renders([255, 255, 255], () => [230, 230, 230]));
  if ("unmeasured" in without) throw new Error(without.unmeasured);
  expect(without.percentiles[100]).toBeLessThan(1.3);
});

test("renders of different sizes are not compared", () => {
  expect(measureGlyphs(renders([0, 0, 0], pale, { white: new Uint8Array(4) }))).toEqual({
    unmeasured: "the renders of the region did not match in size",
  });
});
