import { failWith, pass, type Finding, type WebValidation } from "../types";
import type { AxeNode, ContrastPixels, GlyphContrast } from "../../capture/artifacts";
import { domCheck } from "./_helpers";

const RULE = "color-contrast";

/** A decision from pixels needs this share of the glyphs' core on one side of the required ratio. */
const DECISIVE_SHARE = 0.95;

/** The required ratio as a number ("4.5:1" -> 4.5). */
const axeRequired = (n: AxeNode) =>
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

function pixelFinding(n: AxeNode, m: GlyphContrast): Finding {
  const p = m.percentiles!;
  const required = axeRequired(n) ?? requiredFor(m.fontSizePx ?? 16, m.fontWeight ?? 400);
  const outcome = pixelOutcome(m, required);
  const below = Math.round(100 * shareBelow(p, required));
  const caveat =
    outcome !== "needs review"
      ? ""
      : m.shadow && p[95]! < required
        ? "; a text shadow or stroke may carry its contrast"
        : m.partial && p[5]! >= required
          ? "; only the top of the text was measured"
          : "";
  const what = `${ratioRange(p)} measured from pixels (5th–95th percentile of ${m.corePixels} glyph pixels; needs ${required}:1, ${below}% below), text ${m.color} on ${m.backgrounds!.join("–")}, ${m.fontSizePx}px ${m.fontWeight}${caveat}`;
  return {
    message: outcome === "fail" ? what : `${outcome}: ${what}`,
    selector: n.target,
    viewport: "desktop-md",
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
      ...(m.partial ? { partial: true } : {}),
      box: m.box,
    },
  };
}

/** Why an element axe left undecided is not measured from pixels (contrast-pixels' NOT_A_COLOUR_QUESTION). */
const NOT_MEASURED_WHY: Record<string, string> = {
  shortTextContent: "not measured: one character may be an icon rather than text",
  nonBmp: "not measured: a symbol outside the basic plane may be an icon rather than text",
  equalRatio: "not measured: text as light as its background may be meant unseen",
};

/** An element axe could not decide: measured from pixels when it could be, else left needing review with why. */
function undecidedFinding(n: AxeNode, pixels: ContrastPixels | undefined): Finding {
  const m = pixels?.elements.find((e) => e.target === n.target);
  if (m?.percentiles) return pixelFinding(n, m);
  const notMeasured =
    m?.unmeasured ??
    NOT_MEASURED_WHY[n.contrast?.messageKey ?? ""] ??
    (pixels ? "beyond the measuring cap" : "no pixels were measured");
  return {
    message: `needs review: ${n.failureSummary || "axe could not determine the contrast"} (pixels: ${notMeasured})`,
    selector: n.target,
    viewport: "desktop-md",
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

export const colorContrast: WebValidation = {
  meta: domCheck({
    id: "color-contrast",
    name: "Text contrast (WCAG AA)",
    category: "accessibility",
    severity: "major",
    summary:
      "Visible text meets WCAG AA contrast: 4.5:1, or 3:1 for large text (axe-core's color-contrast rule, and rendered pixels where axe cannot decide).",
    judgment:
      "Reads axe-core's color-contrast rule, run once on the loaded page at desktop-md: axe composites the real backgrounds behind each text element (stacked, translucent, positioned) and applies WCAG 2.x relative luminance, 4.5:1, or 3:1 for large text (24px and up, or 18.66px and up when bold), with no rounding. Fails when axe reports a violation; each is a finding with its element, ratio, required ratio and colours (method axe). Text whose background axe cannot determine (a background image, a gradient, overlapping elements, translucent text) is measured from rendered pixels (not where axe doubts it is text at all: a single character that may be an icon, a symbol outside the basic plane, text the colour of its background) at desktop-md: the text's box rendered as shown and with its text made transparent, black and white; the pixels the glyphs cover fully (their anti-aliased edges left out) are compared with the pixels behind them, giving a distribution of contrast ratios. When 95% of those pixels are below the required ratio the element fails, when 95% are at or above it passes (method pixels); otherwise, or when the text has a shadow or stroke that may carry its contrast (never failed), is cut at the size cap (never passed), animates, sits on a moving background or is seen through a translucent layer, it is listed as needing review with the measured range and does not fail the page. At most 20 elements and 5 s of measuring per page, none started 15 s after the page loaded; the reasoning says when a cap was hit.",
    needs: ["axe", "contrast-pixels"],
    method: "axe",
    references: [
      {
        title: "WCAG 2.2 SC 1.4.3 Contrast (Minimum)",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum",
      },
      { title: "axe-core color-contrast rule", url: "https://dequeuniversity.com/rules/axe/4.10/color-contrast" },
    ],
  }),
  evaluate(artifacts) {
    const axe = artifacts.axe;
    if (!axe) throw new Error("no axe-core results gathered");
    const pixels = artifacts.contrastPixels;
    const violation = axe.violations.find((r) => r.id === RULE);
    const incomplete = axe.incomplete.find((r) => r.id === RULE);
    const passed = axe.passes.some((r) => r.id === RULE);
    const failing: Finding[] = (violation?.nodes ?? []).map((n) => {
      const c = n.contrast;
      const required = axeRequired(n);
      return {
        message:
          c?.contrastRatio != null
            ? `${c.contrastRatio}:1 (needs ${required}:1), ${c.fgColor} on ${c.bgColor}, ${c.fontSize} ${c.fontWeight}`
            : n.failureSummary,
        selector: n.target,
        viewport: "desktop-md",
        method: "axe",
        measured: {
          ratio: c?.contrastRatio ?? null,
          required,
          color: c?.fgColor ?? null,
          background: c?.bgColor ?? null,
          fontSize: c?.fontSize ?? null,
          fontWeight: c?.fontWeight ?? null,
        },
      };
    });
    const undecided = (incomplete?.nodes ?? []).map((n) => undecidedFinding(n, pixels));
    const outcomeOf = (f: Finding) => (f.measured?.outcome as string | undefined) ?? "fail";
    const pixelFails = undecided.filter((f) => outcomeOf(f) === "fail");
    const review = undecided.filter((f) => outcomeOf(f) === "needs review");
    const pixelPasses = undecided.filter((f) => outcomeOf(f) === "pass");
    const fromPixels = incomplete
      ? ` Of ${incomplete.nodeCount} element(s) axe could not decide (${[...new Set(incomplete.nodes.map((n) => n.contrast?.messageKey ?? "unknown"))].join(", ")}), rendered pixels failed ${pixelFails.length} and passed ${pixelPasses.length}; ${review.length + incomplete.nodeCount - incomplete.nodes.length} need review.${pixels?.capped ? ` Measuring stopped at ${pixels.capped}.` : ""}`
      : "";
    const failCount = (violation?.nodeCount ?? 0) + pixelFails.length;
    if (!failCount) {
      const measured = passed
        ? "the page meets WCAG AA contrast wherever axe could measure it"
        : "axe found no text it could measure";
      return pass(`axe-core ${axe.version} color-contrast: ${measured}.${fromPixels}`, [...review, ...pixelPasses]);
    }
    const byAxe = violation ? ` ${violation.nodeCount} element(s) fall below the WCAG AA ratio.` : "";
    const overImages = pixelFails.length ? " (or put a solid or darkened layer behind text over images)" : "";
    return failWith(
      `Darken the text or lighten the background${overImages} of ${failCount} element(s) to reach WCAG AA contrast`,
      [...failing, ...pixelFails, ...review, ...pixelPasses],
      `axe-core ${axe.version} color-contrast:${byAxe || " no element falls below the WCAG AA ratio where axe could measure it."}${fromPixels}`,
    );
  },
};
