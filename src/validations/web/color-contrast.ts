import { failWith, pass, type Finding, type WebValidation } from "../types";
import type { ContrastPixels } from "../../capture/artifacts";
import type { CaptureSize } from "../../capture/vocabulary";
import { domCheck } from "./_helpers";
import { axeRequired, outcomeOf, undecidedFinding } from "./_contrast";

/** The sizes in the order they are reported: the size axe first ran at, then smaller. */
const SIZE_ORDER: CaptureSize[] = ["desktop-md", "tablet-portrait", "mobile-sm"];

/** axe's violations at one size, each a finding with its element, ratio, required ratio and colours (method axe). */
const violationFindings = (at: ContrastPixels): Finding[] =>
  (at.axe.violation?.nodes ?? []).map((n) => {
    const c = n.contrast;
    const required = axeRequired(n);
    return {
      message:
        c?.contrastRatio != null
          ? `${c.contrastRatio}:1 (needs ${required}:1), ${c.fgColor} on ${c.bgColor}, ${c.fontSize} ${c.fontWeight}`
          : n.failureSummary,
      selector: n.target,
      viewport: at.viewport,
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

/** One size judged: its findings by outcome, and a sentence for the reasoning. */
function judgeSize(at: ContrastPixels) {
  const { violation, incomplete } = at.axe;
  const undecided = (incomplete?.nodes ?? []).map((n) => undecidedFinding(n, at));
  const pixelFails = undecided.filter((f) => outcomeOf(f) === "fail");
  const review = undecided.filter((f) => outcomeOf(f) === "needs review");
  const pixelPasses = undecided.filter((f) => outcomeOf(f) === "pass");
  const inapplicable = undecided.filter((f) => outcomeOf(f) === "not applicable");
  const byAxe = violation
    ? `${violation.nodeCount} element(s) fall below the WCAG AA ratio`
    : at.axe.passed
      ? "the page meets WCAG AA contrast wherever axe could measure it"
      : "axe found no text it could measure";
  const fromPixels = incomplete
    ? `; of ${incomplete.nodeCount} element(s) axe could not decide (${[...new Set(incomplete.nodes.map((n) => n.contrast?.messageKey ?? "unknown"))].join(", ")}), rendered pixels failed ${pixelFails.length} and passed ${pixelPasses.length}; ${inapplicable.length ? `${inapplicable.length} are not text the rule applies to (the colour of their background, hidden from assistive technology); ` : ""}${review.length + incomplete.nodeCount - incomplete.nodes.length} need review${at.capped ? ` (measuring stopped at ${at.capped})` : ""}`
    : "";
  return {
    failing: [...violationFindings(at), ...pixelFails],
    failCount: (violation?.nodeCount ?? 0) + pixelFails.length,
    others: [...review, ...pixelPasses, ...inapplicable],
    pixelFails: pixelFails.length,
    sentence: `At ${at.viewport}: ${byAxe}${fromPixels}.`,
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
      "Reads axe-core's color-contrast rule at each size the check is judged at: desktop-md (axe's run on the loaded page), and each size the job's captureSizes adds (mobile-sm, tablet-portrait: the rule run again on the page resized to it); each finding names its size. axe composites the real backgrounds behind each text element (stacked, translucent, positioned) and applies WCAG 2.x relative luminance, 4.5:1, or 3:1 for large text (24px and up, or 18.66px and up when bold), with no rounding. Fails when axe reports a violation; each is a finding with its element, ratio, required ratio and colours (method axe). Text whose background axe cannot determine (a background image, a gradient, overlapping elements, translucent text) is measured from rendered pixels at that size: the text's box rendered as shown and with its text made transparent, black and white (SVG text by its fill); the pixels the glyphs cover fully (their anti-aliased edges left out) are compared with the pixels behind them, or, where the text's shadow reaches past its glyphs on every side (a halo, which WCAG counts as the text's background), with the halo they are painted over, giving a distribution of contrast ratios. When 95% of those pixels are below the required ratio the element fails, when 95% are at or above it passes (method pixels). Where axe doubts the text is text, the page's accessibility tree decides: a lone character, or characters that are not text (a symbol, an icon glyph), in a widget whose accessible name does not contain them as a word (an \"X\" in a button named \"Close\") is a symbol, non-text content held to WCAG 1.4.11's 3:1 (passed from pixels, never failed here); text the colour of its background that is also hidden from assistive technology is not visual presentation of text and is listed as not applicable; any other single character, non-text characters or text the colour of its background is not measured and needs review. Otherwise, or when the text has a shadow or stroke that may carry its contrast (never failed), is cut at the size cap (never passed), animates, sits on a moving background or is seen through a translucent layer, it is listed as needing review with the measured range and does not fail the page. So text over a picture may pass at desktop-md and fail at mobile-sm, where a darker part of the picture is behind it. At most 20 elements and 5 s of measuring a size, none started 15 s after the page loaded; the reasoning says when a cap was hit.",
    capture: { offered: ["mobile-sm", "tablet-portrait", "desktop-md"], standard: ["desktop-md"] },
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
    const sizes = SIZE_ORDER.filter((size) => artifacts.contrastPixels?.[size]);
    if (sizes.length === 0) throw new Error("no contrast gathered");
    const judged = sizes.map((size) => judgeSize(artifacts.contrastPixels![size]!));
    const reasoning = `axe-core ${axe.version} color-contrast. ${judged.map((j) => j.sentence).join(" ")}`;
    const failing = judged.flatMap((j) => j.failing);
    const others = judged.flatMap((j) => j.others);
    if (failing.length === 0) return pass(reasoning, others);
    const where = sizes
      .map((size, i) => (judged[i]!.failCount ? `${judged[i]!.failCount} element(s) at ${size}` : ""))
      .filter(Boolean)
      .join(", ");
    const overImages = judged.some((j) => j.pixelFails)
      ? " (or put a solid or darkened layer behind text over images)"
      : "";
    return failWith(
      `Darken the text or lighten the background${overImages} of ${where} to reach WCAG AA contrast`,
      [...failing, ...others],
      reasoning,
    );
  },
};
