import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { examplesOf } from "../../src/catalog/examples";
import { validationModules } from "../../src/catalog/registry";
import { NetworkGuard } from "../../src/capture/network-guard";
import { UrlProbe } from "../../src/capture/url-probe";
import { startServer, type TestServer } from "../support/harness";
import {
  exampleOf,
  FIXTURE_DIRS,
  serveWebFixtureAssets,
  verdictAndReason,
  webFixtureJob,
} from "../support/fixture-runs";
import { unreported } from "./support/check-run";

/**
 * Each web check runs its own pass and fail fixture as a real static_html job through the API.
 *
 * A fixture folder may hold a `server/` folder: its files are served by a local Bun.serve on 127.0.0.1
 * (under /<check id>/), the fixture's HTML has `{{BASE}}` replaced by that URL, and the job's baseUrl is it,
 * so relative URLs in the fixture reach those files too. The API server runs with ASSAY_ALLOW_PRIVATE_TARGETS=1
 * (loopback only) so the guard lets those requests through. Test-only controls on that server:
 * `?delay=<ms>` answers late, `?nohead` answers HEAD with 405. Other fixtures keep https://example.com/.
 *
 * Every fixture folder holds `expected.json`, `{ "mustReport": ["<selector, url or text>", ...] }`: what the
 * fail fixture's defect is, each string found in some finding's selector, url, text or message of the fail
 * run, so a fail fixture cannot pass by failing for another reason. (Unit tests on hand-built artifacts are
 * in test/checks/web.)
 */
const FIXTURES = FIXTURE_DIRS.web;
const webChecks = validationModules.filter((m) => m.meta.subjectType === "url");

let server: TestServer;
let apiKey: string;
/** Requests the asset server answered, as "METHOD /path": what the probe tests count. */
const assetLog: string[] = [];
const assets = serveWebFixtureAssets(assetLog);

beforeAll(async () => {
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server.stop();
  assets.server.stop(true);
});

const assetBase = assets.base;

test("every web check has a pass and a fail fixture, and says what the fail fixture must report", () => {
  const missing = webChecks
    .flatMap((m) => ["pass.html", "fail.html", "expected.json"].map((f) => join(m.meta.id, f)))
    .filter((p) => !existsSync(join(FIXTURES, p)));
  expect(missing).toEqual([]);
});

for (const m of webChecks) {
  describe(m.meta.id, () => {
    for (const expected of ["pass", "fail"] as const) {
      test(`${expected} fixture gives ${expected}, as the catalog's example records`, async () => {
        const res = await server.api("POST", "/api/jobs", {
          key: apiKey,
          body: webFixtureJob(m.meta.id, expected, assetBase(m.meta.id)),
        });
        expect(res.status).toBe(200);
        const [result] = res.body.results;
        expect(result.validationId).toBe(m.meta.id);
        expect({ verdict: result.verdict, reasoning: result.reasoning, reason: result.reason }).toMatchObject({
          verdict: expected,
        });
        expect(verdictAndReason(exampleOf(result, assetBase(m.meta.id)))).toEqual(
          verdictAndReason(examplesOf(m.meta.id)?.[expected]),
        );
        if (expected === "fail") {
          expect(result.reason.length).toBeGreaterThan(10);
          expect(result.findings.length).toBeGreaterThan(0);
          const { mustReport } = JSON.parse(readFileSync(join(FIXTURES, m.meta.id, "expected.json"), "utf8")) as {
            mustReport: string[];
          };
          expect(mustReport.length).toBeGreaterThan(0);
          expect({ unreported: unreported(result.findings, mustReport), findings: result.findings }).toMatchObject({
            unreported: [],
          });
        }
      });
    }
  });
}

describe("UrlProbe (server-side requests of broken-links, broken-images, favicon)", () => {
  const base = () => assetBase("broken-links");

  test("a URL is requested once per probe, however often and however concurrently it is asked for", async () => {
    const probe = new UrlProbe(new NetworkGuard(true));
    const url = `${base()}/ok.html?once=${Date.now()}`;
    const results = await Promise.all([probe.link(url), probe.link(url), probe.link(url)]);
    await probe.link(url);
    expect(results.map((r) => r.kind === "response" && r.status)).toEqual([200, 200, 200]);
    expect(probe.requests).toBe(1);
    expect(assetLog.filter((l) => l === "HEAD /broken-links/ok.html").length).toBeGreaterThanOrEqual(1);
  });

  test("HEAD answered 405 falls back to GET; a 404 is confirmed by GET", async () => {
    const probe = new UrlProbe(new NetworkGuard(true));
    const ok = await probe.link(`${base()}/ok.html?nohead`);
    expect(ok).toMatchObject({ kind: "response", method: "GET", status: 200 });
    const missing = await probe.link(`${base()}/missing.html`);
    expect(missing).toMatchObject({ kind: "response", method: "GET", status: 404 });
    expect(probe.requests).toBe(4);
  });

  test("at most `concurrency` requests are in flight", async () => {
    const probe = new UrlProbe(new NetworkGuard(true), { concurrency: 2 });
    const started = performance.now();
    await Promise.all([1, 2, 3, 4].map((i) => probe.link(`${base()}/ok.html?delay=150&n=${i}`)));
    // Four 150 ms answers two at a time take two rounds.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  test("the default guard refuses loopback: a refusal, not a fetch", async () => {
    const probe = new UrlProbe(new NetworkGuard(false));
    const r = await probe.link(`${base()}/ok.html`);
    expect(r).toMatchObject({ kind: "refused", reason: "loopback" });
    expect(probe.requests).toBe(1);
  });
});
