import { pass, type EmailValidation, type Finding } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, plainPart } from "./_helpers";
import { quote } from "../shared/quote";
import { findFillerText } from "../shared/filler-text";

export const emailNoLoremIpsum: EmailValidation = {
  meta: htmlCheck({
    id: "email-no-lorem-ipsum",
    name: "No Latin filler text",
    category: "content",
    severity: "critical",
    summary: "No Latin filler text is left in the subject or body.",
    judgment:
      "Fails when the subject, the visible text of the HTML part or the text/plain part holds Latin placeholder copy, found by its vocabulary: on one line, among any 8 consecutive words (or a shorter line's words), at least 3 and three quarters are words of the Latin generators (words that are also everyday English, such as `in`, `sit` or `non`, count for neither side), or it contains `lorem ipsum`, `dolor sit amet` or `consectetur adipiscing` (any case). A Latin motto or phrase (`et cetera`, `Semper fidelis`) is not filler.",
    references: [{ title: "Wikipedia: Latin placeholder text", url: "https://en.wikipedia.org/wiki/Lorem_ipsum" }],
  }),
  evaluate(email) {
    const findings: Finding[] = [];
    const read: string[] = [];
    const look = (where: string, text: string, selector?: string) => {
      read.push(where);
      const filler = findFillerText(text);
      if (filler)
        findings.push({
          message: `Filler text in the ${where}`,
          text: filler.snippet,
          ...(selector ? { selector } : {}),
        });
    };
    if (email.subject) look("subject", email.subject);
    if (hasHtmlPart(email)) {
      const got = htmlDomOf(email, "");
      if ("outcome" in got) return got.outcome;
      look("HTML body", got.dom.visibleText, got.dom.textRuns.find((r) => findFillerText(r.text))?.selector);
    }
    const plain = plainPart(email);
    if (plain !== null) look("text/plain part", plain);
    if (findings.length === 0) return pass(`No lorem ipsum in the ${read.join(", ")}.`);
    return {
      verdict: "fail",
      reason: `Replace the lorem ipsum filler with the real copy: ${findings.map((f) => `${f.message.replace("Filler text in the ", "")}${f.selector ? ` at ${f.selector}` : ""}, ${quote(f.text ?? "", 50)}`).join("; ")}`,
      reasoning: `Found Latin filler text in ${findings.length} place(s) (${read.join(", ")} read).`,
      findings,
    };
  },
};
