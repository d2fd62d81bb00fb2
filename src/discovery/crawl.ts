import robotsParser from "robots-parser";
import { normalizePageUrl } from "../domain/page-key";
import type { NetworkGuard } from "../capture/network-guard";
import { FoundPages, sourceFailure, sourceUrl, type Discovered } from "./found-pages";
import { pageLinks } from "./page-links";
import { DISCOVERY_AGENT, fetchForDiscovery } from "./site-fetch";

/** A page larger than this is passed over (too-large): a crawl reads links, not downloads. */
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
const MAX_ROBOTS_BYTES = 512 * 1024;
/** Pages fetched at once, in the order met. */
const CONCURRENCY = 4;
/** Fetches per page listed at most: pages that include/exclude leave out are still read for their links, within this. */
const FETCHES_PER_PAGE = 4;
/** Paths that are not pages: never fetched, skipped as not-html. */
const NOT_HTML =
  /\.(pdf|zip|gz|tgz|rar|7z|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4a|mov|webm|ogg|wav|avi|css|js|mjs|json|xml|txt|csv|woff2?|ttf|otf|eot|exe|dmg|apk|docx?|xlsx?|pptx?)$/i;

type Robots = { isAllowed(url: string, ua?: string): boolean | undefined };

/**
 * robots.txt of the origin of `page` as RFC 9309 reads it: its rules when it answers; every path allowed when it
 * is absent (4xx); every path disallowed when it cannot be read (unreachable, 5xx, a redirect the guard refuses).
 * An origin the guard refuses is the crawl's error (DISCOVERY_URL_REFUSED for the page), before anything is read.
 */
async function robotsOf(guard: NetworkGuard, page: string, signal: AbortSignal): Promise<Robots> {
  const url = `${new URL(page).origin}/robots.txt`;
  const res = await fetchForDiscovery(guard, url, { maxBytes: MAX_ROBOTS_BYTES, accept: "text/plain", signal });
  if (res.ok) return robotsParser(url, new TextDecoder().decode(res.body));
  if (res.reason === "refused" && res.refusedUrl === url)
    throw sourceFailure("page to crawl from", { ...res, url: page, refusedUrl: page });
  if (res.status !== undefined && res.status >= 400 && res.status < 500) return { isAllowed: () => true };
  return { isAllowed: () => false };
}

const isHtml = (contentType: string) => /^(text\/html|application\/xhtml\+xml)\b/i.test(contentType.trim());

/**
 * A crawl from one page: breadth first over the links of its HTML pages on its origin (the first page's, after
 * its redirects), robots.txt honoured for the AssayBot agent, each page once by its canonical URL (a same-origin
 * `<link rel=canonical>`, else its normalized URL), bounded by maxPages, maxDepth, the fetch budget and the
 * discovery's time (`signal`). The first page failing is the discovery's error; a later one is skipped.
 */
export async function crawlPages(
  guard: NetworkGuard,
  raw: string,
  opts: { maxPages: number; maxDepth: number; listed: (path: string) => boolean; signal: AbortSignal },
): Promise<Discovered> {
  const found = new FoundPages("crawl", opts.maxPages, opts.listed);
  const start = sourceUrl(raw);
  start.hash = "";
  let origin = start.origin;
  let robots = await robotsOf(guard, start.href, opts.signal);
  const queued = new Set<string>([normalizePageUrl(start.href)]);
  let level = [start.href];
  let budget = opts.maxPages * FETCHES_PER_PAGE;
  for (let depth = 0; level.length && depth <= opts.maxDepth; depth++) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += CONCURRENCY) {
      if (opts.signal.aborted || found.full || budget <= 0) {
        found.truncated = true;
        return found.answer();
      }
      const batch = level.slice(i, i + CONCURRENCY).filter((url) => {
        if (robots.isAllowed(url, DISCOVERY_AGENT) !== false) return true;
        found.skip(url, "robots-disallowed");
        return false;
      });
      budget -= batch.length;
      const fetched = await Promise.all(
        batch.map((url) =>
          fetchForDiscovery(guard, url, {
            maxBytes: MAX_PAGE_BYTES,
            accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1",
            signal: opts.signal,
          }),
        ),
      );
      for (const res of fetched) {
        if (depth === 0 && !res.ok && !opts.signal.aborted) throw sourceFailure("page to crawl from", res);
        if (!res.ok) {
          if (!opts.signal.aborted) found.skip(res.url, res.reason, res.detail);
          continue;
        }
        if (depth === 0 && new URL(res.finalUrl).origin !== origin) {
          // The first page moved to another origin (http to https, a www host): the crawl is of that origin.
          origin = new URL(res.finalUrl).origin;
          robots = await robotsOf(guard, res.finalUrl, opts.signal);
        }
        if (new URL(res.finalUrl).origin !== origin) {
          found.skip(res.url, "off-origin", `redirected to ${res.finalUrl}`);
          continue;
        }
        if (!isHtml(res.contentType)) {
          found.skip(res.url, "not-html", res.contentType || "no content type");
          continue;
        }
        const { links, canonical } = pageLinks(new TextDecoder().decode(res.body), res.finalUrl);
        const key = normalizePageUrl(canonical && new URL(canonical).origin === origin ? canonical : res.finalUrl);
        if (found.has(key)) continue;
        queued.add(key);
        found.add(key, depth);
        if (depth === opts.maxDepth) continue;
        for (const link of links) {
          const url = new URL(link);
          if (url.origin !== origin) continue;
          const normalized = normalizePageUrl(link);
          if (queued.has(normalized)) continue;
          queued.add(normalized);
          if (NOT_HTML.test(url.pathname)) found.skip(normalized, "not-html", "not a page by its extension");
          else next.push(normalized);
        }
      }
    }
    level = next;
  }
  return found.answer();
}
