import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import plans from "../../src/catalog/plans.json";
import { eventCount, expectError, startServer, tempDataDir, type TestServer } from "../support/harness";

/**
 * A site run whose pages' checks name engines (`engines: ["chromium", "webkit"]`), through the API: each page judged
 * in both engines and priced as the same job alone would be; a plan without extra-credit renders refuses the run at
 * creation (PLAN_EXCLUDES_REQUESTED_ENGINES), as does a server without WebKit (ENGINE_UNAVAILABLE), nothing charged.
 */
setDefaultTimeout(180_000);

/** Wider than the phone only where the browser is WebKit (Safari's user agent has no "Chrome"). */
const BREAKS_IN_SAFARI = `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Safari only</title></head><body style="margin:0"><h1>Hello</h1>
<script>if (!/Chrome/.test(navigator.userAgent)) document.body.insertAdjacentHTML("beforeend",
  '<div id="safari-banner" style="width:900px;height:40px;background:#c00">wide</div>')</script></body></html>`;
const FITS = `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Fits</title></head><body style="margin:0"><h1>Fits everywhere</h1></body></html>`;
const IN_BOTH = [{ id: "no-horizontal-overflow", engines: ["chromium", "webkit"] }];

const pageOf = (path: string, html: string) => ({
  type: "static_html",
  html,
  baseUrl: `https://shop.example/${path}`,
  validations: IN_BOTH,
});
const runBody = { project: "engines", branch: "main", pages: [pageOf("", FITS), pageOf("promo", BREAKS_IN_SAFARI)] };

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const balance = async (s: TestServer, key: string) => (await s.api("GET", "/api/credits", { key })).body.balance;

describe("a run whose checks name engines", () => {
  test("every page is judged in Chromium and WebKit and charged as its job alone would be", async () => {
    const { apiKey } = await server.signup();
    // The price of one such page as a job on its own: the check (2) and a WebKit render at mobile-sm (2).
    const alone = await server.api("POST", "/api/jobs/estimate", { key: apiKey, body: pageOf("", FITS) });
    expect(alone.body.totalCredits).toBe(4);
    const before = await balance(server, apiKey);
    const res = await server.api("POST", "/api/runs", { key: apiKey, body: { ...runBody, wait: true } });
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r.status).toBe("completed");
    expect(r.totals.credits).toEqual({ charged: 8, refunded: 0, net: 8 });
    expect(await balance(server, apiKey)).toBe(before - 8);
    expect(r.pages.map((p: any) => [p.pageKey, p.status, p.decision])).toEqual([
      ["https://shop.example/", "completed", "pass"],
      ["https://shop.example/promo", "completed", "blocked"],
    ]);

    const jobOf = async (i: number) =>
      (await server.api("GET", `/api/jobs/${r.pages[i].jobId}`, { key: apiKey })).body.results[0];
    const fits = await jobOf(0);
    expect(fits.verdict).toBe("pass");
    expect(fits.captures.map((c: any) => [c.viewport, c.engine])).toEqual([
      ["mobile-sm", "chromium"],
      ["mobile-sm", "webkit"],
    ]);
    const breaks = await jobOf(1);
    expect(breaks.verdict).toBe("fail");
    expect(breaks.reason).toStartWith("In WebKit: At 375px the page is 900px wide");
    expect(breaks.reasoning).toContain("In Chromium:");
    expect(breaks.findings).toContainEqual(
      expect.objectContaining({ engine: "webkit", viewport: "mobile-sm", selector: "#safari-banner" }),
    );
    expect(r.pages[1].failures).toEqual([
      { validationId: "no-horizontal-overflow", severity: expect.any(String), reason: breaks.reason },
    ]);
  });

  test("a plan without extra-credit renders refuses the run at creation: PLAN_EXCLUDES_REQUESTED_ENGINES, naming the page, nothing charged or created", async () => {
    const dir = tempDataDir();
    const file = join(dir, "plans.json");
    const catalog = structuredClone(plans);
    catalog.plans[0]!.features.extra_credit_clients = false;
    writeFileSync(file, JSON.stringify(catalog));
    const gated = await startServer({ ASSAY_PLANS_FILE: file });
    try {
      const { apiKey } = await gated.signup();
      const events = eventCount(gated);
      const res = await gated.api("POST", "/api/runs", { key: apiKey, body: runBody });
      expectError(res, 403, "PLAN_EXCLUDES_REQUESTED_ENGINES");
      expect(res.body.details).toMatchObject({
        pageIndex: 0,
        validationId: "no-horizontal-overflow",
        refusedEngines: ["webkit"],
        missingFeatures: ["extra_credit_clients"],
      });
      expect(eventCount(gated)).toBe(events);
      expect(await balance(gated, apiKey)).toBe(1000);
      expect((await gated.api("GET", "/api/runs", { key: apiKey })).body.runs).toEqual([]);
      expect((await gated.api("GET", "/api/jobs", { key: apiKey })).body.jobs).toEqual([]);
    } finally {
      await gated.stop();
    }
  });

  test("a server without WebKit refuses the run: ENGINE_UNAVAILABLE, nothing charged or created", async () => {
    const off = await startServer({ ASSAY_WEBKIT_OFF: "1" });
    try {
      const { apiKey } = await off.signup();
      const events = eventCount(off);
      const res = await off.api("POST", "/api/runs", { key: apiKey, body: runBody });
      expectError(res, 503, "ENGINE_UNAVAILABLE");
      expect(res.body.details).toEqual({ engine: "webkit", missing: ["ASSAY_WEBKIT_OFF is set"] });
      expect(eventCount(off)).toBe(events);
      expect(await balance(off, apiKey)).toBe(1000);
      expect((await off.api("GET", "/api/runs", { key: apiKey })).body.runs).toEqual([]);
    } finally {
      await off.stop();
    }
  });
});
