import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Value } from "@sinclair/typebox/value";
import Ajv4 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { validateXML } from "xmllint-wasm";
import { RunView, type RunViewBody } from "../../src/contracts/run-view";
import { runGithubOutputs, runGithubSummary } from "../../packages/cli/src/report/github";
import { runJunitReport } from "../../packages/cli/src/report/junit";
import { reportImageUrls, runHtmlReport } from "../../packages/cli/src/report/run-html";
import { runExitOf, runJsonReport, runReport } from "../../packages/cli/src/report/run-rows";
import { runTextReport } from "../../packages/cli/src/report/run-text";
import { runSarifReport } from "../../packages/cli/src/report/sarif";
import type { PlannedPage } from "../../packages/cli/src/run/run-request";
import { findSet } from "../../src/catalog/sets";
import { FIRST_RUN, RUNNING_RUN, SHOP_RUN } from "../fixtures/runs/run-views";
import { ROOT, startServer, type TestServer } from "../support/harness";

/**
 * The merged reports of a run, each writer against run views shaped as the runs contract shows them (several pages,
 * a new failure, a known one, an accepted one, fixed, a visual change, a page from an HTML file, an interrupted page):
 * what blocks and what does not, each format valid against its published schema, and the HTML report passing
 * Assay's own accessibility and web-essentials checks through the real app.
 */
setDefaultTimeout(120_000);

/** The pages as the client planned them: the blog page was read from a built folder's file. */
const PLANNED: PlannedPage[] = [
  { pageKey: "https://shop.example/", from: "config" },
  { pageKey: "https://shop.example/checkout", from: "sitemap" },
  { pageKey: "blog", name: "blog", from: "dist", file: "dist/blog/index.html" },
  { pageKey: "https://shop.example/account", from: "sitemap" },
];

const effects = (run: RunViewBody) =>
  Object.fromEntries(runReport(run).pages.map((p) => [p.label, p.rows.map((r) => `${r.validationId}:${r.effect}`)]));

test("the fixtures are run views as the contract shows them", () => {
  for (const run of [SHOP_RUN, FIRST_RUN, RUNNING_RUN]) expect([...Value.Errors(RunView, run)]).toEqual([]);
});

describe("what each check does to the run", () => {
  test("under `new` with a baseline: only the new failure blocks; known, accepted and minor ones do not", () => {
    expect(effects(SHOP_RUN)).toEqual({
      "https://shop.example/": ["page-title:passes", "single-h1:passes", "image-alt-text:warns"],
      "https://shop.example/checkout": [
        "page-title:blocks",
        "single-h1:known",
        "color-contrast:accepted",
        "html-lang:undecided",
        "meta-description:passes",
      ],
      blog: ["single-h1:passes", "heading-order:warns"],
      "https://shop.example/account": ["page-title:undecided", "single-h1:undecided"],
    });
    const report = runReport(SHOP_RUN);
    expect(report.verdict).toEqual({ outcome: "blocked", why: "blocked by 1 new failure on 1 page" });
    expect(runExitOf(report.verdict)).toBe(1);
    expect(report.pages[1]!.visual).toBe("changed");
  });

  test("`new,visual`: the changed screenshots block too", () => {
    const report = runReport({ ...SHOP_RUN, failOn: "new,visual" });
    expect(report.pages.map((p) => p.visual)).toEqual(["unchanged", "blocks", "none", "none"]);
    expect(report.verdict.why).toBe("blocked by 1 new failure and 1 visual change on 1 page");
  });

  test("a first run (no baseline, `fail`, brief pages): every required failure blocks, read from the failures", () => {
    expect(effects(FIRST_RUN)).toEqual({
      "https://shop.example/": ["image-alt-text:warns"],
      "https://shop.example/checkout": ["page-title:blocks", "single-h1:blocks", "color-contrast:accepted"],
      blog: ["heading-order:warns"],
      "https://shop.example/account": [],
    });
    expect(runReport(FIRST_RUN).verdict.why).toBe("blocked by 2 failures on 1 page");
  });

  test("a run still running when the wait ended is undecided (exit 2)", () => {
    const { verdict } = runReport(RUNNING_RUN);
    expect(verdict).toEqual({
      outcome: "undecided",
      why: "the run is still running (2/4 pages settled): the wait ended first",
    });
    expect(runExitOf(verdict)).toBe(2);
  });

  test("an undecided run says why: the interrupted pages and the checks that could not run", () => {
    const passed = { ...SHOP_RUN, decision: "undecided" as const };
    expect(runReport(passed).verdict).toEqual({
      outcome: "undecided",
      why: "1 page interrupted, 3 checks could not run",
    });
  });
});

describe("text and JSON", () => {
  test("text: the run, what changed against the baseline, each page's checks that did not pass, the decision last", () => {
    const text = runTextReport(runReport(SHOP_RUN, PLANNED), false);
    const order = [
      "run run_shop_42 completed · project shop · branch feature/checkout · 4 pages · fail on new",
      "compared with run_shop_40 (main)",
      "new failures: 1",
      "  https://shop.example/checkout  page-title: The page has no <title>.",
      "fixed: 1",
      "  blog  single-h1",
      "visual changes: 1",
      "  https://shop.example/checkout  desktop-md: 3.4% changed",
      "new pages: https://shop.example/account",
      "pages gone: https://shop.example/old-sale",
      "pages:",
      "  PASS      https://shop.example/  2 pass, 1 fail, 0 error",
      "      FAIL  image-alt-text [minor, warns]: 2 images have no alt text.",
      "  BLOCKED   https://shop.example/checkout  1 pass, 3 fail, 1 error",
      "      FAIL  page-title [major, new, blocks]: The page has no <title>.",
      "      FAIL  single-h1 [major, known]: The page has 2 <h1> elements.",
      "      FAIL  color-contrast [major, accepted]: 1 text has too little contrast. (accepted: Brand colours, agreed with design (SHOP-12).)",
      "      ERROR html-lang [major, could not run]: The page's DOM could not be read.",
      "      VISUAL desktop-md: 3.4% changed",
      "  PASS      blog (dist/blog/index.html)  1 pass, 1 fail, 0 error",
      "  UNDECIDED https://shop.example/account  0 pass, 0 fail, 2 error · interrupted",
      "accepted findings: 1 (ignores in the config)",
      "credits: 12 charged, 3 refunded, 9 net",
      "decision: BLOCKED (blocked by 1 new failure on 1 page)",
    ];
    let at = -1;
    for (const line of order) {
      const next = text.indexOf(line, at + 1);
      expect([line, next > at]).toEqual([line, true]);
      at = next;
    }
    expect(text).not.toContain("\x1b[");
    expect(runTextReport(runReport(SHOP_RUN), true)).toContain("\x1b[31mBLOCKED\x1b[0m");
  });

  test("JSON: the verdict, why, and the run as the server answered it", () => {
    const json = JSON.parse(runJsonReport(runReport(SHOP_RUN)));
    expect(json).toEqual({ verdict: "blocked", why: "blocked by 1 new failure on 1 page", run: SHOP_RUN });
  });
});

async function validJunit(xml: string) {
  const schema = readFileSync(join(ROOT, "test", "fixtures", "schemas", "junit-10.xsd"), "utf8");
  const result = await validateXML({
    xml: [{ fileName: "run.xml", contents: xml }],
    schema: [{ fileName: "junit-10.xsd", contents: schema }],
  });
  expect(result.errors).toEqual([]);
}

/** The testcase element of a suite's check, whole. */
function testcase(xml: string, suite: string, name: string): string | undefined {
  const start = xml.indexOf(`<testsuite name="${suite}"`);
  const body = xml.slice(start, xml.indexOf("</testsuite>", start));
  return body.match(new RegExp(`<testcase classname="[^"]*" name="${name}"[^>]*?(?:/>|>[\\s\\S]*?</testcase>)`))?.[0];
}

describe("JUnit", () => {
  test("a suite per page, a case per check named by its id alone; a <failure> only where it blocks; valid against junit-10.xsd", async () => {
    const xml = runJunitReport(runReport(SHOP_RUN, PLANNED));
    await validJunit(xml);
    expect(xml.match(/<testsuite /g)?.length).toBe(4);
    expect(xml.match(/<failure /g)?.length).toBe(1);
    expect(testcase(xml, "https://shop.example/checkout", "page-title")).toMatch(
      /<failure message="The page has no &lt;title>." type="major"\/>/,
    );
    // Known and accepted failures pass, saying why in system-out.
    expect(testcase(xml, "https://shop.example/checkout", "single-h1")).toMatch(
      /<system-out><!\[CDATA\[fail \(known, not blocking\): The page has 2 <h1> elements.\nfailing in the baseline too/,
    );
    expect(testcase(xml, "https://shop.example/checkout", "color-contrast")).toContain(
      "accepted: Brand colours, agreed with design (SHOP-12).",
    );
    expect(testcase(xml, "https://shop.example/checkout", "html-lang")).toMatch(/<error message="The page's DOM/);
    expect(testcase(xml, "https://shop.example/checkout", "visual")).toContain("desktop-md: 3.40% changed");
    expect(testcase(xml, "https://shop.example/", "image-alt-text")).toContain("fail (warns, not blocking)");
    expect(testcase(xml, "https://shop.example/account", "page-title")).toMatch(/<error /);
    expect(xml).toContain('<property name="file" value="dist/blog/index.html"/>');
    // No test name carries a severity, so a check's history survives a change of its severity.
    expect(xml).not.toMatch(/name="[^"]*\[(critical|major|minor|info)\]"/);
  });

  test("under `new,visual` the visual case fails; a brief first run's failures are cases of their own", async () => {
    const visual = runJunitReport(runReport({ ...SHOP_RUN, failOn: "new,visual" }));
    await validJunit(visual);
    expect(testcase(visual, "https://shop.example/checkout", "visual")).toMatch(
      /<failure message="the page looks different/,
    );
    const first = runJunitReport(runReport(FIRST_RUN));
    await validJunit(first);
    expect(first.match(/<failure /g)?.length).toBe(2);
    expect(testcase(first, "https://shop.example/account", "page")).toMatch(
      /<error message="the page's job is interrupted"/,
    );
  });
});

describe("SARIF", () => {
  const ajv = new Ajv4({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(
    JSON.parse(readFileSync(join(ROOT, "test", "fixtures", "schemas", "sarif-schema-2.1.0.json"), "utf8")),
  );

  test("one run, every page's failures; the HTML page located at its file; baseline state; accepted as suppressed", () => {
    const log = JSON.parse(runSarifReport(runReport(SHOP_RUN, PLANNED)));
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.runs.length).toBe(1);
    const results = log.runs[0].results as any[];
    const at = (ruleId: string, pageKey: string) =>
      results.filter((r) => r.ruleId === ruleId && r.properties.pageKey === pageKey);
    const title = at("page-title", "https://shop.example/checkout")[0];
    expect(title).toMatchObject({ level: "error", baselineState: "new" });
    expect(title.locations[0].physicalLocation.artifactLocation.uri).toBe("https://shop.example/checkout");
    expect(title.locations[0].logicalLocations).toEqual([{ fullyQualifiedName: "head", kind: "element" }]);
    expect(at("single-h1", "https://shop.example/checkout").map((r) => [r.level, r.baselineState])).toEqual([
      ["warning", "unchanged"],
      ["warning", "unchanged"],
    ]);
    expect(at("color-contrast", "https://shop.example/checkout")[0]).toMatchObject({
      level: "note",
      suppressions: [{ kind: "external", justification: "Brand colours, agreed with design (SHOP-12)." }],
    });
    const blog = at("heading-order", "blog")[0];
    expect(blog.locations[0].physicalLocation.artifactLocation.uri).toBe("dist/blog/index.html");
    expect(blog.properties.pageUrl).toBe("https://shop.example/blog/");
    // One rule per check, whatever the number of pages it failed on; errors are no results.
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id).sort()).toEqual(
      ["color-contrast", "heading-order", "image-alt-text", "page-title", "single-h1"].sort(),
    );
    expect(results.some((r) => r.ruleId === "html-lang")).toBe(false);
  });

  test("an HTML page's findings at its element's start tag in the file, when the file is there to read", () => {
    const dir = mkdtempSync(join(tmpdir(), "assay-run-sarif-"));
    try {
      const file = join(dir, "index.html");
      writeFileSync(file, "<h1>Blog</h1>\n<h2>Posts</h2>\n<article>\n    <h4>First</h4>\n</article>\n");
      const planned = PLANNED.map((p) => (p.file ? { ...p, file } : p));
      const log = JSON.parse(runSarifReport(runReport(SHOP_RUN, planned)));
      const blog = log.runs[0].results.find(
        (r: any) => r.ruleId === "heading-order" && r.properties.pageKey === "blog",
      );
      expect(blog.locations[0].physicalLocation).toEqual({
        artifactLocation: { uri: pathToFileURL(file).href, index: expect.any(Number) },
        region: { startLine: 4, startColumn: 5, endLine: 4, endColumn: 9, snippet: { text: "<h4>" } },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("without a baseline no baseline state is claimed", () => {
    const log = JSON.parse(runSarifReport(runReport(FIRST_RUN)));
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    expect(log.runs[0].results.every((r: { baselineState?: string }) => r.baselineState === undefined)).toBe(true);
  });
});

describe("GitHub Actions", () => {
  test("outputs and a step summary: the decision, new failures, fixed, visual changes, then every page", () => {
    const report = runReport(SHOP_RUN);
    expect(runGithubOutputs(report)).toEqual({
      "run-id": "run_shop_42",
      verdict: "blocked",
      pages: "4",
      "new-failures": "1",
      fixed: "1",
      "visual-changes": "1",
      credits: "9",
      "blocking-pages": "https://shop.example/checkout",
    });
    const md = runGithubSummary(report);
    const at = (s: string) => md.indexOf(s);
    expect(at("### Assay: BLOCKED")).toBe(0);
    expect(md).toContain("Compared with `run_shop_40` (main): 1 new failures, 1 fixed, 1 visual changes.");
    expect(md).toContain("| https://shop.example/checkout | `page-title` | yes | The page has no <title>. |");
    expect(md).toContain("| ❌ blocked | https://shop.example/checkout | 1 | 3 | 1 | `page-title` |");
    expect(at("#### New failures")).toBeLessThan(at("#### Fixed"));
    expect(at("#### Fixed")).toBeLessThan(at("#### Visual changes"));
    expect(at("#### Visual changes")).toBeLessThan(at("#### Pages"));
  });
});

describe("the HTML report", () => {
  const html = runHtmlReport(
    runReport(SHOP_RUN, PLANNED),
    new Map([["/api/captures/run_shop_42-1-desktop-md-diff.png", "data:image/png;base64,iVBORw0KGgo="]]),
  );

  test("one file: the decision first, then new failures, fixed, visual changes, accepted findings, every page", () => {
    const at = (s: string) => html.indexOf(s);
    expect(at('<p class="decision blocked">BLOCKED: blocked by 1 new failure on 1 page.</p>')).toBeGreaterThan(0);
    const order = ["decision blocked", 'id="new-failures"', 'id="fixed"', 'id="visual"', 'id="accepted"', 'id="pages"'];
    for (let i = 1; i < order.length; i++) expect(at(order[i - 1]!)).toBeLessThan(at(order[i]!));
    // Text from pages is escaped; the diff is embedded, the pictures not given link to the server.
    expect(html).toContain("The page has no &lt;title&gt;.");
    expect(html).not.toContain("The page has no <title>.");
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="The pixels that changed');
    expect(html).toContain('<a href="/api/captures/job_checkout_base-desktop-md.jpg">');
    expect(html).toContain("file <code>dist/blog/index.html</code>");
    expect(html).not.toMatch(/<script|<link /);
    expect(reportImageUrls(runReport(SHOP_RUN))).toEqual([
      "/api/captures/job_home-desktop-md.jpg",
      "/api/captures/job_checkout_base-desktop-md.jpg",
      "/api/captures/job_checkout-desktop-md.jpg",
      "/api/captures/run_shop_42-1-desktop-md-diff.png",
    ]);
  });

  describe("through the real app", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer();
    });
    afterAll(() => server?.stop());

    test("it passes Assay's own accessibility and web-essentials checks", async () => {
      const { apiKey } = await server.signup();
      const checks = [
        ...new Set([...findSet("accessibility")!.validationIds, ...findSet("web-essentials")!.validationIds]),
      ];
      for (const run of [SHOP_RUN, FIRST_RUN]) {
        const job = await server.api("POST", "/api/jobs", {
          key: apiKey,
          body: {
            type: "static_html",
            html: runHtmlReport(runReport(run, PLANNED)),
            baseUrl: "https://reports.example/assay-report.html",
            validations: checks,
          },
        });
        expect(job.status).toBe(200);
        const failing = job.body.results
          .filter((r: { verdict: string }) => r.verdict !== "pass")
          .map((r: { validationId: string; reason?: string; findings: unknown[] }) => ({
            check: r.validationId,
            reason: r.reason,
            findings: r.findings.slice(0, 3),
          }));
        expect({ run: run.runId, failing }).toEqual({ run: run.runId, failing: [] });
      }
    });
  });
});
