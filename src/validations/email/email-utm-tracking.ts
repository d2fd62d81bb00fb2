import { Type } from "@sinclair/typebox";
import { pass, type EmailValidation } from "../types";
import { headerValues } from "../../capture/email/email-artifacts";
import { htmlCheck, htmlDomOf, hostWithin, listed, registrableDomain, urlKey } from "./_helpers";

const DEFAULT_UTM_PARAMETERS = ["utm_source", "utm_medium", "utm_campaign"];
/** Links that are not campaign content: opting out, preferences, the web version. */
const EXCLUDED_TEXT = /unsubscribe|preferences|view (it )?(in (your )?browser|online)/i;

export const emailUtmTracking: EmailValidation = {
  meta: htmlCheck({
    id: "email-utm-tracking",
    name: "Campaign tracking on own links",
    category: "analytics",
    severity: "minor",
    summary:
      "Links to the sender's own site carry utm_source, utm_medium and utm_campaign, so the visits they bring are attributed to the campaign.",
    judgment:
      "Own domains are ownDomains when given, otherwise the registrable domain of the From address (news@mail.brand.com -> brand.com) with all its subdomains. Fails when any http(s) <a href> in the HTML part to an own domain lacks one of utmParameters (default utm_source, utm_medium, utm_campaign; an empty value counts as missing). Not checked: unsubscribe, preference-centre and view-in-browser links (URL also in List-Unsubscribe, or link text matching unsubscribe / preferences / view in browser / view online), mailto: and tel: links, and links to other domains.",
    parameters: [
      {
        name: "ownDomains",
        description:
          "The sender's own domains (subdomains included). Defaults to the registrable domain of the From address.",
        format: "array of 1-50 domain names",
        schema: Type.Array(Type.String({ pattern: "^[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$" }), { minItems: 1, maxItems: 50 }),
        example: ["brand.com", "brandshop.com"],
      },
      {
        name: "utmParameters",
        description: "Query parameters every own-domain link must carry.",
        format: "array of 1-10 query parameter names",
        schema: Type.Array(Type.String({ pattern: "^[A-Za-z0-9_.-]{1,64}$" }), { minItems: 1, maxItems: 10 }),
        default: DEFAULT_UTM_PARAMETERS,
        example: ["utm_source", "utm_medium", "utm_campaign", "utm_content"],
      },
    ],
    references: [
      {
        title: "Google Analytics: Collect campaign data with custom URLs",
        url: "https://support.google.com/analytics/answer/10917952",
      },
    ],
  }),
  evaluate(email, params) {
    const keys = (params.utmParameters as string[] | undefined) ?? DEFAULT_UTM_PARAMETERS;
    const given = params.ownDomains as string[] | undefined;
    const fromDomain = email.from?.address ? registrableDomain(email.from.address) : null;
    const domains = given?.length ? given.map((d) => d.toLowerCase()) : fromDomain ? [fromDomain] : [];
    if (domains.length === 0) {
      const cause = "The From address has no domain to derive the sender's own domain from; give ownDomains.";
      return { verdict: "error", reason: cause, reasoning: cause, findings: [] };
    }
    const got = htmlDomOf(email, "no links to tag.");
    if ("outcome" in got) return got.outcome;
    const unsubscribeUrls = new Set(
      headerValues(email, "list-unsubscribe")
        .flatMap((v) => [...v.matchAll(/<\s*([^>]+?)\s*>/g)].map((m) => m[1]!))
        .map((u) => u.trim()),
    );
    const listedKeys = new Set([...unsubscribeUrls].map(urlKey).filter(Boolean));
    const own = got.dom.links.flatMap((l) => {
      let url: URL;
      try {
        url = new URL(l.href);
      } catch {
        return [];
      }
      if (!/^https?:$/.test(url.protocol) || !domains.some((d) => hostWithin(url.hostname, d))) return [];
      if (unsubscribeUrls.has(l.href) || listedKeys.has(urlKey(l.href))) return [];
      if (EXCLUDED_TEXT.test(l.text) || (!l.text && EXCLUDED_TEXT.test(l.imageAlt))) return [];
      return [{ link: l, url }];
    });
    const untagged = own
      .map(({ link, url }) => ({ link, missing: keys.filter((k) => !(url.searchParams.get(k) ?? "").trim()) }))
      .filter((x) => x.missing.length > 0);
    const scope = `${domains.join(", ")}${given?.length ? "" : " (from the From address)"}`;
    if (own.length === 0)
      return pass(`No link to ${scope} other than unsubscribe, preference or web-version links; nothing to tag.`);
    if (untagged.length === 0) return pass(`All ${own.length} link(s) to ${scope} carry ${keys.join(", ")}.`);
    const missingKeys = [...new Set(untagged.flatMap((u) => u.missing))];
    const findings = untagged.map(({ link, missing }) => ({
      message: `${link.text ? JSON.stringify(link.text) : link.imageAlt ? `image link ${JSON.stringify(link.imageAlt)}` : "link"} lacks ${missing.join(", ")}`,
      selector: link.selector,
      url: link.href,
    }));
    return {
      verdict: "fail",
      reason: `Add ${missingKeys.join(", ")} to ${untagged.length} of ${own.length} link(s) to ${domains.join(", ")}: ${listed(findings.map((f) => `${f.message} (${f.url})`))}`,
      reasoning: `${own.length} link(s) go to ${scope}; ${untagged.length} lack at least one of ${keys.join(", ")}.`,
      findings,
    };
  },
};
