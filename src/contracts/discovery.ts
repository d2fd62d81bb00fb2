import { Type } from "@sinclair/typebox";
import { customerId } from "./request-parts";
import { Bool, literals, Obj, Opt, Str } from "./schema-kit";

/**
 * Site discovery (POST /api/sites/discover, MCP discover_pages): the pages of a site from its sitemap or a crawl,
 * the request and the answer, which the client reads to build a run.
 */

export const DISCOVERY_BOUNDS = {
  maxPages: { default: 50, max: 1000 },
  maxDepth: { default: 3, max: 10 },
  timeLimitSeconds: { default: 30, max: 120 },
  patterns: 20,
} as const;

const Patterns = (what: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: DISCOVERY_BOUNDS.patterns,
      description: `Globs over the URL's path (\`/blog/**\`, \`**/*.html\`): ${what}`,
    }),
  );

const SiteUrl = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description }));

export const DiscoverPagesBody = Type.Object(
  {
    sitemap: SiteUrl(
      "A sitemap's URL (sitemaps.org XML, gzip allowed; a sitemap index is followed): its pages on its own origin. Give sitemap or crawl.",
    ),
    crawl: SiteUrl(
      "A page to crawl from: links followed on its origin alone, robots.txt honoured (user agent AssayBot). Give sitemap or crawl.",
    ),
    maxPages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DISCOVERY_BOUNDS.maxPages.max,
        default: DISCOVERY_BOUNDS.maxPages.default,
        description: `At most this many pages are listed (1-${DISCOVERY_BOUNDS.maxPages.max}, default ${DISCOVERY_BOUNDS.maxPages.default}); more sets truncated.`,
      }),
    ),
    include: Patterns("only pages whose path matches one are listed (none: every page)."),
    exclude: Patterns("pages whose path matches one are not listed."),
    maxDepth: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: DISCOVERY_BOUNDS.maxDepth.max,
        default: DISCOVERY_BOUNDS.maxDepth.default,
        description: `crawl only: links followed at most this many clicks from the first page (0-${DISCOVERY_BOUNDS.maxDepth.max}, default ${DISCOVERY_BOUNDS.maxDepth.default}).`,
      }),
    ),
    timeLimitSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DISCOVERY_BOUNDS.timeLimitSeconds.max,
        default: DISCOVERY_BOUNDS.timeLimitSeconds.default,
        description: `The whole discovery's time bound (1-${DISCOVERY_BOUNDS.timeLimitSeconds.max} s, default ${DISCOVERY_BOUNDS.timeLimitSeconds.default}); what was found by then is answered, truncated.`,
      }),
    ),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

/** Why a URL met on the way is not listed (see docs/cli.md#site-discovery). */
export const SKIP_REASONS = [
  "off-origin",
  "invalid-url",
  "robots-disallowed",
  "refused",
  "unreachable",
  "http-error",
  "not-html",
  "too-large",
  "not-a-sitemap",
  "too-many-sitemaps",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const DiscoveredPages = Obj(
  {
    pages: Type.Array(
      Obj({
        url: Type.String({ description: "The page's normalized URL (for a crawl: its same-origin canonical URL)." }),
        source: literals(["sitemap", "crawl"] as const),
        depth: Opt(Type.Integer({ description: "crawl: clicks from the first page." })),
      }),
    ),
    truncated: Bool(),
    skipped: Type.Array(
      Obj({
        url: Str(),
        reason: literals(SKIP_REASONS),
        detail: Opt(Str()),
      }),
      { description: "URLs met but not listed, and why (at most 200; pages filtered out by include/exclude are not)." },
    ),
  },
  "The pages found, in the order met; truncated when maxPages or the time bound stopped the discovery with more to see.",
);
