import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { Static } from "@sinclair/typebox";
import type { DiscoveredPages, DiscoverPagesBody } from "../../../../src/contracts/discovery";
import { pathFilter, type PathPatterns } from "../../../../src/domain/url-patterns";
import { callApi } from "../client";
import { UsageError } from "../../../../src/cli/program";
import type { PageSource } from "./run-request";
import type { SiteConfigFile } from "./site-config";

/** Where a run's pages come from: a config's list, a built folder, or the server's discovery of a sitemap or crawl. */

/** A path as reports name it: relative to the working directory when under it, with forward slashes. */
function reportPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return (rel.startsWith("..") ? file : rel).split(sep).join("/");
}

function readHtml(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`${what}: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** An absolute http(s) URL, or a UsageError naming where it was given. */
function httpUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${what}: ${JSON.stringify(raw)} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${what}: ${raw} is not an http(s) URL`);
  return url;
}

/** The config's own pages: URLs, and HTML files (relative to the config file) with the address each stands for. */
export function configPages(config: SiteConfigFile, configPath: string): PageSource[] {
  const base = dirname(resolve(configPath));
  return (config.pages ?? []).map((entry, i): PageSource => {
    const where = `${configPath}: $.pages[${i}]`;
    if (typeof entry === "string") return { kind: "url", url: httpUrl(entry, where).href, from: "config" };
    const { name, validations, validationSetId, captureSizes, detail } = entry;
    const selection = {
      ...(validations ? { validations } : {}),
      ...(validationSetId ? { validationSetId } : {}),
      ...(captureSizes ? { captureSizes } : {}),
      ...(detail ? { detail } : {}),
    };
    const common = { from: "config" as const, ...(name ? { name } : {}), selection };
    if ("url" in entry) return { kind: "url", url: httpUrl(entry.url, `${where}.url`).href, ...common };
    const file = resolve(base, entry.html);
    return {
      kind: "html",
      file: reportPath(file),
      html: readHtml(file, `${where}.html`),
      pageUrl: httpUrl(entry.pageUrl, `${where}.pageUrl`).href,
      ...common,
    };
  });
}

/** Every .html (and .htm) file under dir, sorted, skipping dot folders and node_modules. */
function htmlFiles(dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && /\.html?$/i.test(entry.name)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/**
 * A built folder's pages (as Lighthouse CI's staticDistDir): each HTML file a static_html page whose baseUrl is
 * pageUrl joined with the file's path, `index.html` standing for its folder's URL (`blog/index.html` is
 * `<pageUrl>blog/`); include and exclude read that URL's path.
 */
export function distPages(dir: string, pageUrl: string, patterns: PathPatterns = {}): PageSource[] {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {}
  if (!isDir) throw new UsageError(`--dist ${dir}: not a folder`);
  const root = httpUrl(pageUrl, "--page-url");
  if (!root.pathname.endsWith("/")) root.pathname += "/";
  const listed = pathFilter(patterns);
  const pages: PageSource[] = [];
  for (const file of htmlFiles(dir)) {
    const rel = relative(dir, file).split(sep).join("/");
    const path = /(^|\/)index\.html?$/i.test(rel) ? rel.replace(/index\.html?$/i, "") : rel;
    const url = new URL(path, root);
    if (!listed(url.pathname)) continue;
    pages.push({
      kind: "html",
      file: reportPath(file),
      html: readHtml(file, "--dist"),
      pageUrl: url.href,
      from: "dist",
    });
  }
  if (pages.length === 0)
    throw new UsageError(
      `--dist ${dir}: no HTML file${patterns.include || patterns.exclude ? " matches --include/--exclude" : ""}`,
    );
  return pages;
}

export type DiscoveryRequest = Static<typeof DiscoverPagesBody>;
export type DiscoveryAnswer = Static<typeof DiscoveredPages>;

/** The server's discovery of a sitemap or crawl (POST /api/sites/discover), as url pages; what it passed over goes to stderr. */
export async function discoveredPages(
  conn: { baseUrl: string; key: string },
  body: DiscoveryRequest,
): Promise<PageSource[]> {
  const answer = (await callApi<DiscoveryAnswer>(conn.baseUrl, "POST", "/api/sites/discover", { key: conn.key, body }))
    .body;
  const what = body.sitemap !== undefined ? `sitemap ${body.sitemap}` : `crawl from ${body.crawl}`;
  console.error(
    `${what}: ${answer.pages.length} page(s)${answer.truncated ? " (truncated: raise --max-pages to see more)" : ""}${answer.skipped.length ? `, ${answer.skipped.length} passed over` : ""}`,
  );
  for (const s of answer.skipped.slice(0, 10))
    console.error(`  skipped ${s.url}: ${s.reason}${s.detail ? ` (${s.detail})` : ""}`);
  return answer.pages.map((p): PageSource => ({ kind: "url", url: p.url, from: p.source as "sitemap" | "crawl" }));
}
