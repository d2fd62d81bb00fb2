import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, normalize } from "node:path";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * Regression pages for wrong verdicts found on real public pages (issue 14): each case is a page that a check
 * once judged wrongly, run as a real static_html job through the API. The pages live beside each check's
 * pass and fail fixtures, in test/fixtures/web/<check id>/regressions/. As in test/checks/web-checks.test.ts, a
 * local server on 127.0.0.1 serves each check's server/ folder under /<check id>/, `{{BASE}}` in a page is that
 * URL, and `?delay=<ms>` answers late.
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "web");

let server: TestServer;
let apiKey: string;
let assets: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  assets = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const delay = Number(url.searchParams.get("delay") ?? 0);
      if (delay > 0) await Bun.sleep(delay);
      const [, id, ...rest] = decodeURIComponent(url.pathname).split("/");
      const root = join(FIXTURES, id ?? "", "server");
      const file = normalize(join(root, ...rest));
      if (!id || !file.startsWith(`${root}/`) || !existsSync(file) || !statSync(file).isFile())
        return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server.stop();
  assets.stop(true);
});

const PHONE_AND_DESKTOP = { captureSizes: ["mobile-sm", "desktop-md"] };
const assetBase = (check: string) => `http://127.0.0.1:${assets.port}/${check}`;

/** Runs one regression page as a static_html job rendered at `<asset base>/page.html`. */
async function run(
  check: string,
  page: string,
  parameters?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const html = readFileSync(join(FIXTURES, check, "regressions", page), "utf8").replaceAll(
    "{{BASE}}",
    assetBase(check),
  );
  const entry = parameters ? { id: check, parameters } : check;
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, [entry], { baseUrl: `${assetBase(check)}/page.html`, ...extra }),
  });
  expect(res.status).toBe(200);
  const [result] = res.body.results;
  expect(result.validationId).toBe(check);
  return result as {
    verdict: string;
    reason?: string;
    reasoning: string;
    findings: Array<{
      selector?: string;
      url?: string;
      message: string;
      method?: string;
      measured?: Record<string, unknown>;
    }>;
  };
}

test("color-contrast: white text over a dark background image or a gradient is not failed; what axe left undecided passes by pixels", async () => {
  const result = await run("color-contrast", "text-over-image-and-gradient.html");
  expect({ verdict: result.verdict, reasoning: result.reasoning, reason: result.reason }).toMatchObject({
    verdict: "pass",
  });
  const byPixels = result.findings.filter((f) => f.measured?.outcome === "pass");
  expect(byPixels.map((f) => f.measured?.why)).toEqual(expect.arrayContaining(["bgImage", "bgGradient"]));
  expect(result.findings.filter((f) => f.measured?.outcome === "needs review")).toEqual([]);
});

test("accessibility-wcag: WCAG 2.2's target-size does not fail a page held to the default WCAG 2.1 AA, and does under wcag22aa", async () => {
  const byDefault = await run("accessibility-wcag", "small-targets-wcag21-conformant.html");
  expect({ verdict: byDefault.verdict, reason: byDefault.reason }).toMatchObject({ verdict: "pass" });
  expect(byDefault.reasoning).toContain("WCAG 2.1 AA");
  expect(byDefault.reasoning).not.toMatch(/\btarget-size\b/);
  // The contrast axe could not decide there is decided from pixels (the color-contrast check's measurement).
  expect(byDefault.reasoning).toContain("rendered pixels failed 0 and passed 1");
  expect(
    byDefault.findings.some(
      (f) => f.measured?.rule === "color-contrast" && f.method === "pixels" && f.measured?.outcome === "pass",
    ),
  ).toBe(true);
  const wcag22 = await run("accessibility-wcag", "small-targets-wcag21-conformant.html", { standard: "wcag22aa" });
  expect(wcag22.verdict).toBe("fail");
  expect(wcag22.findings.some((f) => f.measured?.rule === "target-size")).toBe(true);
});

test("canonical-url: a canonical link in <body> is ignored beside the one in <head>", async () => {
  const result = await run("canonical-url", "canonical-in-body.html");
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
  expect(result.reasoning).toBe(
    "One canonical link: https://example.com/articles/spring-sale. 1 canonical link(s) in <body> ignored, as search engines ignore them.",
  );
});

test('broken-images: <img src=""> and an <img> without a source are not requested as the page itself, nor broken', async () => {
  const result = await run("broken-images", "empty-sources.html");
  expect({ verdict: result.verdict, reasoning: result.reasoning, findings: result.findings }).toMatchObject({
    verdict: "pass",
  });
  expect(result.reasoning).toBe("All 1 image(s) with a source loaded and decoded at desktop-md.");
});

test("broken-links: same-site links to missing paths are requested and fail; only the page's own URL (fragment aside) is skipped", async () => {
  const result = await run("broken-links", "same-site-missing-path.html");
  expect(result.verdict).toBe("fail");
  expect(result.findings.map((f) => [f.selector, f.url])).toEqual([
    ["#missing-sibling", `${assetBase("broken-links")}/missing-guide.html`],
    ["#missing-root", `${assetBase("broken-links")}/gone/`],
    ["#missing-query", `${assetBase("broken-links")}/page.html?lang=fr`],
  ]);
  expect(result.reasoning).toContain("6 link(s): 4 distinct http(s) target(s), 2 skipped");
});

test("core-web-vitals-lab: a hero that paints after a 4 s request (after load) is measured when it paints, and fails", async () => {
  const result = await run("core-web-vitals-lab", "hero-after-slow-fetch.html");
  expect({ verdict: result.verdict, reasoning: result.reasoning }).toMatchObject({ verdict: "fail" });
  expect(result.reasoning).toContain("final");
  const lcp = result.findings.find((f) => f.measured?.lcpMs !== undefined);
  expect(lcp?.measured?.lcpMs as number).toBeGreaterThan(4000);
});

test('cta-visible: a button coloured on its table with href="#" is the call to action, ranked above larger social icons', async () => {
  const result = await run("cta-visible", "table-button-and-social-icons.html");
  expect({ verdict: result.verdict, reasoning: result.reasoning }).toMatchObject({ verdict: "fail" });
  expect(result.findings.map((f) => [f.selector, (f as { viewport?: string }).viewport])).toEqual([
    ["#trial", "mobile-sm"],
  ]);
});

test("cta-visible: a navigation's current item is no call to action: a sidebar's highlighted link to the page itself, off-canvas on phones (AdminLTE's docs), a navbar's active section, a breadcrumb's aria-current", async () => {
  const result = await run("cta-visible", "sidebar-current-link-off-canvas.html");
  expect({ verdict: result.verdict, reason: result.reason }).toEqual({ verdict: "pass", reason: undefined });
  expect(result.reasoning).toContain("No button-styled call to action above the fold");
});

test("cta-visible: a button in a navbar is still a call to action, followed into the collapsed menu (Start Bootstrap New Age)", async () => {
  const result = await run("cta-visible", "navbar-button-in-collapsed-menu.html");
  expect(result.verdict).toBe("fail");
  expect(result.findings.map((f) => [f.selector, (f as { viewport?: string }).viewport])).toEqual([
    ["#feedback", "tablet-portrait"],
    ["#feedback", "mobile-sm"],
  ]);
});

test("tap-targets: a row of one-letter links a space apart is judged (not a sentence); a link inside a sentence stays exempt", async () => {
  const result = await run("tap-targets", "row-of-letter-links.html");
  expect(result.verdict).toBe("fail");
  const crowded = result.findings.map((f) => f.selector);
  expect(crowded).toHaveLength(26);
  expect(crowded.every((s) => s?.startsWith("html > body > main > a"))).toBe(true);
  expect(result.reasoning).toContain("26 of 26 tap target(s)");
});

test("layout-not-broken: a big number at line-height 1 stacked on its label is not overlapping text", async () => {
  const result = await run("layout-not-broken", "big-number-tight-line-height.html");
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
});

test("layout-not-broken: a long token broken in two, hyphenated, visually hidden, vertical, CJK and per-letter text is no word broken letter by letter", async () => {
  const result = await run("layout-not-broken", "words-in-narrow-columns.html", undefined, PHONE_AND_DESKTOP);
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
});

test("layout-not-broken: a table column squeezed to a letter by overflow-wrap: anywhere fails at 375 px", async () => {
  const result = await run("layout-not-broken", "letters-in-a-squeezed-column.html", undefined, PHONE_AND_DESKTOP);
  expect(result.verdict).toBe("fail");
  const broken = result.findings.filter((f) => f.message.includes("broken letter by letter"));
  expect(broken.length).toBeGreaterThan(0);
  expect(broken.every((f) => (f as { viewport?: string }).viewport === "mobile-sm")).toBe(true);
});

test("layout-not-broken: an off-canvas sidebar that slides away when the page narrows is read once it has gone, not mid-slide", async () => {
  const html = readFileSync(
    join(FIXTURES, "layout-not-broken", "regressions", "off-canvas-sidebar-slides-away.html"),
    "utf8",
  );
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob(html, ["layout-not-broken"], { captureSizes: ["desktop-md", "mobile-sm"] }),
  });
  expect(res.status).toBe(200);
  const [result] = res.body.results;
  expect({ verdict: result.verdict, reason: result.reason }).toMatchObject({ verdict: "pass" });
  expect(result.reasoning).toContain("desktop-md, mobile-sm");
  expect(result.reasoning).not.toContain("Still moving");
});
