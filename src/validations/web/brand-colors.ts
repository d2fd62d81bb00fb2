import { Type } from "@sinclair/typebox";
import { converter, differenceCiede2000, formatHex, type Lab65 as Lab, type Rgb as CuloriRgb } from "culori";
import type { Box, CapturePalette } from "../../capture/artifacts";
import type { Finding, WebValidation } from "../types";
import { visualCheck } from "./_helpers";

export type Rgb = [number, number, number];

/** A colour counts as prominent from this share of the capture's area. */
const PROMINENT_SHARE = 0.02;
/** Neutrals, left out: greys (chroma below 10), near-white (L* 93 and up), near-black (L* 12 and below, or below 25 with chroma under 16). */
function isNeutral({ l, a, b }: Lab): boolean {
  const c = Math.hypot(a, b);
  return c < 10 || l >= 93 || l <= 12 || (l < 25 && c < 16);
}
/** Bins closer than this (ΔE00) to a colour group's mean join it. */
const GROUP_DISTANCE = 6;

/** CIE L*a*b* under D65 (culori's lab65, the space its CIEDE2000 works in), and CIEDE2000 with kL = kC = kH = 1. */
const toLab = converter("lab65");
const deltaE2000 = differenceCiede2000();
/** Capture colours are 0-255 per channel; culori's rgb is 0-1. */
const rgbColour = ([r, g, b]: Rgb): CuloriRgb => ({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });
const labOf = (rgb: Rgb) => toLab(rgbColour(rgb));
const toHex = (rgb: Rgb) => formatHex(rgbColour(rgb));

export interface ColourGroup {
  rgb: Rgb;
  lab: Lab;
  count: number;
  box: Box;
}

/** The capture's non-neutral colours, grouped (bins within ΔE00 6 of a group's mean join it), largest first. */
function prominentColours(palette: CapturePalette): { groups: ColourGroup[]; neutralPixels: number } {
  const bins = palette.bins.map((b) => ({ ...b, lab: labOf(b.rgb) })).sort((x, y) => y.count - x.count);
  const groups: Array<ColourGroup & { sum: Rgb }> = [];
  let neutralPixels = 0;
  for (const bin of bins) {
    if (isNeutral(bin.lab)) {
      neutralPixels += bin.count;
      continue;
    }
    let best: (typeof groups)[number] | undefined;
    let bestDistance = Infinity;
    for (const g of groups) {
      const d = deltaE2000(g.lab, bin.lab);
      if (d < bestDistance) [best, bestDistance] = [g, d];
    }
    if (best && bestDistance < GROUP_DISTANCE) {
      best.count += bin.count;
      best.sum = best.sum.map((s, i) => s + bin.rgb[i]! * bin.count) as Rgb;
      best.rgb = best.sum.map((s) => s / best!.count) as Rgb;
      best.lab = labOf(best.rgb);
      const x1 = Math.max(best.box.x + best.box.width, bin.box.x + bin.box.width);
      const y1 = Math.max(best.box.y + best.box.height, bin.box.y + bin.box.height);
      best.box = { x: Math.min(best.box.x, bin.box.x), y: Math.min(best.box.y, bin.box.y), width: 0, height: 0 };
      best.box.width = x1 - best.box.x;
      best.box.height = y1 - best.box.y;
    } else {
      groups.push({
        rgb: bin.rgb,
        lab: bin.lab,
        count: bin.count,
        box: { ...bin.box },
        sum: bin.rgb.map((c) => c * bin.count) as Rgb,
      });
    }
  }
  return { groups: groups.map(({ sum: _, ...g }) => g).sort((a, b) => b.count - a.count), neutralPixels };
}

const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const HEX = "^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$";

export const brandColors: WebValidation = {
  meta: visualCheck({
    id: "brand-colors",
    name: "Colours on brand",
    category: "brand",
    severity: "minor",
    standard: ["desktop-md"],
    summary: "Every prominent colour on the page, as users see it at desktop width, is one of your brand colours.",
    judgment:
      "Measured on the desktop-md capture itself (1280 wide, full page up to the height cap), decoded and sampled pixel by pixel. Pixels inside images, video and frames are left out (photographs are not brand colours), and so are neutrals: greys (CIELAB chroma below 10), near-white (L* 93 and up) and near-black (L* 12 and below, or below 25 with chroma under 16). The remaining colours are grouped (ΔE00 below 6 joins a group). Fails when a group covering at least 2% of the capture is farther than tolerance (CIEDE2000, default 10) from every palette colour; the finding names the colour, its share of the page, where it lies and the nearest palette colour.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "palette",
        description: "The brand's colours, as hex.",
        format: "array of 1-32 hex colours (#rgb or #rrggbb)",
        schema: Type.Array(Type.String({ pattern: HEX }), { minItems: 1, maxItems: 32 }),
        example: ["#0a58ca", "#ffc107", "#212529"],
      },
      {
        name: "tolerance",
        description: "How far (CIEDE2000) a page colour may be from the nearest palette colour.",
        format: "number from 0 to 100",
        schema: Type.Number({ minimum: 0, maximum: 100 }),
        default: 10,
        example: 10,
      },
    ],
    needs: ["screenshot", "images", "palette"],
    method: "pixels",
    references: [
      {
        title: "CIEDE2000 colour difference (Sharma, Wu, Dalal)",
        url: "https://hajim.rochester.edu/ece/sites/gsharma/ciede2000/",
      },
    ],
  }),
  evaluate(artifacts, params) {
    const palette = artifacts.palette;
    if (!palette) throw new Error("no colour sample of the desktop-md capture");
    const tolerance = params.tolerance as number;
    const brand = (params.palette as string[]).map((hex) => ({ hex: hex.toLowerCase(), lab: toLab(hex) as Lab })); // the parameter's schema admits only hex colours
    const { groups, neutralPixels } = prominentColours(palette);
    const total = palette.totalPixels;
    const prominent = groups.filter((g) => g.count / total >= PROMINENT_SHARE);
    const judged = prominent.map((g) => {
      const nearest = brand
        .map((b) => ({ ...b, distance: deltaE2000(b.lab, g.lab) }))
        .sort((a, b) => a.distance - b.distance)[0]!;
      return { ...g, hex: toHex(g.rgb), share: g.count / total, nearest };
    });
    const off = judged.filter((j) => j.nearest.distance > tolerance);
    const where = (b: Box) => `x ${b.x}-${b.x + b.width}, y ${b.y}-${b.y + b.height}`;
    const reasoning =
      `desktop-md capture ${palette.captureWidth}×${palette.captureHeight}${artifacts.screenshots?.["desktop-md"]?.cut ? " (cut at the height cap)" : ""}, sampled at ${palette.sampleWidth}×${palette.sampleHeight}: ` +
      `${pct(palette.maskedPixels / total)} inside images, video or frames (left out), ${pct(neutralPixels / total)} neutral. ` +
      (judged.length
        ? `Prominent colours (≥ ${pct(PROMINENT_SHARE)}): ${judged.map((j) => `${j.hex} ${pct(j.share)} (nearest ${j.nearest.hex}, ΔE00 ${j.nearest.distance.toFixed(1)})`).join("; ")}.`
        : `No non-neutral colour covers ${pct(PROMINENT_SHARE)} or more of the page.`) +
      ` Tolerance ΔE00 ${tolerance}.`;
    if (off.length === 0) return { verdict: "pass", reasoning, findings: [] };
    const findings: Finding[] = off.map((j) => ({
      message: `${j.hex} covers ${pct(j.share)} of the page at desktop-md (around ${where(j.box)}); the nearest palette colour ${j.nearest.hex} is ΔE00 ${j.nearest.distance.toFixed(1)} away (tolerance ${tolerance})`,
      viewport: "desktop-md",
      measured: {
        color: j.hex,
        share: Math.round(j.share * 1000) / 1000,
        nearest: j.nearest.hex,
        deltaE2000: Math.round(j.nearest.distance * 10) / 10,
        box: j.box,
      },
    }));
    const first = off[0]!;
    return {
      verdict: "fail",
      reason: `Bring ${off.map((j) => `${j.hex} (${pct(j.share)} of the page)`).join(", ")} into the brand palette: ${first.hex} is ΔE00 ${first.nearest.distance.toFixed(1)} from the nearest palette colour ${first.nearest.hex} (tolerance ${tolerance}); it lies around ${where(first.box)} of the desktop-md capture`,
      reasoning,
      findings,
    };
  },
};
