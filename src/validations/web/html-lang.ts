import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const htmlLang: WebValidation = {
  meta: domCheck({
    id: "html-lang",
    name: "Page language declared",
    category: "accessibility",
    severity: "major",
    summary: "The <html> element has a non-empty lang attribute.",
    judgment: "Fails when <html> has no lang attribute, or it is empty or only white space.",
    references: [{ title: "WCAG 2.2 SC 3.1.1 Language of Page", url: "https://www.w3.org/WAI/WCAG22/Understanding/language-of-page" }],
  }),
  evaluate(artifacts) {
    const { htmlLang: lang } = domAt(artifacts);
    if (lang && lang.trim()) return pass(`<html lang="${lang.trim()}"> declares the page language.`);
    return {
      verdict: "fail",
      reason: 'Add a lang attribute to <html> naming the page language, e.g. <html lang="en">',
      reasoning: lang === null ? "<html> has no lang attribute." : "<html lang> is empty.",
      findings: [{ message: lang === null ? "<html> has no lang attribute" : "<html lang> is empty", selector: "html" }],
    };
  },
};
