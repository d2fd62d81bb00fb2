import { Type } from "@sinclair/typebox";
import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";

export const fontSizeBodyMinMax: WebValidation = {
  meta: domCheck({
    id: "font-size-body-min-max",
    name: "Readable text size",
    category: "accessibility",
    severity: "minor",
    summary: "Visible text renders at or above a minimum size (12px by default) at desktop width.",
    judgment:
      "Fails when any visible text renders with a computed font-size below minPx (default 12; exactly 12 passes) at 1280px, or, when maxPx is given, body text (outside headings) above maxPx.",
    parameters: [
      {
        name: "minPx",
        description: "Smallest allowed computed font size in CSS pixels.",
        format: "number from 1 to 100",
        schema: Type.Number({ minimum: 1, maximum: 100 }),
        default: 12,
        example: 12,
      },
      {
        name: "maxPx",
        description: "Largest allowed body-text size in CSS pixels (headings excluded); unset means no maximum.",
        format: "number from 1 to 400",
        schema: Type.Number({ minimum: 1, maximum: 400 }),
        example: 24,
      },
    ],
    references: [
      {
        title: "Lighthouse: document uses legible font sizes",
        url: "https://developer.chrome.com/docs/lighthouse/seo/font-size",
      },
    ],
  }),
  evaluate(artifacts, params) {
    const minPx = params.minPx as number;
    const maxPx = params.maxPx as number | undefined;
    const dom = domAt(artifacts);
    const blocks = dom.visibleText;
    // A heading's selector may be its id (#title), not its tag: the captured headings say which elements are headings.
    const inHeading = (selector: string) =>
      /(^|> )h[1-6](:|$| )/.test(selector) ||
      dom.headings.some((h) => selector === h.selector || selector.startsWith(`${h.selector} > `));
    const tooSmall = blocks.filter((b) => b.fontSizePx < minPx);
    const tooLarge = maxPx === undefined ? [] : blocks.filter((b) => b.fontSizePx > maxPx && !inHeading(b.selector));
    const findings = [
      ...tooSmall.map((b) => ({
        message: `${b.fontSizePx}px text ${quote(b.text, 50)}`,
        selector: b.selector,
        measured: { fontSizePx: b.fontSizePx },
      })),
      ...tooLarge.map((b) => ({
        message: `${b.fontSizePx}px body text ${quote(b.text, 50)}`,
        selector: b.selector,
        measured: { fontSizePx: b.fontSizePx },
      })),
    ];
    const sizes = blocks.map((b) => b.fontSizePx);
    const range = sizes.length ? `${Math.min(...sizes)}px to ${Math.max(...sizes)}px` : "no text";
    if (findings.length === 0)
      return pass(`Visible text ranges from ${range}; the limits are ${minPx}px${maxPx ? ` to ${maxPx}px` : ""}.`);
    return failWith(
      tooSmall.length
        ? `Raise ${tooSmall.length} text block(s) to at least ${minPx}px`
        : `Bring ${tooLarge.length} body text block(s) down to at most ${maxPx}px`,
      findings,
      `Visible text ranges from ${range}; ${tooSmall.length} block(s) below ${minPx}px${maxPx ? `, ${tooLarge.length} above ${maxPx}px` : ""}.`,
    );
  },
};
