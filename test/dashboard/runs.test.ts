import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventCount, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, type MailRelay, type SignedIn, startServerWithRelay } from "../support/mail-relay";
import { page, postForm } from "../support/pages";

/**
 * The runs pages as a signed-in person reads them: the projects, a project's runs with its failures per check over
 * the last runs, a run (its decision first, then new failures, fixed, still failing, its pages each linking to its
 * job, what its ignores accepted) and the form that makes it the project's baseline (refused without the CSRF token,
 * another organization's run read as a missing one). Runs are made through POST /api/runs on the real app, then
 * browsed: without JavaScript by fetch, and in Chromium at 375 and 1280 px.
 */

setDefaultTimeout(180_000);
const CHECKS = ["page-title", "html-lang", "single-h1"];
const GOOD = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Shop</title></head><body><h1>${title}</h1></body></html>`;
/** page-title fails. */
const NO_TITLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><h1>Untitled</h1></body></html>`;
/** html-lang fails. */
const NO_LANG = `<!doctype html><html><head><meta charset="utf-8"><title>No lang | Shop</title></head><body><h1>No lang</h1></body></html>`;
/** single-h1 fails (minor), accepted by the runs' ignore. */
const TWO_H1 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two | Shop</title></head><body><h1>A</h1><h1>B</h1></body></html>`;
const shopPage = (path: string, html: string) => ({
  type: "static_html",
  html,
  baseUrl: `https://shop.example/${path}`,
  validations: CHECKS,
});
const IGNORES = [{ check: "single-h1", page: "https://shop.example/legacy", reason: "Retired in May" }];

let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let owner: { apiKey: string; who: SignedIn };
let stranger: { apiKey: string; who: SignedIn };
let first: any;
let second: any;

async function organization(tag: string) {
  const email = uniqueEmail(tag);
  const { apiKey } = await server.signup(email);
  return { apiKey, who: await signIn(server, relay, email) };
}

async function run(body: Record<string, unknown>) {
  const res = await server.api("POST", "/api/runs", { key: owner.apiKey, body: { ...body, wait: true } });
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
  owner = await organization("runs-owner");
  stranger = await organization("runs-stranger");
  first = await run({
    project: "shop",
    branch: "main",
    commit: "a1b2c3d",
    ignores: IGNORES,
    pages: [shopPage("", GOOD("Home")), shopPage("about", NO_TITLE), shopPage("legacy", TWO_H1)],
  });
  second = await run({
    project: "shop",
    branch: "feature/checkout",
    commit: "e4f5a6b",
    ignores: IGNORES,
    pages: [shopPage("", NO_LANG), shopPage("about", GOOD("About")), shopPage("legacy", TWO_H1)],
  });
}, 180_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

const sectionOf = (html: string, id: string) => {
  const start = html.indexOf(`id="${id}-heading"`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf("</section>", start));
};

describe("without JavaScript", () => {
  test("the projects list shows the project, its baseline and its latest run", async () => {
    expect(second.comparison.baselineRunId).toBe(first.runId);
    const shown = await page(server, "/dashboard/projects", owner.who.cookie);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<a href="/dashboard/projects/shop">shop</a>');
    expect(shown.text).toContain(`Baseline: <a href="/dashboard/runs/${first.runId}">${first.runId}</a>`);
    expect(shown.text).toContain(`<a href="/dashboard/runs/${second.runId}">${second.runId}</a>`);
    expect(shown.text).toContain('<span class="badge badge-blocked">Blocked</span>');
  });

  test("a project's page lists its runs newest first, with each check's failures per run", async () => {
    const shown = await page(server, "/dashboard/projects/shop", owner.who.cookie);
    expect(shown.status).toBe(200);
    expect(shown.text.indexOf(`id="${second.runId}"`)).toBeLessThan(shown.text.indexOf(`id="${first.runId}"`));
    const row = (check: string) =>
      new RegExp(`<code>${check}</code></th>.*?<td data-label="Fails per run">([^<]*)</td>`, "s").exec(shown.text)?.[1];
    expect(row("page-title")).toBe("1 → 0");
    expect(row("html-lang")).toBe("0 → 1");
    // Accepted failures do not count, so single-h1 has no trend.
    expect(row("single-h1")).toBeUndefined();
    expect(shown.text).toContain('<svg class="sparkline"');
    expect((await page(server, "/dashboard/projects/nope", owner.who.cookie)).status).toBe(404);
  });

  test("a run leads with its decision, then new failures, fixed and still failing; each page links to its job", async () => {
    const shown = await page(server, `/dashboard/runs/${second.runId}`, owner.who.cookie);
    expect(shown.status).toBe(200);
    const html = shown.text;
    const order = ['aria-label="Decision"', 'id="new-failures-heading"', 'id="fixed-heading"', 'id="pages"'];
    const at = order.map((s) => html.indexOf(s));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).toContain('<span class="badge badge-blocked">Blocked</span> 1 of 3 pages blocked, 2 passed.');
    const home = second.pages.find((p: any) => p.pageKey === "https://shop.example/");
    const about = second.pages.find((p: any) => p.pageKey === "https://shop.example/about");
    expect(sectionOf(html, "new-failures")).toContain(
      `<code>html-lang</code> on <a href="/dashboard/jobs/${home.jobId}">https://shop.example/</a>`,
    );
    expect(sectionOf(html, "fixed")).toContain(
      `<code>page-title</code> on <a href="/dashboard/jobs/${about.jobId}">https://shop.example/about</a>`,
    );
    expect(sectionOf(html, "ignored")).toContain("Accepted: <span>Retired in May</span>");
    for (const p of second.pages) expect(html).toContain(`<a href="/dashboard/jobs/${p.jobId}">`);
    // No visual comparison in the run view: no viewer.
    expect(second.pages.some((p: any) => p.visual)).toBe(false);
    expect(html).not.toContain('id="visual-heading"');
    expect((await page(server, `/dashboard/jobs/${home.jobId}`, owner.who.cookie)).status).toBe(200);
  });

  test("set as baseline: refused without the CSRF token (nothing changed), then done by the form", async () => {
    const path = "/dashboard/projects/shop/baseline";
    const before = eventCount(server);
    const forged = await postForm(server, path, { runId: second.runId }, { cookie: owner.who.cookie });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain("CSRF_TOKEN_INVALID");
    expect(eventCount(server)).toBe(before);
    const form = await page(server, `/dashboard/runs/${second.runId}`, owner.who.cookie);
    expect(form.text).toContain(`<form method="post" action="${path}">`);
    const set = await postForm(
      server,
      path,
      { _csrf: owner.who.csrfToken, runId: second.runId },
      { cookie: owner.who.cookie },
    );
    expect(set.status).toBe(303);
    expect(set.headers.get("location")).toBe(`/dashboard/runs/${second.runId}?done=baseline`);
    const after = await page(server, `/dashboard/runs/${second.runId}?done=baseline`, owner.who.cookie);
    expect(after.text).toContain("This run is now the project&#x27;s baseline");
    expect(after.text).toContain("This run is the project's baseline");
    const projects = await server.api("GET", "/api/projects", { key: owner.apiKey });
    expect(projects.body.projects[0]).toMatchObject({ baselineRunId: second.runId, baselineBy: "explicit" });
  });

  test("another organization's run reads as a missing one, and its baseline form changes nothing", async () => {
    const missing = await page(server, "/dashboard/runs/run_doesnotexist", stranger.who.cookie);
    const foreign = await page(server, `/dashboard/runs/${first.runId}`, stranger.who.cookie);
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.text).toContain("RUN_NOT_FOUND");
    expect(foreign.text).not.toContain("shop.example");
    const before = eventCount(server);
    const refused = await postForm(
      server,
      "/dashboard/projects/shop/baseline",
      { _csrf: stranger.who.csrfToken, runId: first.runId },
      { cookie: stranger.who.cookie },
    );
    expect(refused.status).toBe(404);
    expect(refused.text).toContain("RUN_NOT_FOUND");
    expect(eventCount(server)).toBe(before);
    expect((await page(server, "/dashboard/projects", stranger.who.cookie)).text).toContain("No projects yet");
  });
});

describe("in real Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
    browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
  });
  afterAll(() => browser?.close());

  for (const width of [375, 1280]) {
    test(`at ${width} px: the pages fit the width, the run's decision comes first, a page opens its job`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 }, javaScriptEnabled: false });
      const [name, value] = owner.who.cookie.split("=") as [string, string];
      await context.addCookies([{ name, value, url: server.baseUrl }]);
      const tab = await context.newPage();
      for (const path of ["/dashboard/projects", "/dashboard/projects/shop", `/dashboard/runs/${second.runId}`]) {
        await tab.goto(`${server.baseUrl}${path}`);
        const widths = await tab.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          view: window.innerWidth,
        }));
        expect({ path, fits: widths.page <= widths.view }).toEqual({ path, fits: true });
        // No column header wraps: each is one line high.
        const wrapped = await tab.$$eval("thead th", (ths) =>
          ths
            .filter((th) => getComputedStyle(th).display !== "block")
            .filter((th) => {
              const range = document.createRange();
              range.selectNodeContents(th);
              return range.getClientRects().length > 1;
            })
            .map((th) => th.textContent),
        );
        expect({ path, wrapped }).toEqual({ path, wrapped: [] });
      }
      const decision = tab.getByRole("region", { name: "Decision" });
      const newFailures = tab.getByRole("heading", { name: "New failures (1)" });
      expect((await decision.boundingBox())!.y).toBeLessThan((await newFailures.boundingBox())!.y);
      expect(await decision.textContent()).toContain("Blocked");
      await tab.getByRole("link", { name: "https://shop.example/about" }).last().click();
      const about = second.pages.find((p: any) => p.pageKey === "https://shop.example/about");
      expect(tab.url()).toBe(`${server.baseUrl}/dashboard/jobs/${about.jobId}`);
      await context.close();
    });
  }
});
