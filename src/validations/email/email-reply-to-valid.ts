import { pass, type Finding, type EmailValidation } from "../types";
import { headerValues } from "../../capture/email/email-artifacts";
import { addrSpecProblem, mimeCheck, parseAddressList } from "./_helpers";

export const emailReplyToValid: EmailValidation = {
  meta: mimeCheck({
    id: "email-reply-to-valid",
    name: "Reply-To is a valid address",
    category: "deliverability",
    severity: "major",
    summary:
      "When the message sets Reply-To, every address in it is a valid, fully qualified mailbox, so replies reach someone.",
    judgment:
      'Passes when there is no Reply-To header. Fails when a Reply-To header is present but empty, or any address in it is not a syntactically valid RFC 5322 addr-spec whose domain has at least two non-empty dot-separated labels: e.g. "support@brand" (no dot), "help(at)brand.com" (no @), "care@brand..com" (empty label), unbalanced < >.',
    references: [
      { title: "RFC 5322 §3.4 Address Specification", url: "https://www.rfc-editor.org/rfc/rfc5322#section-3.4" },
    ],
  }),
  evaluate(email) {
    const values = headerValues(email, "reply-to");
    if (values.length === 0) return pass("No Reply-To header: replies go to the From address.");
    const findings: Finding[] = [];
    let count = 0;
    for (const value of values) {
      const mailboxes = parseAddressList(value);
      if (mailboxes.length === 0) findings.push({ message: "Reply-To is empty", text: value });
      for (const m of mailboxes) {
        count++;
        const problem = m.problem ?? addrSpecProblem(m.addrSpec);
        if (problem) findings.push({ message: `${JSON.stringify(m.raw)}: ${problem}`, text: m.raw });
      }
    }
    if (values.length > 1)
      findings.push({
        message: `Reply-To appears ${values.length} times (RFC 5322 allows one)`,
        text: values.join(" | "),
      });
    if (findings.length === 0) return pass(`Reply-To holds ${count} valid address(es): ${values[0]!.trim()}.`);
    return {
      verdict: "fail",
      reason: `Fix the Reply-To header so replies are delivered, e.g. Reply-To: "Support" <support@brand.com> (ask the sender for the real address): ${findings.map((f) => f.message).join("; ")}`,
      reasoning: `Reply-To is ${JSON.stringify(values.join(", ").trim())}; ${findings.length} problem(s) found.`,
      findings,
    };
  },
};
