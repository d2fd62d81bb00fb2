import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf } from "./_helpers";

export const emailHtmlLang: EmailValidation = {
  meta: htmlCheck({
    id: "email-html-lang",
    name: "Language declared",
    category: "accessibility",
    severity: "major",
    summary: "The <html> element of the HTML part has a non-empty lang attribute, so screen readers pick the right voice.",
    judgment:
      "Fails when the <html> element of the text/html part has no lang attribute, or it is empty or only white space (a missing <html> tag counts as no lang). A message without an HTML part passes.",
    references: [
      { title: "WCAG 2.2 SC 3.1.1 Language of Page", url: "https://www.w3.org/WAI/WCAG22/Understanding/language-of-page" },
      { title: "Email Markup Consortium: accessibility guidelines", url: "https://emailmarkup.org/en/guidelines/" },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "no markup to declare a language on.");
    if ("outcome" in got) return got.outcome;
    const { lang } = got.dom;
    if (lang && lang.trim()) return pass(`<html lang="${lang.trim()}"> declares the message language.`);
    return {
      verdict: "fail",
      reason: 'Add a lang attribute naming the message language to the <html> element of the HTML part, e.g. <html lang="en">',
      reasoning: lang === null ? "The <html> element has no lang attribute." : "The <html> element's lang attribute is empty.",
      findings: [{ message: lang === null ? "<html> has no lang attribute" : "<html lang> is empty", selector: "html" }],
    };
  },
};
