import { pass, type WebValidation } from "../types";
import { langProblem } from "../shared/language";
import { domAt, domCheck } from "./_helpers";

export const htmlLang: WebValidation = {
  meta: domCheck({
    id: "html-lang",
    name: "Page language declared",
    category: "accessibility",
    severity: "major",
    summary: "The <html> element has a lang attribute naming the page language.",
    judgment:
      'Fails when <html> has no lang attribute, when it is empty or only white space, or when it is "und" (BCP 47\'s "undetermined", MJML\'s default), which names no language.',
    references: [
      {
        title: "WCAG 2.2 SC 3.1.1 Language of Page",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/language-of-page",
      },
    ],
  }),
  evaluate(artifacts) {
    const { htmlLang: lang } = domAt(artifacts);
    const problem = langProblem(lang);
    if (!problem) return pass(`<html lang="${lang!.trim()}"> declares the page language.`);
    return {
      verdict: "fail",
      reason: 'Give <html> a lang attribute naming the page language, e.g. <html lang="en">',
      reasoning: problem.reasoning,
      findings: [{ message: problem.message, selector: "html" }],
    };
  },
};
