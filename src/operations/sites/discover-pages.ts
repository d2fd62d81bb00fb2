import { DiscoverPagesBody, DiscoveredPages } from "../../contracts/discovery";
import { defineOperation } from "../operation";
import { plural } from "../words";

export const discoverPages = defineOperation({
  operationId: "discoverPages",
  tag: "sites",
  summary: "List a site's pages from its sitemap or a crawl, for a run",
  description:
    "Fetches a sitemap (sitemaps.org XML, gzip allowed, a sitemap index followed) or crawls from a page (same origin, robots.txt honoured for the AssayBot agent, pages de-duplicated by their canonical URL), every request through the network guard, and answers the pages found with what was passed over and why. Bounded by maxPages, maxDepth (crawl) and timeLimitSeconds; charged nothing; limited per organization (DISCOVERY_RATE_LIMITED).",
  http: { method: "post", path: "/api/sites/discover", returns: "The pages found." },
  mcp: {
    name: "discover_pages",
    title: "Discover a site's pages",
    description:
      "The pages of a site, to check them in one run: from its sitemap ({ sitemap: URL }) or a crawl ({ crawl: URL }, same origin, robots.txt honoured), with include/exclude globs over the URL path and maxPages (default 50). Answers { pages: [{ url, source, depth? }], truncated, skipped: [{ url, reason }] }. Fetches the site; charges nothing. Same as POST /api/sites/discover.",
    annotations: {
      title: "Discover a site's pages",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    summary: (data) =>
      `${plural(data.pages.length, "page")} found${data.truncated ? " (truncated: more remain)" : ""}; ${data.skipped.length} passed over.`,
  },
  auth: { kind: "key", scope: "jobs:write" },
  input: { body: DiscoverPagesBody },
  output: DiscoveredPages,
  errors: [
    "DISCOVERY_ONE_SOURCE",
    "DISCOVERY_URL_REFUSED",
    "DISCOVERY_FETCH_FAILED",
    "SITEMAP_NOT_XML",
    "SITEMAP_TOO_LARGE",
    "DISCOVERY_FOUND_NO_PAGES",
    "DISCOVERY_RATE_LIMITED",
    "SERVICE_UNAVAILABLE",
  ],
  example: { sitemap: "https://example.com/sitemap.xml", maxPages: 20, include: ["/blog/**"] },
  handle: (body, { services, customerId }) => services.discovery.discover(customerId, body),
});
