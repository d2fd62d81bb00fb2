import { Type } from "@sinclair/typebox";
import { pass, type WebValidation } from "../types";
import { domAt, domCheck, normaliseText } from "./_helpers";
import { quote } from "../shared/quote";

export const forbiddenTextAbsent: WebValidation = {
  meta: domCheck({
    id: "forbidden-text-absent",
    name: "Forbidden text absent",
    category: "content",
    severity: "major",
    summary: "Text you name (an old price, a discontinued product, a competitor) does not appear in the visible page.",
    judgment:
      "Fails when any of the given texts appears in the visible text of the page. Matching ignores case and collapses white space; hidden elements do not count.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "forbiddenText",
        description: "A text that must not be visible, or a list of them.",
        format: "non-empty string, or array of 1-50 non-empty strings",
        schema: Type.Union([
          Type.String({ minLength: 1, maxLength: 500 }),
          Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 50 }),
        ]),
        example: ["Black Friday 2024", "call for pricing"],
      },
    ],
    references: [],
  }),
  evaluate(artifacts, params) {
    const forbidden = ([] as string[]).concat(params.forbiddenText as string | string[]);
    const dom = domAt(artifacts);
    const page = normaliseText(dom.pageText);
    const found = forbidden.filter((t) => page.includes(normaliseText(t)));
    if (found.length === 0) return pass(`None of the ${forbidden.length} forbidden text(s) is visible.`);
    const findings = found.map((t) => {
      const block = dom.visibleText.find((b) => normaliseText(b.text).includes(normaliseText(t)));
      return { message: `Found ${quote(t)}`, text: t, ...(block ? { selector: block.selector } : {}) };
    });
    return {
      verdict: "fail",
      reason: `Remove ${found.map((t) => quote(t)).join(", ")} from the page${findings[0]?.selector ? ` (first in ${findings[0].selector})` : ""}`,
      reasoning: `${found.length} of ${forbidden.length} forbidden text(s) appear in the visible text.`,
      findings,
    };
  },
};
