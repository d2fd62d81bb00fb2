import { pass, type EmailValidation } from "../types";
import { headerValues } from "../../capture/email/email-artifacts";
import { mimeCheck } from "./_helpers";

export const emailListUnsubscribeHeader: EmailValidation = {
  meta: mimeCheck({
    id: "email-list-unsubscribe-header",
    name: "List-Unsubscribe header",
    category: "deliverability",
    severity: "major",
    summary: "The message carries a List-Unsubscribe header, which Gmail and Yahoo require of bulk senders.",
    judgment:
      "Fails when the top-level headers have no List-Unsubscribe header, or it holds no <mailto:> or <https:> URI.",
    references: [
      {
        title: "RFC 2369 The Use of URLs as Meta-Syntax for Core Mail List Commands",
        url: "https://www.rfc-editor.org/rfc/rfc2369",
      },
      { title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" },
    ],
  }),
  evaluate(email) {
    const values = headerValues(email, "list-unsubscribe");
    if (values.length === 0) {
      return {
        verdict: "fail",
        reason:
          "Add a List-Unsubscribe header with an https: and/or mailto: unsubscribe URI (ask the sender for the real URL; never invent one)",
        reasoning: "The top-level headers have no List-Unsubscribe.",
        findings: [{ message: "No List-Unsubscribe header" }],
      };
    }
    const uris = values.flatMap((v) => [...v.matchAll(/<([^>]+)>/g)].map((m) => m[1]!.trim()));
    const usable = uris.filter((u) => /^(mailto:|https?:)/i.test(u));
    if (usable.length === 0) {
      return {
        verdict: "fail",
        reason:
          "Put the unsubscribe URI in angle brackets in List-Unsubscribe, e.g. <https://example.com/unsubscribe?u=…>",
        reasoning: `List-Unsubscribe is ${JSON.stringify(values[0])}, with no <mailto:> or <http(s):> URI.`,
        findings: [{ message: "List-Unsubscribe has no usable URI", text: values[0] }],
      };
    }
    return pass(`List-Unsubscribe offers ${usable.join(", ")}.`);
  },
};
