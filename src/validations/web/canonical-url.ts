import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const canonicalUrl: WebValidation = {
  meta: domCheck({
    id: "canonical-url",
    name: "Canonical URL",
    category: "seo",
    severity: "minor",
    summary: 'At most one <link rel="canonical">, with an absolute http(s) URL.',
    judgment:
      "Only canonical links in <head> count: one in <body> is ignored, as search engines and Lighthouse ignore it. Passes when <head> has no canonical link (search engines then pick one) or exactly one whose href resolves to an http(s) URL without a fragment. Fails on two or more canonical links in <head>, an empty href, or a non-http(s) target.",
    references: [
      {
        title: "Google: consolidate duplicate URLs",
        url: "https://developers.google.com/search/docs/crawling-indexing/consolidate-duplicate-urls",
      },
    ],
  }),
  evaluate(artifacts) {
    const canonical = domAt(artifacts).linkElements.filter((l) => l.rel.split(/\s+/).includes("canonical"));
    const links = canonical.filter((l) => l.inHead);
    const ignored = canonical.length - links.length;
    const inBody = ignored ? ` ${ignored} canonical link(s) in <body> ignored, as search engines ignore them.` : "";
    if (links.length === 0)
      return pass(`No canonical link in <head>; search engines choose the canonical URL themselves.${inBody}`);
    if (links.length > 1) {
      return {
        verdict: "fail",
        reason: `Keep one <link rel="canonical">; the page has ${links.length} (${links.map((l) => l.href).join(", ")})`,
        reasoning: "Several canonical links contradict each other and search engines ignore them all.",
        findings: links.map((l) => ({
          message: "canonical link",
          url: l.resolved || l.href,
          selector: 'link[rel="canonical"]',
        })),
      };
    }
    const [link] = links;
    const url = link!.resolved ? new URL(link!.resolved) : null;
    if (!link!.href.trim() || !url || !["http:", "https:"].includes(url.protocol) || url.hash) {
      return {
        verdict: "fail",
        reason: `Point <link rel="canonical"> at the page's absolute http(s) URL without a #fragment (it is ${JSON.stringify(link!.href)})`,
        reasoning: "The canonical link is empty, not http(s), or carries a fragment.",
        findings: [{ message: "invalid canonical href", url: link!.href, selector: 'link[rel="canonical"]' }],
      };
    }
    return pass(`One canonical link: ${url.href}.${inBody}`);
  },
};
