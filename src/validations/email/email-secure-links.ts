import { pass, type EmailValidation, type Finding } from "../types";
import { hasHtmlPart, htmlCheck, htmlDomOf, listed, plainPart } from "./_helpers";

export const emailSecureLinks: EmailValidation = {
  meta: htmlCheck({
    id: "email-secure-links",
    name: "Links use https",
    category: "security",
    severity: "major",
    summary: "Every link in the message uses https, not plain http.",
    judgment:
      'Fails when any <a href> (or <area href>) in the text/html part, or any URL in the text/plain part, starts with "http://". Image sources, xmlns and DOCTYPE URIs are not links and are not checked.',
    references: [{ title: "Google email sender guidelines", url: "https://support.google.com/a/answer/81126" }],
  }),
  evaluate(email) {
    const findings: Finding[] = [];
    let links = 0;
    if (hasHtmlPart(email)) {
      const got = htmlDomOf(email, "");
      if ("outcome" in got) return got.outcome;
      links += got.dom.links.length;
      for (const l of got.dom.links) {
        if (/^http:\/\//i.test(l.href))
          findings.push({
            message: `HTML link ${JSON.stringify(l.text || l.imageAlt || l.href)} uses http://`,
            selector: l.selector,
            url: l.href,
          });
      }
    }
    const plain = plainPart(email);
    if (plain !== null) {
      const urls = [...plain.matchAll(/\bhttps?:\/\/[^\s<>"'\])]+/gi)].map((m) => m[0]);
      links += urls.length;
      for (const u of urls)
        if (/^http:\/\//i.test(u))
          findings.push({ message: "text/plain URL uses http://", url: u.replace(/[.,;:!?]+$/, "") });
    }
    if (findings.length === 0) return pass(`All ${links} links use https (or mailto:/tel:).`);
    return {
      verdict: "fail",
      reason: `Change ${findings.length} link(s) from http:// to https:// (make sure the target serves https first): ${listed(findings.map((f) => `${f.message.replace(/ uses http:\/\/$/, "")} → ${f.url}`))}`,
      reasoning: `${findings.length} of ${links} links start with http://; mail clients and filters flag unencrypted links, and the click can be intercepted.`,
      findings,
    };
  },
};
