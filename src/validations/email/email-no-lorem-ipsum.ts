import { pass, type EmailValidation, type Finding } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, plainPart, quote } from "./_helpers";
import { LOREM } from "../shared/patterns";

export const emailNoLoremIpsum: EmailValidation = {
  meta: htmlCheck({
    id: "email-no-lorem-ipsum",
    name: "No Latin filler text",
    category: "content",
    severity: "critical",
    summary: "No Latin filler text is left in the subject or body.",
    judgment: 'Fails when the subject, the visible text of the HTML part or the text/plain part contains `lorem ipsum`, `dolor sit amet` or `consectetur adipiscing` (any case).',
    references: [{ title: "Wikipedia: Latin placeholder text", url: "https://en.wikipedia.org/wiki/Lorem_ipsum" }],
  }),
  evaluate(email) {
    const findings: Finding[] = [];
    const read: string[] = [];
    const look = (where: string, text: string, selector?: string) => {
      read.push(where);
      const m = LOREM.exec(text);
      if (m) findings.push({ message: `Filler text in the ${where}`, text: text.slice(m.index, m.index + 60).replace(/\s+/g, " ").trim(), ...(selector ? { selector } : {}) });
    };
    if (email.subject) look("subject", email.subject);
    if (hasHtmlPart(email)) {
      const got = htmlDomOf(email, "");
      if ("outcome" in got) return got.outcome;
      look("HTML body", got.dom.visibleText, got.dom.textRuns.find((r) => LOREM.test(r.text))?.selector);
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
