import { failWith, pass, type EmailValidation, type Finding } from "../types";
import { htmlCheck, htmlDomOf, plainPart, urlKey, urlsInText } from "./_helpers";
import { quote } from "../shared/quote";
import { UNSUBSCRIBE_WORDING } from "./email-unsubscribe-link";

/** Words compared loosely: case, punctuation, typographic quotes and white space do not matter. */
const loose = (s: string) =>
  s
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, " ")
    .trim();

const VIEW_ONLINE = /view (it )?(in (your )?browser|online)|web version/i;

export const emailPlainTextPart: EmailValidation = {
  meta: htmlCheck({
    id: "email-plain-text-part",
    name: "Plain-text alternative",
    category: "deliverability",
    severity: "minor",
    summary:
      "The message has a text/plain part, and it carries the HTML's headline, main call to action and unsubscribe link.",
    judgment:
      "Fails when the message has no inline text/plain part (an attachment does not count). When there is one and an HTML part too, fails when the plain text lacks what a reader of it needs from the HTML: the first visible heading (two thirds of its words), the URL of the main call-to-action button (the first button-styled link that is not an unsubscribe or view-in-browser link), or an unsubscribe URL when the HTML has an unsubscribe link (the same URL, or any URL on a line with unsubscribe wording). URLs compare by host and path; tracking parameters may differ.",
    references: [
      { title: "RFC 2046 §5.1.4 Alternative Subtype", url: "https://www.rfc-editor.org/rfc/rfc2046#section-5.1.4" },
    ],
  }),
  evaluate(email) {
    const plain = plainPart(email);
    if (plain === null) {
      const attached = email.attachments.some((a) => a.mimeType === "text/plain");
      return {
        verdict: "fail",
        reason: `Add a text/plain alternative to the HTML (multipart/alternative, text/plain first) carrying the headline, the call-to-action URL and the unsubscribe URL${attached ? "; the text/plain attachment does not count" : ""}`,
        reasoning: `The message has no inline text/plain part${attached ? " (only a text/plain attachment)" : ""}; clients and filters that read plain text get nothing.`,
        findings: [{ message: "No text/plain part", measured: { parts: email.attachments.map((a) => a.mimeType) } }],
      };
    }
    if (!plain.trim()) {
      return {
        verdict: "fail",
        reason:
          "The text/plain part is empty: write the message's text, call-to-action URL and unsubscribe URL into it",
        reasoning: "The text/plain part exists but holds no text.",
        findings: [{ message: "Empty text/plain part" }],
      };
    }
    const got = htmlDomOf(email, "the text/plain part is the message.");
    if ("outcome" in got) return got.outcome;
    const { dom } = got;
    const plainLoose = ` ${loose(plain)} `;
    const plainUrls = new Set(urlsInText(plain).map(urlKey).filter(Boolean));
    const findings: Finding[] = [];
    const checked: string[] = [];

    const heading = dom.headings[0];
    if (heading && loose(heading.text)) {
      checked.push(`headline ${quote(heading.text)}`);
      // Most of the headline's words, so a shortened or reworded plain-text headline still counts.
      const words = loose(heading.text).split(" ");
      const present = words.filter((w) => plainLoose.includes(` ${w} `)).length;
      if (present / words.length < 2 / 3)
        findings.push({
          message: `The headline ${quote(heading.text)} is not in the plain text`,
          selector: heading.selector,
          text: heading.text,
        });
    }
    const cta = dom.links.find(
      (l) =>
        l.button &&
        l.visible &&
        /^https?:/i.test(l.href) &&
        !UNSUBSCRIBE_WORDING.test(l.text) &&
        !VIEW_ONLINE.test(l.text),
    );
    if (cta) {
      checked.push(`call to action ${quote(cta.text)}`);
      if (!plainUrls.has(urlKey(cta.href)))
        findings.push({
          message: `The call to action ${quote(cta.text)} (${cta.href}) has no URL in the plain text`,
          selector: cta.selector,
          url: cta.href,
        });
    }
    const unsubscribe = dom.links.filter(
      (l) => l.visible && UNSUBSCRIBE_WORDING.test(l.text) && /^https?:/i.test(l.href),
    );
    if (unsubscribe.length) {
      checked.push("unsubscribe link");
      const sameUrl = unsubscribe.some((l) => plainUrls.has(urlKey(l.href)));
      const worded = plain
        .split(/\r?\n/)
        .some((line) => UNSUBSCRIBE_WORDING.test(line) && /\b(https?:\/\/|mailto:)\S+/i.test(line));
      if (!sameUrl && !worded)
        findings.push({
          message: `The unsubscribe link (${unsubscribe[0]!.href}) is not in the plain text`,
          selector: unsubscribe[0]!.selector,
          url: unsubscribe[0]!.href,
        });
    }
    if (findings.length === 0) {
      const what = checked.length ? `; it carries the ${checked.join(", ")}` : "";
      return pass(`The message has a text/plain part of ${plain.trim().length} characters${what}.`);
    }
    return failWith(
      `Bring the text/plain part up to date with the HTML: ${findings.map((f) => f.message.replace(/ \(https?:[^)]*\)/, "")).join("; ")}`,
      findings,
      `Compared the text/plain part (${plain.trim().length} characters) with the HTML part's ${checked.join(", ")}.`,
    );
  },
};
