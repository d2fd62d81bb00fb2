import { failWith, pass, type Finding, type WebValidation } from "../types";
import type { AxeNode } from "../../capture/artifacts";
import { domCheck } from "./_helpers";

const RULE = "color-contrast";

/** The required ratio as a number ("4.5:1" -> 4.5). */
const requiredOf = (n: AxeNode) =>
  n.contrast?.expectedContrastRatio ? Number.parseFloat(n.contrast.expectedContrastRatio) : null;

export const colorContrast: WebValidation = {
  meta: domCheck({
    id: "color-contrast",
    name: "Text contrast (WCAG AA)",
    category: "accessibility",
    severity: "major",
    summary: "Visible text meets WCAG AA contrast: 4.5:1, or 3:1 for large text (axe-core's color-contrast rule).",
    judgment:
      "Reads axe-core's color-contrast rule, run once on the loaded page at desktop-md: axe composites the real backgrounds behind each text element (stacked, translucent, positioned) and applies WCAG 2.x relative luminance, 4.5:1, or 3:1 for large text (24px and up, or 18.66px and up when bold), with no rounding. Fails when axe reports a violation; each is a finding with its element, ratio, required ratio and colours. Text whose background axe cannot determine (a background image, a gradient, overlapping elements, translucent text) is listed as needing review and does not fail the page.",
    needs: ["axe"],
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
    const violation = axe.violations.find((r) => r.id === RULE);
    const incomplete = axe.incomplete.find((r) => r.id === RULE);
    const passed = axe.passes.some((r) => r.id === RULE);
    const failing: Finding[] = (violation?.nodes ?? []).map((n) => {
      const c = n.contrast;
      const required = requiredOf(n);
      return {
        message:
          c?.contrastRatio != null
            ? `${c.contrastRatio}:1 (needs ${required}:1), ${c.fgColor} on ${c.bgColor}, ${c.fontSize} ${c.fontWeight}`
            : n.failureSummary,
        selector: n.target,
        viewport: "desktop-md",
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
    const review: Finding[] = (incomplete?.nodes ?? []).map((n) => ({
      message: `needs review: ${n.failureSummary || "axe could not determine the contrast"}`,
      selector: n.target,
      viewport: "desktop-md",
      measured: {
        outcome: "needs review",
        why: n.contrast?.messageKey ?? null,
        color: n.contrast?.fgColor ?? null,
        required: requiredOf(n),
      },
    }));
    const reviewed = incomplete
      ? ` ${incomplete.nodeCount} element(s) need review: axe could not determine their background (${[...new Set(incomplete.nodes.map((n) => n.contrast?.messageKey ?? "unknown"))].join(", ")}).`
      : "";
    if (!violation) {
      const measured = passed
        ? "the page meets WCAG AA contrast wherever axe could measure it"
        : "axe found no text it could measure";
      return pass(`axe-core ${axe.version} color-contrast: ${measured}.${reviewed}`, review);
    }
    return failWith(
      `Darken the text or lighten the background of ${violation.nodeCount} element(s) to reach WCAG AA contrast`,
      [...failing, ...review],
      `axe-core ${axe.version} color-contrast: ${violation.nodeCount} element(s) fall below the WCAG AA ratio.${reviewed}`,
    );
  },
};
