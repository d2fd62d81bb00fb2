import { pass, type EmailValidation } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, plainPart } from "./_helpers";
import { quote } from "../shared/quote";

/** Link text that offers a way out of the mailing (the common non-English wordings too). */
export const UNSUBSCRIBE_WORDING =
  /unsubscribe|opt[ -]?out|manage (your )?(email )?(preferences|subscriptions)|email preferences|abmelden|abbestellen|d[ée]sabonner|d[ée]sinscri|darse de baja|darte de baja|cancelar (la )?suscripci|disiscriv|annulla(re)? l'iscrizione|uitschrijven|afmelden|descadastr|cancelar inscri/i;

export const emailUnsubscribeLink: EmailValidation = {
  meta: htmlCheck({
    id: "email-unsubscribe-link",
    name: "Unsubscribe link in the body",
    category: "compliance",
    severity: "major",
    summary:
      "The body offers a visible unsubscribe or manage-preferences link (CAN-SPAM, GDPR, and the bulk sender rules).",
    judgment:
      'Fails when no visible <a href> in the HTML part has text (or, for an image link, alt text) matching unsubscribe, opt out / opt-out, manage (your) (email) preferences / subscriptions or email preferences (or a common German, French, Spanish, Italian, Dutch or Portuguese equivalent) and goes somewhere: a link whose href is empty, "#" or javascript: is no way out and does not count. A message without an HTML part passes when a line of its text/plain part holds one of those words and a URL.',
    references: [
      {
        title: "FTC CAN-SPAM Act: A Compliance Guide for Business",
        url: "https://www.ftc.gov/business-guidance/resources/can-spam-act-compliance-guide-business",
      },
      { title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" },
    ],
  }),
  evaluate(email) {
    if (!hasHtmlPart(email)) {
      const text = plainPart(email) ?? "";
      const line = text
        .split(/\r?\n/)
        .find((l) => UNSUBSCRIBE_WORDING.test(l) && /\b(https?:\/\/|mailto:)\S+/i.test(l));
      if (line) return pass(`The message has no HTML part; its text/plain part offers ${quote(line.trim())}.`);
      return {
        verdict: "fail",
        reason:
          'Add an unsubscribe line with its URL to the text/plain body, e.g. "Unsubscribe: https://…" (ask the sender for the real URL; never invent one)',
        reasoning:
          "The message has no HTML part, and no line of the text/plain part holds unsubscribe wording together with a URL.",
        findings: [{ message: "No unsubscribe URL in the text/plain part" }],
      };
    }
    const got = htmlDomOf(email, "");
    if ("outcome" in got) return got.outcome;
    const usable = (href: string) => !!href && href !== "#" && !/^javascript:/i.test(href);
    const matches = got.dom.links.filter(
      (l) => UNSUBSCRIBE_WORDING.test(l.text) || (!l.text && UNSUBSCRIBE_WORDING.test(l.imageAlt)),
    );
    const good = matches.find((l) => l.visible && usable(l.href));
    if (good) return pass(`The body links ${quote(good.text || good.imageAlt)} to ${good.href} (${good.selector}).`);
    const near = matches[0];
    if (near) {
      const why = !near.visible ? "is hidden" : `goes nowhere (href=${JSON.stringify(near.href)})`;
      return {
        verdict: "fail",
        reason: `The unsubscribe link ${quote(near.text || near.imageAlt)} ${why}: make it a visible link to the real unsubscribe page (${near.selector})`,
        reasoning: `${got.dom.links.length} links read; the only unsubscribe-worded link ${why}.`,
        findings: matches.map((l) => ({
          message: `Unsubscribe link ${l.visible ? "" : "(hidden) "}to ${JSON.stringify(l.href)}`,
          selector: l.selector,
          text: l.text || l.imageAlt,
        })),
      };
    }
    return {
      verdict: "fail",
      reason:
        'Add a visible "Unsubscribe" or "Manage preferences" link to the footer of the HTML body, pointing at the sender\'s unsubscribe page (ask the sender for the real URL; never invent one)',
      reasoning: `Read ${got.dom.links.length} links in the HTML part; none has text matching unsubscribe / opt out / manage preferences / email preferences.`,
      findings: [
        {
          message: "No unsubscribe or manage-preferences link in the HTML body",
          measured: { links: got.dom.links.length },
        },
      ],
    };
  },
};
