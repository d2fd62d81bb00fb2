import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "@sinclair/typebox/value";
import { RunRequest } from "../../src/contracts/run-request";
import { clientEnv, runClient, startServer, type TestServer } from "../support/harness";

/**
 * `assay site` as a subprocess against a real server: a config's pages, a sitemap found by the server's discovery
 * (a site served on loopback), and a built folder become one run request (shown by --dry-run, valid against the
 * runs contract); a bad config, project or threshold is bad usage naming what is wrong (exit 2). A server without
 * runs: cli-site-older-server.test.ts.
 */
setDefaultTimeout(60_000);

let server: TestServer;
let site: ReturnType<typeof Bun.serve>;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const o = `http://127.0.0.1:${site.port}`;
      if (new URL(req.url).pathname !== "/sitemap.xml") return new Response("not found", { status: 404 });
      return new Response(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/", "/about", "/blog/one", "/blog/two"].map((p) => `<url><loc>${o}${p}</loc></url>`).join("")}<url><loc>https://elsewhere.example/</loc></url></urlset>`,
        { headers: { "content-type": "application/xml" } },
      );
    },
  });
  work = mkdtempSync(join(tmpdir(), "assay-cli-site-"));
  mkdirSync(join(work, "dist", "blog"), { recursive: true });
  writeFileSync(join(work, "dist", "index.html"), "<!doctype html><title>Home</title><h1>Home</h1>");
  writeFileSync(join(work, "dist", "blog", "index.html"), "<!doctype html><title>Blog</title><h1>Blog</h1>");
  writeFileSync(join(work, "landing.html"), "<!doctype html><title>Landing</title><h1>Landing</h1>");
  env = clientEnv(server.baseUrl, (await server.signup()).apiKey, work);
});
afterAll(async () => {
  site?.stop(true);
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const origin = () => `http://127.0.0.1:${site.port}`;

function writeConfig(name: string, value: unknown): string {
  writeFileSync(join(work, name), JSON.stringify(value, null, 2));
  return name;
}

describe("assay site: the run request", () => {
  test("--dry-run: the config's pages, then the sitemap's (discovered by the server), then the built folder's", async () => {
    writeConfig("assay.config.json", {
      project: "shop",
      branch: "feature/checkout",
      pages: [
        `${origin()}/about`,
        { html: "landing.html", pageUrl: "https://shop.example/landing", name: "landing", validations: ["single-h1"] },
      ],
      defaults: { validationSetId: "web-essentials" },
      failOn: "new",
      ignores: [{ check: "color-contrast", selector: ".promo", reason: "brand colours" }],
    });
    const r = await runClient(
      [
        "site",
        "--dry-run",
        "--sitemap",
        `${origin()}/sitemap.xml`,
        "--exclude",
        "/blog/two",
        "--dist",
        "dist",
        "--page-url",
        "https://shop.example/",
      ],
      { ...env, GITHUB_SHA: "4f2c9e1" },
      work,
    );
    expect([r.code, r.stderr]).toEqual([
      0,
      [
        `sitemap ${origin()}/sitemap.xml: 3 page(s), 1 passed over`,
        "  skipped https://elsewhere.example/: off-origin",
        `${origin()}/about: given twice (again by sitemap); checked once`,
        "",
      ].join("\n"),
    ]);
    const body = JSON.parse(r.stdout);
    expect([...Value.Errors(RunRequest, body)]).toEqual([]);
    expect(body).toMatchObject({
      project: "shop",
      branch: "feature/checkout",
      commit: "4f2c9e1",
      failOn: "new",
      wait: false,
    });
    expect(body.ignores).toEqual([{ check: "color-contrast", selector: ".promo", reason: "brand colours" }]);
    expect(
      body.pages.map((p: any) => [p.type, p.url ?? p.baseUrl, p.name, p.validationSetId ?? p.validations]),
    ).toEqual([
      ["url", `${origin()}/about`, undefined, "web-essentials"],
      ["static_html", "https://shop.example/landing", "landing", ["single-h1"]],
      ["url", `${origin()}/`, undefined, "web-essentials"],
      ["url", `${origin()}/blog/one`, undefined, "web-essentials"],
      ["static_html", "https://shop.example/blog/", undefined, "web-essentials"],
      ["static_html", "https://shop.example/", undefined, "web-essentials"],
    ]);
    expect(body.pages[1].html).toContain("<h1>Landing</h1>");
  });

  test("flags alone, without a config: --project, --set, --fail-on, the branch and commit from GitHub Actions", async () => {
    const r = await runClient(
      [
        "site",
        "--dry-run",
        "--project",
        "docs",
        "--dist",
        ".",
        "--page-url",
        "https://docs.example/v2",
        "--set",
        "seo",
        "--fail-on",
        "new,visual",
      ],
      { ...env, GITHUB_HEAD_REF: "fix/typos", GITHUB_REF_NAME: "12/merge", GITHUB_SHA: "abc" },
      join(work, "dist"),
    );
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ project: "docs", branch: "fix/typos", commit: "abc", failOn: "new,visual" });
    expect(body.pages.map((p: any) => p.baseUrl)).toEqual([
      "https://docs.example/v2/blog/",
      "https://docs.example/v2/",
    ]);
  });
});

describe("assay site: bad usage is undecided (exit 2), saying what is wrong", () => {
  test("a config that is not valid names the file and the JSON path", async () => {
    writeConfig("broken.json", {
      project: "shop",
      pages: ["https://shop.example/", { url: "https://shop.example/a", validationSetId: 7 }],
    });
    const r = await runClient(["site", "--config", "broken.json", "--dry-run"], env, work);
    expect([r.code, r.stdout, r.stderr.trim()]).toEqual([
      2,
      "",
      "broken.json: $.pages[1].validationSetId: Expected string",
    ]);
    writeFileSync(join(work, "syntax.json"), "{ project: shop }");
    const syntax = await runClient(["site", "--config", "syntax.json", "--dry-run"], env, work);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toStartWith("syntax.json: not JSON: ");
    const missing = await runClient(["site", "--config", "nope.json"], env, work);
    expect([missing.code, missing.stderr.trim()]).toEqual([2, "nope.json: no such config file"]);
  });

  test("no project, a threshold with an unknown word, a page with nothing to check", async () => {
    const dist = join(work, "dist");
    const noProject = await runClient(
      ["site", "--dist", ".", "--page-url", "https://a.example/", "--set", "seo"],
      env,
      dist,
    );
    expect([noProject.code, noProject.stderr.trim()]).toEqual([
      2,
      "name the project: --project NAME, or a config (assay.config.json)",
    ]);
    const threshold = await runClient(["site", "--project", "x", "--fail-on", "new,often", "--dry-run"], env, dist);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain('--fail-on: Unknown threshold word "often"');
    const nothing = await runClient(
      ["site", "--project", "x", "--dist", ".", "--page-url", "https://a.example/", "--dry-run"],
      env,
      dist,
    );
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain("nothing to check");
  });

  test("a sitemap the server refuses: its catalogued code", async () => {
    const r = await runClient(
      ["site", "--project", "x", "--set", "seo", "--sitemap", "http://10.0.0.1/sitemap.xml", "--dry-run"],
      env,
      join(work, "dist"),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^assay: DISCOVERY_URL_REFUSED: The sitemap URL is not a public http\(s\) URL: .+ \(request [^)]+\)\n$/,
    );
  });
});

describe("assay site against the server's runs", () => {
  test("a built folder checked as one run: the first on main is the baseline; a branch that adds a failure is blocked on it alone under --fail-on new, in every report", async () => {
    const site = join(work, "site");
    mkdirSync(join(site, "docs"), { recursive: true });
    const page = (title: string, h1s: number) =>
      `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${"<h1>Docs</h1>".repeat(h1s)}<p>Text.</p></body></html>`;
    writeFileSync(join(site, "index.html"), page("Home", 2));
    writeFileSync(join(site, "docs", "index.html"), page("Docs", 1));
    writeConfig("site.config.json", {
      project: "docs-site",
      dist: { dir: "site", pageUrl: "https://docs.example/" },
      defaults: { validations: ["page-title", "single-h1"] },
    });
    const site_ = (args: string[], extra: Record<string, string> = {}) =>
      runClient(["site", "--config", "site.config.json", ...args], { ...env, ...extra }, work);

    const first = await site_(["--branch", "main", "--format", "json"]);
    expect(first.code).toBe(0);
    const baseline = JSON.parse(first.stdout);
    // Two h1 on the home page: a recommended check's failure, a warning that does not block.
    expect(baseline).toMatchObject({ verdict: "pass", why: "passed, with 1 warning" });
    expect(baseline.run).toMatchObject({ project: "docs-site", branch: "main", status: "completed", decision: "pass" });

    // The branch keeps the known failure (two h1 on the home page) and adds one (the docs page's title goes).
    writeFileSync(join(site, "docs", "index.html"), page("", 1));
    const output = join(work, "site-output");
    writeFileSync(output, "");
    const second = await site_(
      [
        "--branch",
        "feature/titles",
        "--fail-on",
        "new",
        "--report",
        "junit=site.junit.xml",
        "--report",
        "sarif=site.sarif",
        "--report",
        "json=site.json",
        "--report",
        "html=site.html",
      ],
      { GITHUB_OUTPUT: output },
    );
    expect(second.code).toBe(1);
    const report = JSON.parse(readFileSync(join(work, "site.json"), "utf8"));
    expect(report.run).toMatchObject({ branch: "feature/titles", failOn: "new", decision: "blocked" });
    expect(report.run.comparison).toMatchObject({
      baselineRunId: baseline.run.runId,
      newFailures: [{ pageKey: "https://docs.example/docs/", validationId: "page-title" }],
      stillFailing: [{ pageKey: "https://docs.example/", validationId: "single-h1" }],
    });
    expect(readFileSync(output, "utf8")).toContain("verdict=blocked\n");
    // JUnit: a failure only where it blocks (the new one); the known one is not red.
    const junit = readFileSync(join(work, "site.junit.xml"), "utf8");
    expect(junit.match(/<failure /g)).toHaveLength(1);
    expect(junit).toContain("page-title");
    const sarif = JSON.parse(readFileSync(join(work, "site.sarif"), "utf8"));
    const located = sarif.runs[0].results.map((r: any) => r.locations?.[0]?.physicalLocation?.artifactLocation?.uri);
    expect(located).toContain("site/docs/index.html");
    expect(readFileSync(join(work, "site.html"), "utf8")).toContain(baseline.run.runId);

    // The same branch with the title back: nothing new, so it passes under --fail-on new though a failure stays.
    writeFileSync(join(site, "docs", "index.html"), page("Docs", 1));
    const fixed = await site_(["--branch", "feature/titles", "--fail-on", "new"]);
    expect([fixed.code, fixed.stderr]).toEqual([0, ""]);

    // The branch's run promoted by its id alone: the project is read from the run.
    const promoted = await runClient(["baseline", "set", report.run.runId], env, work);
    expect([promoted.code, promoted.stdout]).toEqual([0, `${report.run.runId} is the baseline of project docs-site\n`]);
    const projects = (await server.api("GET", "/api/projects", { key: env.ASSAY_API_KEY })).body.projects;
    expect(projects).toMatchObject([{ project: "docs-site", baselineRunId: report.run.runId }]);
    const missing = await runClient(["baseline", "set", "run_missing"], env, work);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("RUN_NOT_FOUND");
  });
});
