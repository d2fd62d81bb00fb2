import { Type } from "@sinclair/typebox";
import { pass, type WebValidation } from "../types";
import { domAt, domCheck, normaliseText } from "./_helpers";
import { quote } from "../shared/quote";

export const requiredTextPresent: WebValidation = {
  meta: domCheck({
    id: "required-text-present",
    name: "Required text present",
    category: "content",
    severity: "major",
    summary: "Text you name (a legal line, a price, a product name) appears in the visible page.",
    judgment:
      "Fails when any of the given texts is not found in the visible text of the page. Matching ignores case and collapses white space; hidden elements do not count.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "text",
        description: "The text that must be visible, or a list of texts that must all be visible.",
        format: "non-empty string, or array of 1-50 non-empty strings",
        schema: Type.Union([
          Type.String({ minLength: 1, maxLength: 500 }),
          Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 50 }),
        ]),
        example: "Free returns within 30 days",
      },
    ],
    references: [],
  }),
  evaluate(artifacts, params) {
    const wanted = ([] as string[]).concat(params.text as string | string[]);
    const dom = domAt(artifacts);
    const page = normaliseText(dom.pageText);
    const missing = wanted.filter((t) => !page.includes(normaliseText(t)));
    if (missing.length === 0) return pass(`All ${wanted.length} required text(s) are visible.`);
    return {
      verdict: "fail",
      reason: `Add the missing text to the visible page: ${missing.map((m) => quote(m)).join(", ")}`,
      reasoning: `${missing.length} of ${wanted.length} required text(s) were not found in the visible text.`,
      findings: missing.map((m) => ({ message: `Not found: ${quote(m)}`, text: m })),
    };
  },
};
