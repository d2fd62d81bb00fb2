import { formatHex, wcagLuminance, type Rgb } from "culori";

/** Four renders of one text region, RGBA, the same size: as the page shows it, and its text made transparent, black, white. */
export interface GlyphRenders {
  width: number;
  height: number;
  asShown: Uint8Array;
  transparent: Uint8Array;
  black: Uint8Array;
  white: Uint8Array;
  /**
   * What the glyphs are painted over, when that is not `transparent`: the text transparent over its own shadow,
   * where that shadow is a halo around the glyphs (their background, as WCAG takes a halo).
   */
  behind?: Uint8Array;
}

/** What the renders measure: the contrast of the fully covered glyph pixels, or why they could not be read. */
export type GlyphMeasure =
  | { unmeasured: string }
  | {
      glyphPixels: number;
      corePixels: number;
      percentiles: number[];
      color: string;
      backgrounds: [string, string];
      /** Pixels outside the glyphs that the text still changes as shown (a shadow, a stroke). */
      haloPixels: number;
    };

/** A pixel the glyphs touch: the black and white renders differ by this much in every channel (0-255). */
const GLYPH_DIFFERENCE = 26;
/** A pixel the glyphs cover fully: black and white renders differ by at least this much in every channel. */
const CORE_DIFFERENCE = 242;
/** A pixel the glyphs do not touch: black and white renders agree to within this in every channel. */
const CLEAR_DIFFERENCE = 4;
/** Renders that differ by more than this off the glyphs have moved between them. */
const MOTION_DIFFERENCE = 24;
/** Above this share of the pixels moving, the region is not still enough to measure. */
const MOTION_SHARE = 0.01;
/** Fewer fully covered pixels than this are too few to say anything (thin or tiny text, or text mostly hidden). */
const MIN_CORE_PIXELS = 30;
/** Below this median ratio the text as shown is its own background: it did not go when made transparent. */
const MIN_MEDIAN_RATIO = 1.1;

const rgbOf = (px: Uint8Array, i: number): Rgb => ({
  mode: "rgb",
  r: px[i]! / 255,
  g: px[i + 1]! / 255,
  b: px[i + 2]! / 255,
});
const packed = (px: Uint8Array, i: number) => (px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!;
const channelDifference = (p: Uint8Array, q: Uint8Array, i: number, most: boolean) => {
  const r = Math.abs(p[i]! - q[i]!);
  const g = Math.abs(p[i + 1]! - q[i + 1]!);
  const b = Math.abs(p[i + 2]! - q[i + 2]!);
  return most ? Math.max(r, g, b) : Math.min(r, g, b);
};

/** Whether the background (text transparent) is outside what black and white text over it can make, in a channel. */
const outside = (black: Uint8Array, behind: Uint8Array, white: Uint8Array, i: number) => {
  for (let c = i; c < i + 3; c++)
    if (behind[c]! < black[c]! - MOTION_DIFFERENCE || behind[c]! > white[c]! + MOTION_DIFFERENCE) return true;
  return false;
};

/**
 * Where the glyphs are, from the text rendered black and then white over the same background (their difference is
 * the glyphs' coverage, whatever is behind them); the contrast ratio (WCAG 2.x relative luminance) of each fully
 * covered pixel as shown against the same pixel with the text transparent (over its halo, when `behind` is given); its distribution by percentile. The
 * anti-aliased edges, whose colour is a blend, are left out. Renders that disagree off the glyphs (a background
 * that moves) or text that never renders fully opaque (opacity, a translucent layer over it) are not measured.
 */
export function measureGlyphs(r: GlyphRenders): GlyphMeasure {
  const { asShown, transparent, black, white } = r;
  const behind = r.behind ?? transparent;
  const n = r.width * r.height;
  if (!n || [asShown, transparent, black, white, behind].some((px) => px.length !== n * 4))
    return { unmeasured: "the renders of the region did not match in size" };
  let glyphPixels = 0;
  let moved = 0;
  let haloPixels = 0;
  let fullest = 0;
  const cores: number[] = [];
  for (let i = 0; i < n * 4; i += 4) {
    const coverage = channelDifference(white, black, i, false);
    fullest = Math.max(fullest, coverage);
    if (coverage >= GLYPH_DIFFERENCE) glyphPixels++;
    if (coverage >= CORE_DIFFERENCE) cores.push(i);
    // Black text over a background is never lighter than it, white text never darker: else the background moved.
    if (outside(black, transparent, white, i)) {
      moved++;
      continue;
    }
    if (channelDifference(white, black, i, true) > CLEAR_DIFFERENCE) continue;
    if (
      channelDifference(transparent, black, i, true) > MOTION_DIFFERENCE ||
      channelDifference(transparent, white, i, true) > MOTION_DIFFERENCE
    )
      moved++;
    else if (channelDifference(asShown, transparent, i, true) > MOTION_DIFFERENCE) haloPixels++;
  }
  if (moved / n > MOTION_SHARE)
    return { unmeasured: "the background changed between renders (it moves: a video, an animation, a carousel)" };
  if (glyphPixels && fullest < CORE_DIFFERENCE)
    return {
      unmeasured: "the text is seen through a translucent layer (opacity, an overlay): it never renders opaque",
    };
  if (cores.length < MIN_CORE_PIXELS)
    return { unmeasured: `too few fully covered glyph pixels to measure (${cores.length}): thin, tiny or hidden text` };
  const luminance = new Map<number, number>();
  const lum = (px: Uint8Array, i: number) => {
    const key = packed(px, i);
    let l = luminance.get(key);
    if (l === undefined) luminance.set(key, (l = wcagLuminance(rgbOf(px, i))));
    return l;
  };
  const ratios = cores.map((i) => {
    // WCAG 2.x: (L1 + 0.05) / (L2 + 0.05), the lighter over the darker.
    const [a, b] = [lum(asShown, i), lum(behind, i)];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
  const sorted = Float64Array.from(ratios).sort();
  // Text made transparent that still shows is painted by something other than its colour (a mask, a canvas):
  // what is "behind" it is then the text itself, and its ratio of about 1 measures nothing.
  if (sorted[sorted.length >> 1]! < MIN_MEDIAN_RATIO)
    return {
      unmeasured: "the text did not disappear when made transparent: something other than its colour paints it",
    };
  const percentiles = Array.from({ length: 101 }, (_, p) =>
    round2(sorted[Math.round((p / 100) * (sorted.length - 1))]!),
  );
  const byText = [...cores].sort((i, j) => lum(asShown, i) - lum(asShown, j));
  const byBackground = [...cores].sort((i, j) => lum(behind, i) - lum(behind, j));
  return {
    glyphPixels,
    corePixels: cores.length,
    percentiles,
    color: formatHex(rgbOf(asShown, byText[byText.length >> 1]!)),
    backgrounds: [
      formatHex(rgbOf(behind, byBackground[0]!)),
      formatHex(rgbOf(behind, byBackground[byBackground.length - 1]!)),
    ],
    haloPixels,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
