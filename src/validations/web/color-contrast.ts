import { failWith, pass, type WebValidation } from "../types";
import type { TextBlock } from "../../capture/artifacts";
import { domAt, domCheck, quote } from "./_helpers";

const channel = (c: number) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r!) + 0.7152 * channel(g!) + 0.0722 * channel(b!);

/** WCAG 2.x contrast of a text block against its composited background; translucent text is blended first. */
function contrastOf(block: TextBlock): number {
  const [r, g, b, a] = block.color;
  const bg = block.background;
  const fg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const [l1, l2] = [luminance(fg), luminance(bg)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

/** Large text (WCAG): at least 24px, or at least 18.66px (14pt) and bold. */
const isLarge = (b: TextBlock) => b.fontSizePx >= 24 || (b.fontSizePx >= 18.66 && b.fontWeight >= 700);

export const colorContrast: WebValidation = {
  meta: domCheck({
    id: "color-contrast",
    name: "Text contrast (WCAG AA)",
    category: "accessibility",
    severity: "major",
    summary: "Visible text meets WCAG AA contrast: 4.5:1, or 3:1 for large text.",
    judgment:
      "Fails when visible text has a contrast ratio (WCAG 2.x relative luminance, text colour against the nearest opaque ancestor background, white by default) below 4.5:1, or below 3:1 for large text (24px and up, or 18.66px and up when bold). No rounding: 4.49 fails, 4.50 passes.",
    references: [{ title: "WCAG 2.2 SC 1.4.3 Contrast (Minimum)", url: "https://www.w3.org/WAI/WCAG22/Understanding/contrast-minimum" }],
  }),
  evaluate(artifacts) {
    const blocks = domAt(artifacts).visibleText;
    const findings = [];
    for (const b of blocks) {
      const ratio = contrastOf(b);
      const required = isLarge(b) ? 3 : 4.5;
      if (ratio < required) {
        findings.push({
          message: `${ratio.toFixed(2)}:1 (needs ${required}:1) for ${quote(b.text, 50)}`,
          selector: b.selector,
          measured: { ratio: Math.floor(ratio * 100) / 100, required, color: `rgba(${b.color.join(",")})`, background: `rgb(${b.background.map(Math.round).join(",")})`, fontSizePx: b.fontSizePx },
        });
      }
    }
    if (findings.length === 0) return pass(`All ${blocks.length} visible text block(s) meet WCAG AA contrast.`);
    return failWith(
      `Darken the text or lighten the background of ${findings.length} text block(s) to reach WCAG AA contrast`,
      findings,
      `${findings.length} of ${blocks.length} visible text block(s) fall below the WCAG AA ratio.`,
    );
  },
};
