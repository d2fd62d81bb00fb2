import type { AxeNode, ContrastPixels, GlyphContrast } from "../../capture/artifacts";
import type { CaptureSize } from "../../capture/vocabulary";
import type { Finding } from "../types";

/**
 * Text contrast where axe-core could not decide it, from the pixels the contrast-pixels gatherer measured: shared by
 * color-contrast (at each of its sizes) and accessibility-wcag (at desktop-md), which read the same measurement.
 */

/** A decision from pixels needs this share of the glyphs' core on one side of the required ratio. */
const DECISIVE_SHARE = 0.95;

/** The required ratio as a number ("4.5:1" -> 4.5). */
export const axeRequired = (n: AxeNode) =>
  n.contrast?.expectedContrastRatio ? Number.parseFloat(n.contrast.expectedContrastRatio) : null;

/** WCAG's large text (24px and up, or 18.66px and up when bold) needs 3:1, other text 4.5:1. */
const requiredFor = (px: number, weight: number) => (px >= 24 || (px >= 18.66 && weight >= 700) ? 3 : 4.5);

/** What the pixels say of one element: pass or fail where the distribution is decisive, else needs review. */
export function pixelOutcome(m: GlyphContrast, required: number): "pass" | "fail" | "needs review" {
  const p = m.percentiles;
  if (!p) return "needs review";
  const lowIndex = Math.round((1 - DECISIVE_SHARE) * 100);
  const highIndex = Math.round(DECISIVE_SHARE * 100);
  // A shadow or stroke may carry the contrast the fill lacks: the fill alone never fails the text.
  if (p[highIndex]! < required && !m.shadow) return "fail";
  // A region cut at the cap says nothing of the text below it: it never passes the text.
  if (p[lowIndex]! >= required && !m.partial) return "pass";
  return "needs review";
}

const ratioRange = (p: number[]) => `${p[5]}–${p[95]}:1`;
const shareBelow = (p: number[], required: number) => p.filter((x) => x < required).length / p.length;

/** WCAG 1.4.6 (AAA) asks 7:1 of text that 1.4.3 asks 4.5:1 of, and 4.5:1 of large text (3:1 at AA). */
const enhancedOf = (minimum: number) => (minimum <= 3 ? 4.5 : 7);

/** WCAG 1.4.11 asks 3:1 of the graphics that identify a user interface component, at AA and AAA alike. */
const NON_TEXT_RATIO = 3;

/**
 * A symbol (GlyphContrast.symbol) is non-text content: it passes at 1.4.11's 3:1 where the pixels are decisive,
 * and never fails here (whether a component's other parts identify it is 1.4.11's question, not this rule's).
 */
const symbolOutcome = (m: GlyphContrast) => (pixelOutcome(m, NON_TEXT_RATIO) === "pass" ? "pass" : "needs review");

function pixelFinding(n: AxeNode, m: GlyphContrast, viewport: CaptureSize, enhanced: boolean): Finding {
  const p = m.percentiles!;
  const minimum = axeRequired(n) ?? requiredFor(m.fontSizePx ?? 16, m.fontWeight ?? 400);
  const required = m.symbol ? NON_TEXT_RATIO : enhanced ? enhancedOf(minimum) : minimum;
  const outcome = m.symbol ? symbolOutcome(m) : pixelOutcome(m, required);
  const below = Math.round(100 * shareBelow(p, required));
  const caveat =
    outcome !== "needs review"
      ? ""
      : m.shadow && p[95]! < required
        ? "; a text shadow or stroke may carry its contrast"
        : m.partial && p[5]! >= required
          ? "; only the top of the text was measured"
          : "";
  const symbol = m.symbol
    ? `"${m.symbol.character}" is a symbol, not text: its widget's accessible name "${m.symbol.name}" does not contain it, so it is non-text content held to WCAG 1.4.11's 3:1; `
    : "";
  const over = m.halo ? " (the halo its text shadow draws around every glyph)" : "";
  const what = `${symbol}${ratioRange(p)} measured from pixels at ${viewport} (5th–95th percentile of ${m.corePixels} glyph pixels; needs ${required}:1, ${below}% below), ${m.symbol ? "symbol" : "text"} ${m.color} on ${m.backgrounds!.join("–")}${over}, ${m.fontSizePx}px ${m.fontWeight}${caveat}`;
  return {
    message: outcome === "fail" ? what : `${outcome}: ${what}`,
    selector: n.target,
    viewport,
    method: "pixels",
    measured: {
      ...(outcome === "fail" ? {} : { outcome }),
      why: n.contrast?.messageKey ?? null,
      ratio: { p5: p[5], p50: p[50], p95: p[95], min: p[0], max: p[100] },
      required,
      shareBelow: below / 100,
      color: m.color,
      background: m.backgrounds,
      fontSize: m.fontSizePx,
      fontWeight: m.fontWeight,
      corePixels: m.corePixels,
      ...(m.shadow ? { shadow: true } : {}),
      ...(m.halo ? { halo: true } : {}),
      ...(m.symbol ? { symbol: m.symbol } : {}),
      ...(m.partial ? { partial: true } : {}),
      box: m.box,
    },
  };
}

/**
 * An element axe could not decide at the size `pixels` were measured at: decided from pixels when they were
 * measured (method pixels), against WCAG's enhanced ratio when `enhanced` (an AAA standard), else left needing
 * review with why (method axe).
 */
export function undecidedFinding(n: AxeNode, pixels: ContrastPixels, enhanced = false): Finding {
  const m = pixels.elements.find((e) => e.target === n.target);
  if (m?.percentiles) return pixelFinding(n, m, pixels.viewport, enhanced);
  if (m?.notApplicable)
    return {
      message: `not applicable: ${m.notApplicable}`,
      selector: n.target,
      viewport: pixels.viewport,
      method: "dom",
      measured: { outcome: "not applicable", why: n.contrast?.messageKey ?? null, color: n.contrast?.fgColor ?? null },
    };
  const notMeasured = m?.unmeasured ?? "beyond the measuring cap";
  return {
    message: `needs review: ${n.failureSummary || "axe could not determine the contrast"} (pixels: ${notMeasured})`,
    selector: n.target,
    viewport: pixels.viewport,
    method: "axe",
    measured: {
      outcome: "needs review",
      why: n.contrast?.messageKey ?? null,
      color: n.contrast?.fgColor ?? null,
      required: axeRequired(n),
      pixels: notMeasured,
    },
  };
}

/** A finding's outcome: "fail" unless it says otherwise (pass, needs review and not applicable say so). */
export const outcomeOf = (f: Finding) => (f.measured?.outcome as string | undefined) ?? "fail";
