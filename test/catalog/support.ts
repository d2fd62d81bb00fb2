import type { TestServer } from "../support/harness";

/** The paths the catalog's sitemap lists, in its order (every <loc> is on the server's own base). */
export async function sitemapPaths(server: TestServer): Promise<string[]> {
  const xml = await (await fetch(`${server.baseUrl}/sitemap.xml`)).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.slice(server.baseUrl.length));
}
