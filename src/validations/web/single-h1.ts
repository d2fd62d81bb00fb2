import { failWith, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";

export const singleH1: WebValidation = {
  meta: domCheck({
    id: "single-h1",
    name: "Exactly one h1",
    category: "structure",
    severity: "minor",
    summary: "The page has exactly one top-level heading.",
    judgment: "Fails when the DOM has no <h1> (or role=heading aria-level=1), or two or more of them.",
    references: [
      {
        title: "MDN: heading elements",
        url: "https://developer.mozilla.org/en-US/docs/Web/HTML/Element/Heading_Elements",
      },
    ],
  }),
  evaluate(artifacts) {
    const h1s = domAt(artifacts).headings.filter((h) => h.level === 1);
    if (h1s.length === 1) return { verdict: "pass", reasoning: `One h1: ${quote(h1s[0]!.text)}.`, findings: [] };
    if (h1s.length === 0) {
      return {
        verdict: "fail",
        reason: "Add one <h1> that names the page's main topic",
        reasoning: "The page has no h1.",
        findings: [{ message: "No h1 element", selector: "body" }],
      };
    }
    return failWith(
      `Keep one <h1> and demote the other ${h1s.length - 1} to <h2> or lower`,
      h1s.map((h) => ({ message: `h1 ${quote(h.text)}`, selector: h.selector })),
      `The page has ${h1s.length} h1 elements.`,
    );
  },
};
