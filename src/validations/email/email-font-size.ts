import { Type } from "@sinclair/typebox";
import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf, listed } from "./_helpers";
import { quote } from "../shared/quote";

export const emailFontSize: EmailValidation = {
  meta: htmlCheck({
    id: "email-font-size",
    name: "Readable text size",
    category: "accessibility",
    severity: "minor",
    summary: "All visible copy is at least 13px (iOS Mail enlarges anything smaller, which breaks layouts).",
    judgment:
      "Fails when any visible text in the HTML part has a computed font size below minPx (default 13; exactly 13px passes). Sizes come from inline styles, <style> rules and <font> as Chromium computes them at a 1280px-wide viewport, so pt, em, rem and % are converted (1pt = 4/3 px). The preheader and hidden elements (display:none, visibility:hidden, opacity:0, max-height:0 or height:0 with overflow:hidden, clipped to 1px) are not copy and are left out, and so is text whose size is 0.",
    parameters: [
      {
        name: "minPx",
        description: "Smallest allowed computed font size of visible text, in CSS pixels.",
        format: "number from 6 to 40",
        schema: Type.Number({ minimum: 6, maximum: 40 }),
        default: 13,
        example: 14,
      },
    ],
    references: [
      {
        title: "Apple: Human Interface Guidelines, typography",
        url: "https://developer.apple.com/design/human-interface-guidelines/typography",
      },
    ],
  }),
  evaluate(email, params) {
    const min = (params.minPx as number | undefined) ?? 13;
    const got = htmlDomOf(email, "plain text has no font sizes.");
    if ("outcome" in got) return got.outcome;
    const { textRuns } = got.dom;
    // Computed sizes can carry float noise (9.75pt -> 12.99999px): round to 1/100 px before comparing.
    const size = (px: number) => Math.round(px * 100) / 100;
    const small = textRuns.filter((r) => size(r.fontSizePx) < min);
    if (textRuns.length === 0) return pass("The HTML part has no visible text.");
    const smallest = Math.min(...textRuns.map((r) => size(r.fontSizePx)));
    if (small.length === 0)
      return pass(`All ${textRuns.length} visible text elements are at least ${min}px (smallest ${smallest}px).`);
    const sizes = [...new Set(small.map((r) => size(r.fontSizePx)))].sort((a, b) => a - b);
    const findings = small.map((r) => ({
      message: `${size(r.fontSizePx)}px text ${quote(r.text, 60)}`,
      selector: r.selector,
      text: r.text,
      measured: { fontSizePx: size(r.fontSizePx), minPx: min },
    }));
    return {
      verdict: "fail",
      reason: `Set ${small.length} text element(s) to at least ${min}px (found ${sizes.map((s) => `${s}px`).join(", ")}) in their inline style or <style> rule: ${listed(findings.map((f) => `${f.message} at ${f.selector}`))}`,
      reasoning: `${small.length} of ${textRuns.length} visible text elements are under ${min}px; the smallest is ${smallest}px.`,
      findings,
    };
  },
};
