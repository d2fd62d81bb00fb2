import type { Static } from "@sinclair/typebox";
import type { DiscoveredPages, SkipReason } from "../contracts/discovery";
import { AppError } from "../errors/app-error";
import type { SiteFetch } from "./site-fetch";

export type Discovered = Static<typeof DiscoveredPages>;

/** At most this many passed-over URLs are answered: enough to see why, never the whole of a large site. */
const MAX_SKIPPED = 200;

/**
 * What a discovery found so far: pages in the order met, each once (by its normalized URL), up to maxPages; the
 * URLs passed over and why; and whether it stopped with more to see.
 */
export class FoundPages {
  private readonly pages: Discovered["pages"] = [];
  private readonly skipped: Discovered["skipped"] = [];
  private readonly keys = new Set<string>();
  truncated = false;

  constructor(
    private readonly source: "sitemap" | "crawl",
    private readonly maxPages: number,
    private readonly listed: (path: string) => boolean,
  ) {}

  get full(): boolean {
    return this.pages.length >= this.maxPages;
  }

  /** Whether this normalized URL was listed already. */
  has(url: string): boolean {
    return this.keys.has(url);
  }

  /** Lists a page (a normalized URL) unless it was listed already or include/exclude leave it out; past maxPages the list is truncated. */
  add(url: string, depth?: number): void {
    if (this.keys.has(url) || !this.listed(new URL(url).pathname)) return;
    if (this.full) {
      this.truncated = true;
      return;
    }
    this.keys.add(url);
    this.pages.push({ url, source: this.source, ...(depth === undefined ? {} : { depth }) });
  }

  skip(url: string, reason: SkipReason, detail?: string): void {
    if (this.skipped.length < MAX_SKIPPED) this.skipped.push({ url, reason, ...(detail ? { detail } : {}) });
  }

  /** The answer; a discovery that listed nothing is DISCOVERY_FOUND_NO_PAGES, with the first URLs passed over. */
  answer(): Discovered {
    if (this.pages.length === 0)
      throw new AppError(
        "DISCOVERY_FOUND_NO_PAGES",
        this.source === "sitemap"
          ? "The sitemap lists no page that could be listed (see details.skipped, and include/exclude)."
          : "The crawl found no page that could be listed (see details.skipped, robots.txt, and include/exclude).",
        { source: this.source, skipped: this.skipped.slice(0, 20) },
      );
    return { pages: this.pages, truncated: this.truncated, skipped: this.skipped };
  }
}

/** The discovery's own URL, read as an absolute http(s) URL; anything else is DISCOVERY_URL_REFUSED (as the guard words it). */
export function sourceUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("DISCOVERY_URL_REFUSED", `${JSON.stringify(raw)} is not an absolute URL.`, {
      url: raw,
      reason: "invalid-url",
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new AppError("DISCOVERY_URL_REFUSED", `Only http and https URLs are fetched, not ${url.protocol}.`, {
      url: raw,
      reason: "scheme",
    });
  return url;
}

/**
 * Why the discovery's own first fetch (the sitemap, or the page a crawl starts from) gave nothing, as its
 * catalogued error: a guard refusal (also of a redirect), DNS that could not answer now, or a fetch that failed.
 */
export function sourceFailure(what: string, failed: Extract<SiteFetch, { ok: false }>): AppError {
  if (failed.reason === "refused" && failed.guardReason === "dns-unavailable")
    return new AppError(
      "SERVICE_UNAVAILABLE",
      `DNS could not resolve the ${what}'s host now, so nothing was fetched. Retry shortly.`,
      { dependency: "dns", url: failed.url },
      failed.detail,
      true,
    );
  if (failed.reason === "refused")
    return new AppError(
      "DISCOVERY_URL_REFUSED",
      `The ${what} ${failed.refusedUrl === failed.url ? "URL" : `redirected to ${failed.refusedUrl}, which`} is not a public http(s) URL: ${failed.detail}.`,
      { url: failed.refusedUrl ?? failed.url, reason: failed.guardReason ?? "refused" },
    );
  return new AppError(
    "DISCOVERY_FETCH_FAILED",
    `The ${what} at ${failed.url} could not be fetched: ${failed.detail}.`,
    {
      url: failed.url,
      reason: failed.reason,
      ...(failed.status ? { status: failed.status } : {}),
    },
  );
}
