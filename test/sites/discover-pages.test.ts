import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eventCount, expectError, startServer, type TestServer } from "../support/harness";
import { MAX_SITEMAP_BYTES } from "../../src/discovery/sitemap";

/**
 * Site discovery (POST /api/sites/discover, MCP discover_pages) against sites served on loopback by Bun.serve:
 * sitemaps (an index, nested, gzip, other origins, broken children), crawls (links, depth, canonical URLs,
 * robots.txt, what is not a page), every refusal with its code, the per-organization limit, and the network guard
 * (a private or link-local sitemap, or a redirect to one). Nothing is charged and nothing is appended.
 */
setDefaultTimeout(60_000);

const XML = { "content-type": "application/xml" };
const HTML = { "content-type": "text/html; charset=utf-8" };
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join("")}</urlset>`;
const sitemapIndex = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join("")}</sitemapindex>`;
const page = (title: string, body: string, head = "") =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

let site: ReturnType<typeof Bun.serve>;
let origin: string;
let server: TestServer;
let key: string;
let customerId: string;
let robots = "User-agent: *\nDisallow: /private/\n";

/** The site: its sitemaps, its pages and their links, its robots.txt. */
function route(path: string): Response {
  const o = origin;
  const xml = (body: string) => new Response(body, { headers: XML });
  const html = (body: string) => new Response(body, { headers: HTML });
  switch (path) {
    case "/robots.txt":
      return new Response(robots, { headers: { "content-type": "text/plain" } });
    case "/sitemap.xml":
      return xml(
        urlset([
          `${o}/`,
          `${o}/about`,
          `${o}/blog/first?b=2&amp;a=1#top`,
          `${o}/blog/first?a=1&amp;b=2`,
          `https://elsewhere.example/page`,
          `not a url at all`,
          `${o}/blog/second`,
        ]),
      );
    case "/index.xml":
      return xml(
        sitemapIndex([
          `${o}/pages.xml.gz`,
          `${o}/nested-index.xml`,
          `${o}/missing.xml`,
          `${o}/not-xml.xml`,
          `https://elsewhere.example/sitemap.xml`,
        ]),
      );
    case "/pages.xml.gz":
      return new Response(gzipSync(urlset([`${o}/a`, `${o}/b`])), { headers: { "content-type": "application/gzip" } });
    case "/nested-index.xml":
      return xml(sitemapIndex([`${o}/deep.xml`]));
    case "/deep.xml":
      return xml(urlset([`${o}/c`]));
    case "/not-xml.xml":
    case "/html-sitemap.xml":
      return html(page("Not a sitemap", "<p>hello</p>"));
    case "/rss.xml":
      return xml(`<?xml version="1.0"?><rss version="2.0"><channel><title>x</title></channel></rss>`);
    case "/elsewhere-only.xml":
      return xml(urlset(["https://elsewhere.example/one", "https://elsewhere.example/two"]));
    case "/bomb.xml.gz":
      return new Response(gzipSync(Buffer.alloc(MAX_SITEMAP_BYTES + 1024, 32)), {
        headers: { "content-type": "application/gzip" },
      });
    case "/huge.xml":
      return xml(`${urlset([`${o}/`])}${" ".repeat(MAX_SITEMAP_BYTES)}`);
    case "/to-link-local.xml":
      return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
    case "/to-private.xml":
      return Response.redirect("http://10.0.0.1/sitemap.xml", 302);
    case "/many.xml":
      return xml(urlset(Array.from({ length: 30 }, (_, i) => `${o}/p/${i}`)));
    // The crawled site.
    case "/":
      return html(
        page(
          "Home",
          `<a href="/about">About</a> <a href="/blog/">Blog</a> <a href="/private/admin">Admin</a>
           <a href="https://elsewhere.example/">Elsewhere</a> <a href="mailto:hi@example.com">Mail</a>
           <a href="/brochure.pdf">Brochure</a> <a href="/gone">Gone</a> <a href="/home-again">Again</a>
           <a href="/secret" rel="nofollow">Secret</a> <a href="/about#team">Team</a>`,
        ),
      );
    case "/about":
      return html(page("About", `<a href="/">Home</a> <a href="/about?utm=x">Tracked</a>`));
    case "/about?utm=x":
      return html(page("About", "", `<link rel="canonical" href="/about">`));
    case "/home-again":
      return html(page("Home", "", `<link rel="canonical" href="${o}/">`));
    case "/blog/":
      return html(page("Blog", `<a href="/blog/post-1">One</a> <a href="data.json">Data</a>`));
    case "/blog/post-1":
      return html(page("Post", `<a href="/blog/post-2">Two</a>`));
    case "/blog/post-2":
      return html(page("Post 2", ""));
    case "/moved":
      return Response.redirect(`${o}/about`, 301);
    case "/lonely":
      return html(page("Lonely", `<a href="/private/x">x</a>`));
    case "/api-data":
      return new Response("{}", { headers: { "content-type": "application/json" } });
    default:
      return new Response("not found", { status: 404 });
  }
}

const discover = (body: Record<string, unknown>, apiKey = key) =>
  server.api("POST", "/api/sites/discover", { key: apiKey, body });

async function balance(): Promise<number> {
  return (await server.api("GET", "/api/credits", { key })).body.balance;
}

/** Refused with this status and code, with nothing appended and nothing charged. */
async function refused(body: Record<string, unknown>, status: number, code: string) {
  const [events, credits] = [eventCount(server), await balance()];
  const res = await discover(body);
  expectError(res, status, code);
  expect(eventCount(server)).toBe(events);
  expect(await balance()).toBe(credits);
  return res.body;
}

beforeAll(async () => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => route(new URL(req.url).pathname + new URL(req.url).search),
  });
  origin = `http://127.0.0.1:${site.port}`;
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  ({ apiKey: key, customerId } = await server.signup());
});
afterAll(async () => {
  site?.stop(true);
  await server?.stop();
});

describe("from a sitemap", () => {
  test("its pages normalized and each once; other origins and unusable entries skipped; nothing charged or appended", async () => {
    const [events, credits] = [eventCount(server), await balance()];
    const res = await discover({ sitemap: `${origin}/sitemap.xml` });
    expect(res.status).toBe(200);
    expect(res.body.pages).toEqual([
      { url: `${origin}/`, source: "sitemap" },
      { url: `${origin}/about`, source: "sitemap" },
      { url: `${origin}/blog/first?a=1&b=2`, source: "sitemap" },
      { url: `${origin}/blog/second`, source: "sitemap" },
    ]);
    expect(res.body.truncated).toBe(false);
    expect(res.body.skipped).toEqual([
      { url: "https://elsewhere.example/page", reason: "off-origin" },
      { url: "not a url at all", reason: "invalid-url" },
    ]);
    expect(eventCount(server)).toBe(events);
    expect(await balance()).toBe(credits);
  });

  test("a sitemap index: its sitemaps read (gzip, nested), the broken and other-origin ones skipped with why", async () => {
    const res = await discover({ sitemap: `${origin}/index.xml` });
    expect(res.status).toBe(200);
    expect(res.body.pages.map((p: { url: string }) => p.url)).toEqual([`${origin}/a`, `${origin}/b`, `${origin}/c`]);
    expect(res.body.skipped).toEqual([
      { url: "https://elsewhere.example/sitemap.xml", reason: "off-origin" },
      { url: `${origin}/missing.xml`, reason: "http-error", detail: "HTTP 404" },
      { url: `${origin}/not-xml.xml`, reason: "not-a-sitemap", detail: expect.stringContaining("not well-formed XML") },
    ]);
  });

  test("include and exclude over the path; maxPages truncates", async () => {
    const blog = await discover({ sitemap: `${origin}/sitemap.xml`, include: ["/blog/**"], exclude: ["**/second"] });
    expect(blog.body.pages.map((p: { url: string }) => p.url)).toEqual([`${origin}/blog/first?a=1&b=2`]);
    const few = await discover({ sitemap: `${origin}/many.xml`, maxPages: 5 });
    expect(few.body.pages.map((p: { url: string }) => p.url)).toEqual([0, 1, 2, 3, 4].map((i) => `${origin}/p/${i}`));
    expect(few.body.truncated).toBe(true);
  });

  test("SITEMAP_NOT_XML: HTML, or XML that is not a sitemap", async () => {
    const html = await refused({ sitemap: `${origin}/html-sitemap.xml` }, 422, "SITEMAP_NOT_XML");
    expect(html.details).toEqual({ url: `${origin}/html-sitemap.xml`, problem: expect.stringContaining("XML") });
    const rss = await refused({ sitemap: `${origin}/rss.xml` }, 422, "SITEMAP_NOT_XML");
    expect(rss.details.problem).toBe("the root element is <rss>, not <urlset> or <sitemapindex>");
  });

  test("SITEMAP_TOO_LARGE: past the cap as sent, or once decompressed", async () => {
    const sent = await refused({ sitemap: `${origin}/huge.xml` }, 422, "SITEMAP_TOO_LARGE");
    expect(sent.details).toEqual({ url: `${origin}/huge.xml`, limitBytes: MAX_SITEMAP_BYTES });
    await refused({ sitemap: `${origin}/bomb.xml.gz` }, 422, "SITEMAP_TOO_LARGE");
  });

  test("DISCOVERY_FETCH_FAILED: the sitemap answers an error status, or nothing", async () => {
    const missing = await refused({ sitemap: `${origin}/nope.xml` }, 422, "DISCOVERY_FETCH_FAILED");
    expect(missing.details).toEqual({ url: `${origin}/nope.xml`, reason: "http-error", status: 404 });
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const down = await refused({ sitemap: `http://127.0.0.1:${port}/sitemap.xml` }, 422, "DISCOVERY_FETCH_FAILED");
    expect(down.details.reason).toBe("unreachable");
  });

  test("DISCOVERY_FOUND_NO_PAGES: every entry on another origin, or filtered out", async () => {
    const elsewhere = await refused({ sitemap: `${origin}/elsewhere-only.xml` }, 422, "DISCOVERY_FOUND_NO_PAGES");
    expect(elsewhere.details).toEqual({
      source: "sitemap",
      skipped: [
        { url: "https://elsewhere.example/one", reason: "off-origin" },
        { url: "https://elsewhere.example/two", reason: "off-origin" },
      ],
    });
    await refused({ sitemap: `${origin}/sitemap.xml`, include: ["/shop/**"] }, 422, "DISCOVERY_FOUND_NO_PAGES");
  });
});

describe("by a crawl", () => {
  test("same-origin links breadth first, each page once by its canonical URL, robots.txt honoured", async () => {
    const res = await discover({ crawl: `${origin}/` });
    expect(res.status).toBe(200);
    expect(res.body.pages).toEqual([
      { url: `${origin}/`, source: "crawl", depth: 0 },
      { url: `${origin}/about`, source: "crawl", depth: 1 },
      { url: `${origin}/blog/`, source: "crawl", depth: 1 },
      { url: `${origin}/blog/post-1`, source: "crawl", depth: 2 },
      { url: `${origin}/blog/post-2`, source: "crawl", depth: 3 },
    ]);
    expect(res.body.truncated).toBe(false);
    // Elsewhere, mailto: and the nofollow link are not followed, so not listed as passed over either.
    expect(res.body.skipped).toEqual([
      { url: `${origin}/brochure.pdf`, reason: "not-html", detail: "not a page by its extension" },
      { url: `${origin}/private/admin`, reason: "robots-disallowed" },
      { url: `${origin}/blog/data.json`, reason: "not-html", detail: "not a page by its extension" },
      { url: `${origin}/gone`, reason: "http-error", detail: "HTTP 404" },
    ]);
  });

  test("maxDepth, maxPages (truncated) and include/exclude (pages left out are still read for their links)", async () => {
    const shallow = await discover({ crawl: `${origin}/`, maxDepth: 1 });
    expect(shallow.body.pages.map((p: { url: string }) => p.url)).toEqual([
      `${origin}/`,
      `${origin}/about`,
      `${origin}/blog/`,
    ]);
    const two = await discover({ crawl: `${origin}/`, maxPages: 2 });
    expect(two.body.pages.length).toBe(2);
    expect(two.body.truncated).toBe(true);
    const posts = await discover({ crawl: `${origin}/`, include: ["/blog/*"], exclude: ["**/post-2"] });
    expect(posts.body.pages).toEqual([{ url: `${origin}/blog/post-1`, source: "crawl", depth: 2 }]);
  });

  test("a first page that redirects is crawled where it lands", async () => {
    const res = await discover({ crawl: `${origin}/moved`, maxDepth: 0 });
    expect(res.body.pages).toEqual([{ url: `${origin}/about`, source: "crawl", depth: 0 }]);
  });

  test("DISCOVERY_FOUND_NO_PAGES: robots.txt disallows it all, or the first page is not HTML", async () => {
    robots = "User-agent: AssayBot\nDisallow: /\n";
    try {
      const all = await refused({ crawl: `${origin}/` }, 422, "DISCOVERY_FOUND_NO_PAGES");
      expect(all.details).toEqual({ source: "crawl", skipped: [{ url: `${origin}/`, reason: "robots-disallowed" }] });
    } finally {
      robots = "User-agent: *\nDisallow: /private/\n";
    }
    const json = await refused({ crawl: `${origin}/api-data` }, 422, "DISCOVERY_FOUND_NO_PAGES");
    expect(json.details.skipped).toEqual([
      { url: `${origin}/api-data`, reason: "not-html", detail: "application/json" },
    ]);
  });

  test("DISCOVERY_FETCH_FAILED: the first page answers an error status", async () => {
    const res = await refused({ crawl: `${origin}/gone` }, 422, "DISCOVERY_FETCH_FAILED");
    expect(res.details).toEqual({ url: `${origin}/gone`, reason: "http-error", status: 404 });
  });
});

describe("refusals", () => {
  test("DISCOVERY_ONE_SOURCE: neither, both, or maxDepth with a sitemap", async () => {
    expect((await refused({}, 400, "DISCOVERY_ONE_SOURCE")).details).toEqual({ given: [] });
    expect(
      (await refused({ sitemap: `${origin}/sitemap.xml`, crawl: `${origin}/` }, 400, "DISCOVERY_ONE_SOURCE")).details,
    ).toEqual({ given: ["sitemap", "crawl"] });
    await refused({ sitemap: `${origin}/sitemap.xml`, maxDepth: 2 }, 400, "DISCOVERY_ONE_SOURCE");
  });

  test("the request's own bounds: maxPages past 1000, unknown fields", async () => {
    await refused({ sitemap: `${origin}/sitemap.xml`, maxPages: 1001 }, 400, "INVALID_REQUEST_BODY");
    await refused({ sitemap: `${origin}/sitemap.xml`, depth: 2 }, 400, "UNKNOWN_FIELD");
  });

  test("DISCOVERY_URL_REFUSED: not a URL, another scheme, a link-local or private address, or a redirect to one", async () => {
    expect((await refused({ sitemap: "sitemap.xml" }, 400, "DISCOVERY_URL_REFUSED")).details).toEqual({
      url: "sitemap.xml",
      reason: "invalid-url",
    });
    expect((await refused({ crawl: "file:///etc/passwd" }, 400, "DISCOVERY_URL_REFUSED")).details.reason).toBe(
      "scheme",
    );
    // Loopback is open to this server (tests), private networks and link-local never are.
    expect(
      (await refused({ sitemap: "http://169.254.169.254/sitemap.xml" }, 400, "DISCOVERY_URL_REFUSED")).details,
    ).toEqual({ url: "http://169.254.169.254/sitemap.xml", reason: "link-local" });
    expect((await refused({ crawl: "http://10.1.2.3/" }, 400, "DISCOVERY_URL_REFUSED")).details.reason).toBe("private");
    const hop = await refused({ sitemap: `${origin}/to-link-local.xml` }, 400, "DISCOVERY_URL_REFUSED");
    expect(hop.details).toEqual({ url: "http://169.254.169.254/latest/meta-data/", reason: "link-local" });
    expect(hop.message).toContain("redirected to http://169.254.169.254/latest/meta-data/");
    expect((await refused({ sitemap: `${origin}/to-private.xml` }, 400, "DISCOVERY_URL_REFUSED")).details.reason).toBe(
      "private",
    );
  });

  test("through MCP: discover_pages answers the same pages, and the same refusals as tool errors", async () => {
    const client = new Client({ name: "assay-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const ok = await client.callTool({ name: "discover_pages", arguments: { sitemap: `${origin}/sitemap.xml` } });
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as any).pages.length).toBe(4);
      const no = await client.callTool({ name: "discover_pages", arguments: { crawl: `${origin}/gone`, customerId } });
      expect(no.isError).toBe(true);
      expect((no.structuredContent as any).code).toBe("DISCOVERY_FETCH_FAILED");
    } finally {
      await client.close();
    }
  });
});

describe("the default network guard (no loopback)", () => {
  let guarded: TestServer;
  let guardedKey: string;
  beforeAll(async () => {
    guarded = await startServer({ ASSAY_DISCOVERIES_PER_ORGANIZATION: "3", ASSAY_DISCOVERY_WINDOW_SECONDS: "600" });
    guardedKey = (await guarded.signup()).apiKey;
  });
  afterAll(() => guarded?.stop());

  test("a loopback, private or link-local sitemap or crawl is refused before anything is fetched", async () => {
    let hits = 0;
    const watched = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (hits++, new Response(urlset([]))) });
    try {
      const events = eventCount(guarded);
      for (const [body, reason] of [
        [{ sitemap: `http://127.0.0.1:${watched.port}/sitemap.xml` }, "loopback"],
        [{ crawl: `http://localhost:${watched.port}/` }, "loopback"],
      ] as const) {
        const res = await guarded.api("POST", "/api/sites/discover", { key: guardedKey, body });
        expectError(res, 400, "DISCOVERY_URL_REFUSED");
        expect(res.body.details.reason).toBe(reason);
      }
      const linkLocal = await guarded.api("POST", "/api/sites/discover", {
        key: guardedKey,
        body: { sitemap: "http://[fe80::1]/sitemap.xml" },
      });
      expectError(linkLocal, 400, "DISCOVERY_URL_REFUSED");
      expect(hits).toBe(0);
      expect(eventCount(guarded)).toBe(events);
    } finally {
      watched.stop(true);
    }
  });

  test("DISCOVERY_RATE_LIMITED: past the organization's discoveries per window, with Retry-After; refusals count too", async () => {
    const other = (await guarded.signup()).apiKey;
    // The three of the window were spent by the test above (refused by the guard, but fetched for: they count).
    const res = await guarded.api("POST", "/api/sites/discover", {
      key: guardedKey,
      body: { sitemap: "http://10.0.0.1/sitemap.xml" },
    });
    expectError(res, 429, "DISCOVERY_RATE_LIMITED");
    expect(res.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: 3, windowSeconds: 600 });
    expect(Number(res.headers.get("retry-after"))).toBe(res.body.details.retryAfterSeconds);
    // Another organization has its own window.
    const theirs = await guarded.api("POST", "/api/sites/discover", {
      key: other,
      body: { sitemap: "http://10.0.0.1/sitemap.xml" },
    });
    expectError(theirs, 400, "DISCOVERY_URL_REFUSED");
  });
});
