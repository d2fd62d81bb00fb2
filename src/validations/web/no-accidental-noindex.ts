import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

export const noAccidentalNoindex: WebValidation = {
  meta: domCheck({
    id: "no-accidental-noindex",
    name: "Not hidden from search engines",
    category: "seo",
    severity: "critical",
    summary: "No robots meta tells search engines to drop a public page.",
    judgment:
      'Fails when a <meta name="robots"> or <meta name="googlebot"> content holds the token "noindex" or "none" (comma or space separated, any case). "index, follow" passes. Run it on pages meant to be public.',
    references: [
      {
        title: "Google: robots meta tag",
        url: "https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag",
      },
    ],
  }),
  evaluate(artifacts) {
    const offending = domAt(artifacts).metas.filter((m) => {
      const name = (m.name ?? "").trim().toLowerCase();
      if (name !== "robots" && name !== "googlebot") return false;
      return (m.content ?? "")
        .toLowerCase()
        .split(/[\s,]+/)
        .some((t) => t === "noindex" || t === "none");
    });
    if (offending.length === 0) return pass("No robots meta asks search engines not to index the page.");
    return {
      verdict: "fail",
      reason: `Remove "noindex" from <meta name="${offending[0]!.name}" content="${offending[0]!.content}"> unless this page must stay out of search results`,
      reasoning: `${offending.length} robots meta tag(s) ask search engines to drop the page.`,
      findings: offending.map((m) => ({
        message: `<meta name="${m.name}" content="${m.content}">`,
        selector: `meta[name="${m.name}"]`,
      })),
    };
  },
};
