import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { RunRequest } from "../../src/contracts/run-request";
import { buildRunRequest, type PageSource } from "../../packages/cli/src/run/run-request";
import { jsonPath, loadSiteConfig } from "../../packages/cli/src/run/site-config";
import { configPages, distPages } from "../../packages/cli/src/run/site-sources";
import { normalizePageUrl, pageKeyOf } from "../../src/domain/page-key";
import { pathFilter } from "../../src/domain/url-patterns";
import { parseRunFailOn, rowEffect } from "../../src/domain/run-policy";

/**
 * The client's pages of a run, without a server: the config file (its schema, and every problem named by file and
 * JSON path), a built folder's HTML files, the pageKey rule, path globs, the run's failOn, and buildRunRequest
 * turning every source into the run request of the runs contract.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "assay-run-request-"));
  mkdirSync(join(dir, "dist", "blog", "post one"), { recursive: true });
  mkdirSync(join(dir, "dist", ".cache"), { recursive: true });
  mkdirSync(join(dir, "dist", "node_modules", "x"), { recursive: true });
  for (const [path, html] of <Array<[string, string]>>[
    ["dist/index.html", "<h1>Home</h1>"],
    ["dist/about.html", "<h1>About</h1>"],
    ["dist/blog/index.htm", "<h1>Blog</h1>"],
    ["dist/blog/post one/index.html", "<h1>Post</h1>"],
    ["dist/.cache/index.html", "<h1>cache</h1>"],
    ["dist/node_modules/x/index.html", "<h1>dep</h1>"],
    ["dist/styles.css", "h1{}"],
    ["pages/landing.html", "<h1>Landing</h1>"],
  ]) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), html);
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const problem = (path: string) => {
  try {
    loadSiteConfig(path);
    return "valid";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("assay.config.json", () => {
  test("a complete config is read as written", () => {
    const full = {
      $schema: "https://assay.example/assay.config.schema.json",
      project: "shop",
      branch: "main",
      baseBranch: "main",
      pages: [
        "https://shop.example/",
        { url: "https://shop.example/checkout", name: "checkout", validations: ["page-title"] },
        { html: "pages/landing.html", pageUrl: "https://shop.example/landing", validationSetId: "accessibility" },
      ],
      sitemap: { url: "https://shop.example/sitemap.xml", maxPages: 100, include: ["/blog/**"] },
      crawl: { url: "https://shop.example/", maxDepth: 2 },
      dist: { dir: "dist", pageUrl: "https://shop.example/" },
      defaults: { validationSetId: "web-essentials", captureSizes: ["mobile-sm", "desktop-md"] },
      failOn: "new",
      ignores: [{ check: "color-contrast", page: "https://shop.example/promo*", selector: ".promo", reason: "brand" }],
      visual: { threshold: 0.2, maxChangedRatio: 0.01, masks: [{ selector: ".clock" }] },
    };
    expect(loadSiteConfig(config("full.json", full))).toEqual(full);
  });

  test("every problem names the file and the JSON path (exit 2 in the CLI)", () => {
    expect(problem(join(dir, "missing.json"))).toBe(`${join(dir, "missing.json")}: no such config file`);
    expect(problem(config("syntax.json", '{ "project": "shop", }'))).toMatch(/syntax\.json: not JSON: /);
    expect(problem(config("no-project.json", { pages: [] }))).toMatch(
      /no-project\.json: \$\.project: Expected required property/,
    );
    expect(problem(config("bad-project.json", { project: "My Shop" }))).toMatch(
      /bad-project\.json: \$\.project: Expected string to match/,
    );
    expect(problem(config("url.json", { project: "shop", pages: ["https://a.example/", { url: 42 }] }))).toMatch(
      /url\.json: \$\.pages\[1\]\.url: Expected string/,
    );
    expect(
      problem(
        config("html.json", {
          project: "shop",
          pages: [{ html: "a.html", pageUrl: "https://a.example/", validationSetId: 3 }],
        }),
      ),
    ).toMatch(/html\.json: \$\.pages\[0\]\.validationSetId: Expected string/);
    expect(problem(config("extra.json", { project: "shop", pagez: [] }))).toMatch(
      /extra\.json: \$\.pagez: Unexpected property/,
    );
    expect(problem(config("ignore.json", { project: "shop", ignores: [{ check: "x" }] }))).toMatch(
      /ignore\.json: \$\.ignores\[0\]\.reason: Expected required property/,
    );
    expect(problem(config("visual.json", { project: "shop", visual: { threshold: 2 } }))).toMatch(
      /visual\.json: \$\.visual\.threshold: Expected number to be less or equal to 1/,
    );
    expect(jsonPath("/a~1b/0/c d")).toBe('$["a/b"][0]["c d"]');
  });

  test("its pages: URLs checked as absolute http(s), HTML files read relative to the config and named as reports show them", () => {
    const path = config("pages.json", {
      project: "shop",
      pages: [
        "https://shop.example/a",
        {
          html: "pages/landing.html",
          pageUrl: "https://shop.example/landing",
          name: "landing",
          validations: ["single-h1"],
        },
      ],
    });
    const pages = configPages(loadSiteConfig(path), path);
    expect(pages).toEqual([
      { kind: "url", url: "https://shop.example/a", from: "config" },
      {
        kind: "html",
        // Outside the working directory a file is named by its whole path; inside it, relative to it.
        file: join(dir, "pages", "landing.html"),
        html: "<h1>Landing</h1>",
        pageUrl: "https://shop.example/landing",
        from: "config",
        name: "landing",
        selection: { validations: ["single-h1"] },
      },
    ]);
    const relativeUrl = config("relative.json", { project: "shop", pages: ["/about"] });
    expect(() => configPages(loadSiteConfig(relativeUrl), relativeUrl)).toThrow(
      `${relativeUrl}: $.pages[0]: "/about" is not an absolute URL`,
    );
    const missing = config("missing-html.json", {
      project: "shop",
      pages: [{ html: "nope.html", pageUrl: "https://shop.example/" }],
    });
    expect(() => configPages(loadSiteConfig(missing), missing)).toThrow(
      /\$\.pages\[0\]\.html: cannot read .*nope\.html: ENOENT/,
    );
  });
});

describe("--dist DIR --page-url URL", () => {
  test("every HTML file a static_html page: index.html is its folder's URL; dot folders and node_modules left out", () => {
    const pages = distPages(join(dir, "dist"), "https://shop.example/site");
    expect(
      pages.map(
        (p) =>
          p.kind === "html" && [
            relative(dir, p.file.startsWith("/") ? p.file : join(process.cwd(), p.file)),
            p.pageUrl,
          ],
      ),
    ).toEqual([
      ["dist/about.html", "https://shop.example/site/about.html"],
      ["dist/blog/index.htm", "https://shop.example/site/blog/"],
      ["dist/blog/post one/index.html", "https://shop.example/site/blog/post%20one/"],
      ["dist/index.html", "https://shop.example/site/"],
    ]);
    expect(pages.every((p) => p.from === "dist")).toBe(true);
  });

  test("include and exclude read the page's URL path; a folder without pages, or none left, is bad usage", () => {
    const blog = distPages(join(dir, "dist"), "https://shop.example/", {
      include: ["/blog/**"],
      exclude: ["**/post*/"],
    });
    expect(blog.map((p) => p.kind === "html" && p.pageUrl)).toEqual(["https://shop.example/blog/"]);
    expect(() => distPages(join(dir, "dist"), "https://shop.example/", { include: ["/shop/**"] })).toThrow(
      "no HTML file matches --include/--exclude",
    );
    expect(() => distPages(join(dir, "pages", "landing.html"), "https://shop.example/")).toThrow("not a folder");
    expect(() => distPages(join(dir, "dist"), "shop.example")).toThrow(
      '--page-url: "shop.example" is not an absolute URL',
    );
  });
});

describe("pageKey, path globs and the run's failOn", () => {
  test("a page's key: its name, else its normalized URL (scheme and host lower-cased, default port, fragment, sorted query)", () => {
    expect(normalizePageUrl("HTTPS://Shop.Example:443/A/?b=2&a=1&a=0#top")).toBe("https://shop.example/A/?a=1&a=0&b=2");
    expect(normalizePageUrl("http://shop.example/about")).not.toBe(normalizePageUrl("http://shop.example/about/"));
    expect(pageKeyOf({ type: "url", url: "https://shop.example/x#y" })).toBe("https://shop.example/x");
    expect(pageKeyOf({ type: "static_html", baseUrl: "https://shop.example:443/" })).toBe("https://shop.example/");
    expect(pageKeyOf({ type: "url", url: "https://shop.example/", name: "home" })).toBe("home");
    expect(pageKeyOf({ type: "email", subject: "Spring sale" })).toBe("Spring sale");
  });

  test("globs over the path", () => {
    const keep = pathFilter({ include: ["/blog/**", "/about"], exclude: ["**/*.pdf"] });
    expect(["/blog", "/blog/a/b", "/about", "/about/x", "/blog/a.pdf", "/"].map(keep)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(pathFilter({})("/anything")).toBe(true);
  });

  test("failOn: the job threshold's words plus new and visual", () => {
    expect(parseRunFailOn("new")).toEqual({
      threshold: { minRank: 2, errorsBlock: false },
      newOnly: true,
      visual: false,
    });
    expect(parseRunFailOn("minor,new,visual,error")).toEqual({
      threshold: { minRank: 1, errorsBlock: true },
      newOnly: true,
      visual: true,
    });
    expect(() => parseRunFailOn("new,sometimes")).toThrow(/Unknown threshold word "sometimes"/);
    const row = { validationId: "x", severity: "major" as const, verdict: "fail" as const };
    const newOnly = parseRunFailOn("new");
    expect(rowEffect(row, newOnly, { isNew: true, accepted: false })).toBe("blocks");
    expect(rowEffect(row, newOnly, { isNew: false, accepted: false })).toBe("known");
    expect(rowEffect(row, newOnly, { isNew: true, accepted: true })).toBe("accepted");
    expect(rowEffect({ ...row, severity: "minor" }, newOnly, { isNew: true, accepted: false })).toBe("warns");
    expect(rowEffect({ ...row, verdict: "error" }, newOnly, { isNew: false, accepted: false })).toBe("undecided");
    expect(rowEffect({ ...row, verdict: "error" }, parseRunFailOn("error"), { isNew: false, accepted: false })).toBe(
      "blocks",
    );
  });
});

describe("buildRunRequest", () => {
  const sources: PageSource[] = [
    {
      kind: "url",
      url: "https://shop.example/checkout",
      from: "config",
      name: "checkout",
      selection: { validations: ["page-title"], captureSizes: ["mobile-sm"] },
    },
    { kind: "url", url: "https://shop.example/", from: "config" },
    { kind: "url", url: "https://Shop.example/#top", from: "sitemap" },
    { kind: "url", url: "https://shop.example/checkout", from: "sitemap" },
    {
      kind: "html",
      file: "dist/index.html",
      html: "<h1>x</h1>",
      pageUrl: "https://shop.example/preview/",
      from: "dist",
    },
  ];

  test("every source's pages as the contract's run request: a job request each, its own selection or the defaults", () => {
    const plan = buildRunRequest(sources, {
      project: "shop",
      branch: "feature/x",
      commit: "abc123",
      failOn: "new",
      defaults: { validationSetId: "web-essentials", captureSizes: ["desktop-md"], detail: "verbose" },
      ignores: [{ check: "color-contrast", reason: "brand" }],
      visual: { maxChangedRatio: 0.01 },
      wait: false,
    });
    expect(plan.request).toEqual({
      project: "shop",
      branch: "feature/x",
      commit: "abc123",
      pages: [
        {
          type: "url",
          url: "https://shop.example/checkout",
          validations: ["page-title"],
          captureSizes: ["mobile-sm"],
          detail: "verbose",
          name: "checkout",
        },
        {
          type: "url",
          url: "https://shop.example/",
          validationSetId: "web-essentials",
          captureSizes: ["desktop-md"],
          detail: "verbose",
        },
        // The sitemap's /checkout is another page than the config's, which has a name of its own.
        {
          type: "url",
          url: "https://shop.example/checkout",
          validationSetId: "web-essentials",
          captureSizes: ["desktop-md"],
          detail: "verbose",
        },
        {
          type: "static_html",
          html: "<h1>x</h1>",
          baseUrl: "https://shop.example/preview/",
          validationSetId: "web-essentials",
          captureSizes: ["desktop-md"],
          detail: "verbose",
        },
      ],
      failOn: "new",
      ignores: [{ check: "color-contrast", reason: "brand" }],
      visual: { maxChangedRatio: 0.01 },
      wait: false,
    });
    expect([...Value.Errors(RunRequest, plan.request)]).toEqual([]);
    expect(plan.pages).toEqual([
      { pageKey: "checkout", from: "config", name: "checkout" },
      { pageKey: "https://shop.example/", from: "config" },
      { pageKey: "https://shop.example/checkout", from: "sitemap" },
      { pageKey: "https://shop.example/preview/", from: "dist", file: "dist/index.html" },
    ]);
    expect(plan.duplicates).toEqual([{ pageKey: "https://shop.example/", from: "sitemap" }]);
  });

  test("refusals: a page with nothing to check, no pages, a bad project name (the server refuses too many pages: its limit is its own)", () => {
    expect(() => buildRunRequest(sources, { project: "shop" })).toThrow(
      "https://shop.example/: nothing to check: give the page validations or validationSetId, or defaults (--set, --validation)",
    );
    expect(() => buildRunRequest([], { project: "shop", defaults: { validationSetId: "seo" } })).toThrow(
      "no pages to check",
    );
    expect(() => buildRunRequest(sources, { project: "Shop!", defaults: { validationSetId: "seo" } })).toThrow(
      'project "Shop!"',
    );
  });
});
