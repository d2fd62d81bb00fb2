import zlib from "node:zlib";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { SkipReason } from "../contracts/discovery";
import { AppError } from "../errors/app-error";
import { normalizePageUrl } from "../domain/page-key";
import type { NetworkGuard } from "../capture/network-guard";
import { FoundPages, sourceFailure, sourceUrl, type Discovered } from "./found-pages";
import { fetchForDiscovery } from "./site-fetch";

/** A sitemap larger than this, as sent or decompressed, is not read (sitemaps.org allows 50 MB; 10 MiB is 50,000 long URLs). */
export const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
/** Sitemaps read in one discovery, the first included: an index naming more has the rest skipped. */
export const MAX_SITEMAPS = 50;
/** Indexes nested in indexes: sitemaps.org allows none, real sites sometimes have one level. */
const MAX_NESTING = 3;

const ACCEPT = "application/xml, text/xml;q=0.9, application/gzip;q=0.8, */*;q=0.5";

/** A sitemap's content: its page locations (urlset) or the sitemaps it points at (sitemapindex). */
export interface SitemapContent {
  kind: "urlset" | "sitemapindex";
  locations: string[];
}

/** Why a body is not sitemaps.org XML. */
export class NotASitemap extends Error {}

/** A body as a sitemap's text: gunzipped when it is gzip (a .xml.gz file), within the cap. */
function sitemapText(body: Uint8Array): string {
  if (body[0] !== 0x1f || body[1] !== 0x8b) return new TextDecoder().decode(body);
  try {
    return new TextDecoder().decode(zlib.gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES }));
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw e;
    throw new NotASitemap(`gzip that does not decompress (${(e as Error).message})`);
  }
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/** Reads sitemaps.org XML (any namespace prefix); throws NotASitemap saying what is wrong. */
export function parseSitemap(xml: string): SitemapContent {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new NotASitemap(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const doc = parser.parse(xml) as Record<string, unknown>;
  const root = Object.keys(doc).find((k) => !k.startsWith("?"));
  const entries = (list: unknown) =>
    (Array.isArray(list) ? list : [])
      .map((e) => (e && typeof e === "object" ? (e as { loc?: unknown }).loc : undefined))
      .filter((loc): loc is string => typeof loc === "string" && loc !== "");
  const body = (doc[root ?? ""] ?? {}) as Record<string, unknown>;
  if (root === "urlset") return { kind: "urlset", locations: entries(body.url) };
  if (root === "sitemapindex") return { kind: "sitemapindex", locations: entries(body.sitemap) };
  throw new NotASitemap(root ? `the root element is <${root}>, not <urlset> or <sitemapindex>` : "no root element");
}

/**
 * A sitemap's pages: the sitemap fetched through the guard (gzip allowed), an index's sitemaps after it, breadth
 * first, up to MAX_SITEMAPS and MAX_NESTING; every page and sitemap on the first sitemap's origin (after its
 * redirects), others skipped as off-origin. The first sitemap failing is the discovery's error; a later one failing
 * is skipped with its reason.
 */
export async function sitemapPages(
  guard: NetworkGuard,
  raw: string,
  opts: { maxPages: number; listed: (path: string) => boolean; signal: AbortSignal },
): Promise<Discovered> {
  const found = new FoundPages("sitemap", opts.maxPages, opts.listed);
  const queue: Array<{ url: string; nesting: number }> = [{ url: sourceUrl(raw).href, nesting: 0 }];
  const queued = new Set([queue[0]!.url]);
  let origin: string | undefined;
  let read = 0;
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (opts.signal.aborted || found.full) {
      found.truncated = true;
      break;
    }
    const first = origin === undefined;
    const content = await readSitemap(guard, next.url, first, opts.signal, (reason, detail) =>
      found.skip(next.url, reason, detail),
    );
    read++;
    if (!content) continue;
    origin ??= new URL(content.finalUrl).origin;
    for (const loc of content.locations) {
      let url: URL;
      try {
        url = new URL(loc);
      } catch {
        found.skip(loc, "invalid-url");
        continue;
      }
      if (url.protocol !== "http:" && url.protocol !== "https:") found.skip(loc, "invalid-url");
      else if (url.origin !== origin) found.skip(url.href, "off-origin");
      else if (content.kind === "urlset") found.add(normalizePageUrl(url.href));
      else if (next.nesting + 1 >= MAX_NESTING) found.skip(url.href, "too-many-sitemaps", "nested too deep");
      else if (!queued.has(url.href)) {
        if (read + queue.length >= MAX_SITEMAPS) {
          found.skip(url.href, "too-many-sitemaps", `more than ${MAX_SITEMAPS} sitemaps`);
          found.truncated = true;
          continue;
        }
        queued.add(url.href);
        queue.push({ url: url.href, nesting: next.nesting + 1 });
      }
      if (found.truncated) break;
    }
  }
  return found.answer();
}

/**
 * One sitemap's content, or null when a later sitemap could not be read (skipped through `skip`); the first
 * sitemap's failures are the discovery's catalogued errors.
 */
async function readSitemap(
  guard: NetworkGuard,
  url: string,
  first: boolean,
  signal: AbortSignal,
  skip: (reason: SkipReason, detail: string) => void,
): Promise<(SitemapContent & { finalUrl: string }) | null> {
  const res = await fetchForDiscovery(guard, url, { maxBytes: MAX_SITEMAP_BYTES, accept: ACCEPT, signal });
  const tooLarge = () =>
    new AppError("SITEMAP_TOO_LARGE", `The sitemap at ${url} is larger than ${MAX_SITEMAP_BYTES} bytes.`, {
      url,
      limitBytes: MAX_SITEMAP_BYTES,
    });
  if (!res.ok) {
    if (!first) {
      skip(res.reason, res.detail);
      return null;
    }
    throw res.reason === "too-large" ? tooLarge() : sourceFailure("sitemap", res);
  }
  try {
    return { ...parseSitemap(sitemapText(res.body)), finalUrl: res.finalUrl };
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      if (first) throw tooLarge();
      skip("too-large", `larger than ${MAX_SITEMAP_BYTES} bytes decompressed`);
      return null;
    }
    if (!(e instanceof NotASitemap)) throw e;
    if (first)
      throw new AppError("SITEMAP_NOT_XML", `${url} is not a sitemap: ${e.message}.`, { url, problem: e.message });
    skip("not-a-sitemap", e.message);
    return null;
  }
}
