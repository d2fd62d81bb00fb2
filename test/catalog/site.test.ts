import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { validateXML } from "xmllint-wasm";
import { clientPageIds, clientRendersRecordedOn } from "../../src/catalog/email-client-examples";
import { examplesRecordedOn } from "../../src/catalog/examples";
import { validationModules } from "../../src/catalog/registry";
import { validationSets } from "../../src/catalog/sets";
import { ROOT, startServer, type TestServer } from "../support/harness";
import { sitemapPaths } from "./support";

/**
 * The catalog site's map for crawlers: /sitemap.xml valid against the sitemaps.org schema (test/fixtures/schemas)
 * and listing every public page (the mail-client pages among them), each of which answers 200 with its canonical address; /robots.txt pointing at it;
 * ASSAY_CATALOG_BASE_URL as the base of every catalog link.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

test("the sitemap is valid against the sitemaps.org schema and lists every page with the recorded lastmod", async () => {
  const res = await fetch(`${server.baseUrl}/sitemap.xml`);
  expect(res.headers.get("content-type")).toContain("application/xml");
  const xml = await res.text();
  const schema = readFileSync(join(ROOT, "test", "fixtures", "schemas", "sitemap.xsd"), "utf8");
  const result = await validateXML({
    xml: [{ fileName: "sitemap.xml", contents: xml }],
    schema: [{ fileName: "sitemap.xsd", contents: schema }],
  });
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  const withParameters = validationModules.filter((m) => m.meta.parameters.length);
  expect(withParameters.length).toBeGreaterThan(0);
  expect((await sitemapPaths(server)).sort()).toEqual(
    [
      "/validations",
      ...validationModules.map((m) => `/validations/${m.meta.slug}/standard`),
      ...withParameters.map((m) => `/validations/${m.meta.slug}/custom`),
      ...validationSets.map((s) => `/validation-sets/${s.id}`),
      "/email-clients",
      ...clientPageIds().map((id) => `/email-clients/${id}`),
    ].sort(),
  );
  expect(xml.match(/<lastmod>/g)?.length).toBe(xml.match(/<loc>/g)?.length);
  expect(new Set(xml.match(/<lastmod>[^<]+<\/lastmod>/g))).toEqual(
    new Set([examplesRecordedOn, clientRendersRecordedOn].map((day) => `<lastmod>${day}</lastmod>`)),
  );
});

test("every sitemap URL answers 200 HTML naming itself as canonical", async () => {
  const paths = await sitemapPaths(server);
  const answers = await Promise.all(
    paths.map(async (path) => {
      const res = await fetch(`${server.baseUrl}${path}`);
      const html = await res.text();
      return {
        path,
        status: res.status,
        type: res.headers.get("content-type"),
        canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1],
      };
    }),
  );
  expect(
    answers.filter(
      (a) => a.status !== 200 || !a.type?.startsWith("text/html") || a.canonical !== `${server.baseUrl}${a.path}`,
    ),
  ).toEqual([]);
});

test("robots.txt lets crawlers in and points at the sitemap", async () => {
  const res = await fetch(`${server.baseUrl}/robots.txt`);
  expect(res.status).toBe(200);
  const text = await res.text();
  expect(text).toContain("User-agent: *");
  expect(text).not.toMatch(/^Disallow: \/$/m);
  expect(text).toContain(`Sitemap: ${server.baseUrl}/sitemap.xml`);
});

test("ASSAY_CATALOG_BASE_URL is the base of the records' page links, the pages' links and the sitemap; the API stays on PUBLIC_BASE_URL", async () => {
  const published = await startServer({ ASSAY_CATALOG_BASE_URL: "https://catalog.example/" });
  try {
    const record = await published.api("GET", "/api/validations/spelling");
    expect(record.body.links).toEqual({
      self: `${published.baseUrl}/api/validations/spelling`,
      standard: "https://catalog.example/validations/spelling/standard",
      custom: "https://catalog.example/validations/spelling/custom",
    });
    const page = await (await fetch(`${published.baseUrl}/validations/spelling/standard`)).text();
    expect(page).toContain('<link rel="canonical" href="https://catalog.example/validations/spelling/standard"/>');
    expect(page).toContain('<meta property="og:url" content="https://catalog.example/validations/spelling/standard"/>');
    expect(page).toContain('href="https://catalog.example/validation-sets/launch-readiness"');
    // The snippets call the API, which stays where PUBLIC_BASE_URL says.
    expect(page).toContain(`curl -X POST ${published.baseUrl}/api/jobs`);
    const sitemap = await (await fetch(`${published.baseUrl}/sitemap.xml`)).text();
    expect(sitemap).toContain("<loc>https://catalog.example/validations</loc>");
    expect(await (await fetch(`${published.baseUrl}/robots.txt`)).text()).toContain(
      "Sitemap: https://catalog.example/sitemap.xml",
    );
  } finally {
    await published.stop();
  }
});

test("unknown checks and sets, and the custom page of a check without parameters, are HTML 404 pages", async () => {
  for (const path of [
    "/validations/page-title/custom",
    "/validations/no-such-check/standard",
    "/validation-sets/no-such-set",
  ]) {
    const res = await fetch(`${server.baseUrl}${path}`);
    expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
      path,
      status: 404,
      type: "text/html; charset=utf-8",
    });
    expect(await res.text()).toContain(`href="${server.baseUrl}/validations"`);
  }
});

test("a check's address as a person guesses it redirects to its standard page; a typo's 404 page offers the nearest", async () => {
  for (const guess of ["page-title", "Page_Title", "page%20title", "PAGE-TITLE"]) {
    const res = await fetch(`${server.baseUrl}/validations/${guess}`, { redirect: "manual" });
    expect({ guess, status: res.status, location: res.headers.get("location") }).toEqual({
      guess,
      status: 308,
      location: `${server.baseUrl}/validations/page-title/standard`,
    });
  }
  // Followed, as a browser does: the standard page.
  const followed = await fetch(`${server.baseUrl}/validations/html-lang`);
  expect([followed.status, followed.url]).toEqual([200, `${server.baseUrl}/validations/html-lang/standard`]);

  for (const [path, nearest] of [
    ["/validations/page-titel", "/validations/page-title/standard"],
    ["/validations/pagetitle/standard", "/validations/page-title/standard"],
    ["/validation-sets/web-essential", "/validation-sets/web-essentials"],
  ] as const) {
    const res = await fetch(`${server.baseUrl}${path}`, { redirect: "manual" });
    expect({ path, status: res.status, type: res.headers.get("content-type") }).toEqual({
      path,
      status: 404,
      type: "text/html; charset=utf-8",
    });
    const html = await res.text();
    expect(html).toContain("<h2>Did you mean</h2>");
    expect(html).toContain(`href="${server.baseUrl}${nearest}"`);
  }
  const nothingNear = await fetch(`${server.baseUrl}/validations/xyz`);
  expect(nothingNear.status).toBe(404);
  expect(await nothingNear.text()).not.toContain("Did you mean");
});
