import { pass, type EmailValidation } from "../types";
import { langProblem } from "../shared/language";
import { htmlCheck, htmlDomOf } from "./_helpers";

export const emailHtmlLang: EmailValidation = {
  meta: htmlCheck({
    id: "email-html-lang",
    name: "Language declared",
    category: "accessibility",
    severity: "major",
    summary:
      "The <html> element of the HTML part has a lang attribute naming the message language, so screen readers pick the right voice.",
    judgment:
      'Fails when the <html> element of the text/html part has no lang attribute, when it is empty or only white space (a missing <html> tag counts as no lang), or when it is "und" (BCP 47\'s "undetermined", MJML\'s default), which names no language. A message without an HTML part passes.',
    references: [
      {
        title: "WCAG 2.2 SC 3.1.1 Language of Page",
        url: "https://www.w3.org/WAI/WCAG22/Understanding/language-of-page",
      },
      { title: "Email Markup Consortium: accessibility guidelines", url: "https://emailmarkup.org/en/guidelines/" },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "no markup to declare a language on.");
    if ("outcome" in got) return got.outcome;
    const { lang } = got.dom;
    const problem = langProblem(lang);
    if (!problem) return pass(`<html lang="${lang!.trim()}"> declares the message language.`);
    return {
      verdict: "fail",
      reason:
        'Give the <html> element of the HTML part a lang attribute naming the message language, e.g. <html lang="en"> (MJML: <mjml lang="en">)',
      reasoning: problem.reasoning,
      findings: [{ message: problem.message, selector: "html" }],
    };
  },
};
