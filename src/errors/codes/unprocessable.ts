import type { ErrorEntry } from "../error-entry";

/** 422: the request was valid, but what it named could not be used. */
export const unprocessable = [
  {
    code: "DISCOVERY_FETCH_FAILED",
    status: 422,
    title: "Discovery fetch failed",
    guidance:
      "The sitemap, or the page a crawl starts from, could not be fetched: no answer in time, a network failure, or an HTTP error status (details.url, details.status when the site answered one, details.reason). Check the URL from where the server runs; nothing was listed.",
    addedBySpecGap: true,
  },
  {
    code: "SITEMAP_NOT_XML",
    status: 422,
    title: "Not a sitemap",
    guidance:
      "The sitemap's URL answered something that is not sitemaps.org XML: not well-formed XML, or a root element other than urlset or sitemapindex (details.url, details.problem). Give the sitemap's own URL (often /sitemap.xml), or crawl instead.",
    addedBySpecGap: true,
  },
  {
    code: "SITEMAP_TOO_LARGE",
    status: 422,
    title: "Sitemap too large",
    guidance:
      "The sitemap is larger than the server reads, as sent or once decompressed (details.limitBytes; sitemaps.org caps a sitemap at 50 MB). Split it into several sitemaps under a sitemap index, or name a smaller one.",
    addedBySpecGap: true,
  },
  {
    code: "DISCOVERY_FOUND_NO_PAGES",
    status: 422,
    title: "No pages found",
    guidance:
      "The sitemap lists no page this discovery may list, or the crawl reached none: every URL was on another origin, disallowed by robots.txt, not HTML, failing, or filtered out by include and exclude (details.source, details.skipped: the first URLs passed over and why). Loosen include and exclude, or check the site's robots.txt.",
    addedBySpecGap: true,
  },
] as const satisfies readonly ErrorEntry[];
