import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { quote } from "../shared/quote";

export const pageTitle: WebValidation = {
  meta: domCheck({
    id: "page-title",
    name: "Page has a title",
    category: "seo",
    severity: "major",
    summary: "The document has a non-empty <title> in <head>.",
    judgment: "Fails when <head> has no <title>, or its text is empty or only white space.",
    references: [
      { title: "WCAG 2.2 SC 2.4.2 Page Titled", url: "https://www.w3.org/WAI/WCAG22/Understanding/page-titled" },
    ],
  }),
  evaluate(artifacts) {
    const { title } = domAt(artifacts);
    if (title === null) {
      return {
        verdict: "fail",
        reason: "Add a <title> element inside <head> that names the page",
        reasoning: "The document head has no <title> element.",
        findings: [{ message: "No <title> in <head>", selector: "head" }],
      };
    }
    if (!title.trim()) {
      return {
        verdict: "fail",
        reason: "Write text in the empty <title> element",
        reasoning: "The <title> element is empty or white space only.",
        findings: [{ message: "Empty <title>", selector: "head > title" }],
      };
    }
    return pass(`The title is ${quote(title.trim())}.`);
  },
};
