import { Type } from "@sinclair/typebox";
import { pass, type EmailValidation } from "../types";
import { mimeCheck } from "./_helpers";

export const emailSubjectLength: EmailValidation = {
  meta: mimeCheck({
    id: "email-subject-length",
    name: "Subject line length",
    category: "deliverability",
    severity: "minor",
    summary: "The subject line fits: at most 78 characters by default.",
    judgment:
      "Fails when the decoded subject (RFC 2047 decoded, unfolded) is longer than maxLength Unicode code points (default 78; exactly 78 passes), or when there is no subject at all.",
    parameters: [
      {
        name: "maxLength",
        description: "Longest allowed subject, in characters.",
        format: "whole number from 10 to 998",
        schema: Type.Integer({ minimum: 10, maximum: 998 }),
        default: 78,
        example: 60,
      },
    ],
    references: [
      { title: "RFC 5322 §2.1.1 Line length limits", url: "https://www.rfc-editor.org/rfc/rfc5322#section-2.1.1" },
    ],
  }),
  evaluate(email, params) {
    const max = params.maxLength as number;
    const subject = (email.subject ?? "").replace(/\r?\n[ \t]*/g, " ");
    const length = [...subject].length;
    if (!subject.trim()) {
      return {
        verdict: "fail",
        reason: "Give the message a subject line",
        reasoning: "The message has no subject.",
        findings: [{ message: "No Subject header" }],
      };
    }
    if (length <= max) return pass(`The subject is ${length} characters (limit ${max}): ${JSON.stringify(subject)}.`);
    return {
      verdict: "fail",
      reason: `Shorten the subject to ${max} characters or fewer (it is ${length}); inboxes cut it off after about that`,
      reasoning: `Decoded subject is ${length} code points, over the ${max} limit.`,
      findings: [{ message: `${length} characters`, text: subject, measured: { length, max } }],
    };
  },
};
