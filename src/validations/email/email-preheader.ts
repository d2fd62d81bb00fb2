import { pass, type EmailValidation } from "../types";
import { htmlCheck, htmlDomOf } from "./_helpers";
import { quote } from "../shared/quote";

export const emailPreheader: EmailValidation = {
  meta: htmlCheck({
    id: "email-preheader",
    name: "Preheader text",
    category: "content",
    severity: "minor",
    summary: "The HTML opens with hidden preheader text, which inboxes show as the preview after the subject.",
    judgment:
      "Fails when <body> has no preheader: an element placed before the first visible text that is hidden (display:none, max-height:0 or height:0 with overflow:hidden, opacity:0, mso-hide:all, visibility:hidden, or clipped to 1px) and holds at least 10 characters of text (zero-width and non-breaking padding characters do not count). A message without an HTML part passes.",
    references: [
      {
        title: "Litmus: The ultimate guide to preview text",
        url: "https://www.litmus.com/blog/the-ultimate-guide-to-preview-text-support",
      },
    ],
  }),
  evaluate(email) {
    const got = htmlDomOf(email, "inboxes preview the plain text.");
    if ("outcome" in got) return got.outcome;
    const { preheader, shortHiddenLead, firstVisibleText } = got.dom;
    if (preheader)
      return pass(`Preheader (${preheader.hiddenBy}) at ${preheader.selector}: ${quote(preheader.text, 120)}.`);
    const preview = firstVisibleText
      ? `inboxes will preview the first visible text, ${quote(firstVisibleText.text, 60)} (${firstVisibleText.selector})`
      : "inboxes will preview nothing useful";
    const short = shortHiddenLead
      ? ` The hidden text ${quote(shortHiddenLead.text)} at ${shortHiddenLead.selector} is under 10 characters.`
      : "";
    return {
      verdict: "fail",
      reason: `Add preheader text as the first element of <body>: a hidden element (style="display:none;max-height:0;overflow:hidden;mso-hide:all") holding a one-line summary of 40-130 characters; without it ${preview}`,
      reasoning: `No hidden element with 10 or more characters of text comes before the first visible text of <body>.${short}`,
      findings: [
        {
          message: "No preheader before the first visible text",
          ...(firstVisibleText ? { selector: firstVisibleText.selector, text: firstVisibleText.text } : {}),
        },
      ],
    };
  },
};
