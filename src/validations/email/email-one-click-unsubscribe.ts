import { pass, type EmailValidation } from "../types";
import { mimeCheck, unsubscribeHeaders } from "./_helpers";

export const emailOneClickUnsubscribe: EmailValidation = {
  meta: mimeCheck({
    id: "email-one-click-unsubscribe",
    name: "One-click unsubscribe (RFC 8058)",
    category: "deliverability",
    severity: "major",
    summary:
      "A List-Unsubscribe https URI comes with List-Unsubscribe-Post: List-Unsubscribe=One-Click, as Gmail and Yahoo require of bulk senders.",
    judgment:
      'Fails when List-Unsubscribe holds an <https:…> URI but no List-Unsubscribe-Post header has exactly the value "List-Unsubscribe=One-Click", or when List-Unsubscribe-Post is sent without an https URI in List-Unsubscribe to POST to. Passes, not evaluated, when there is no List-Unsubscribe header (email-list-unsubscribe-header reports that).',
    references: [
      {
        title: "RFC 8058 Signaling One-Click Functionality for List Email Headers",
        url: "https://www.rfc-editor.org/rfc/rfc8058",
      },
      { title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" },
    ],
  }),
  evaluate(email) {
    const { lists, posts, https, oneClick } = unsubscribeHeaders(email);
    if (lists.length === 0)
      return pass(
        "No List-Unsubscribe header, so one-click unsubscribe is not evaluated (email-list-unsubscribe-header covers the missing header).",
      );
    if (https.length === 0) {
      if (posts.length === 0)
        return pass(
          `List-Unsubscribe offers no https URI (${JSON.stringify(lists[0])}), so RFC 8058 one-click does not apply.`,
        );
      return {
        verdict: "fail",
        reason:
          "List-Unsubscribe-Post is sent but List-Unsubscribe has no <https://…> URI to POST to: add the https unsubscribe URI to List-Unsubscribe, or drop List-Unsubscribe-Post",
        reasoning: `List-Unsubscribe is ${JSON.stringify(lists[0])} (no https URI); RFC 8058 §3.1 requires one when List-Unsubscribe-Post is present.`,
        findings: [{ message: "List-Unsubscribe-Post without an https List-Unsubscribe URI", text: lists[0] }],
      };
    }
    if (oneClick)
      return pass(`List-Unsubscribe offers ${https[0]} and List-Unsubscribe-Post is "List-Unsubscribe=One-Click".`);
    const found = posts.length
      ? `List-Unsubscribe-Post is ${JSON.stringify(posts[0])}, not exactly "List-Unsubscribe=One-Click"`
      : "there is no List-Unsubscribe-Post header";
    return {
      verdict: "fail",
      reason: `Add the header "List-Unsubscribe-Post: List-Unsubscribe=One-Click" (${found}) so mail clients can unsubscribe with one POST to ${https[0]}; sign both headers with DKIM`,
      reasoning: `List-Unsubscribe holds the https URI ${https[0]}, but ${found}.`,
      findings: [{ message: found, url: https[0], ...(posts[0] ? { text: posts[0] } : {}) }],
    };
  },
};
