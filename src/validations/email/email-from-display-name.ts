import { pass, type EmailValidation } from "../types";
import { headerValues } from "../../capture/email/email-artifacts";
import { mimeCheck, parseAddressList } from "./_helpers";

export const emailFromDisplayName: EmailValidation = {
  meta: mimeCheck({
    id: "email-from-display-name",
    name: "From has a display name",
    category: "deliverability",
    severity: "minor",
    summary:
      'The From header names the sender ("Brand" <news@brand.com>), which inboxes show instead of a bare address.',
    judgment:
      'Fails when there is no From header, or its mailbox has no non-empty display name: a bare addr-spec (news@brand.com), an address in angle brackets only (<news@brand.com>) or an empty quoted name ("" <news@brand.com>). A comment after a bare address is not a display name.',
    references: [
      { title: "RFC 5322 §3.4 Address Specification", url: "https://www.rfc-editor.org/rfc/rfc5322#section-3.4" },
    ],
  }),
  evaluate(email) {
    const [value] = headerValues(email, "from");
    if (value === undefined) {
      return {
        verdict: "fail",
        reason: 'Add a From header with a display name, e.g. From: "Brand" <news@brand.com>',
        reasoning: "The message has no From header.",
        findings: [{ message: "No From header" }],
      };
    }
    const [mailbox] = parseAddressList(value);
    const decoded = email.from?.name?.trim() ?? "";
    if (mailbox?.angle && mailbox.displayName.trim())
      return pass(`From shows ${JSON.stringify(decoded || mailbox.displayName)} <${mailbox.addrSpec}>.`);
    const address = mailbox?.addrSpec || email.from?.address || value.trim();
    const shape = !mailbox?.angle ? "a bare address" : "an address with an empty display name";
    return {
      verdict: "fail",
      reason: `Give the From header a display name: From: "Brand name" <${address}> (it is ${shape}: ${JSON.stringify(value.trim())})`,
      reasoning: `From is ${JSON.stringify(value.trim())}: ${shape}, so inboxes show the raw address as the sender.`,
      findings: [{ message: `From header is ${shape}`, text: value.trim() }],
    };
  },
};
