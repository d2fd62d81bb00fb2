import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, startServer, type TestServer } from "./support/harness";

/**
 * Regression pages for wrong verdicts found on real public pages (issue 14): each case is a page that a check
 * once judged wrongly, run as a real static_html job through the API. The pages live beside each check's
 * pass and fail fixtures, in test/fixtures/web/<check id>/regressions/.
 */
const FIXTURES = join(import.meta.dir, "fixtures", "web");

let server: TestServer;
let apiKey: string;

beforeAll(async () => {
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server.stop();
});

async function run(check: string, page: string, parameters?: Record<string, unknown>, extra: Record<string, unknown> = {}, html?: string) {
  const body = html ?? readFileSync(join(FIXTURES, check, "regressions", page), "utf8");
  const entry = parameters ? { id: check, parameters } : check;
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(body, [entry], extra) });
  expect(res.status).toBe(200);
  const [result] = res.body.results;
  expect(result.validationId).toBe(check);
  return result as { verdict: string; reason?: string; reasoning: string; findings: Array<{ selector?: string; url?: string; message: string; measured?: Record<string, unknown> }> };
}

test("color-contrast: white text over a dark background image or a gradient is not failed; axe's undecided elements need review", async () => {
  const result = await run("color-contrast", "text-over-image-and-gradient.html");
  expect({ verdict: result.verdict, reasoning: result.reasoning, reason: result.reason }).toMatchObject({ verdict: "pass" });
  const review = result.findings.filter((f) => f.measured?.outcome === "needs review");
  expect(review.map((f) => f.measured?.why)).toEqual(expect.arrayContaining(["bgImage", "bgGradient"]));
});

test("accessibility-wcag: WCAG 2.2's target-size does not fail a page held to the default WCAG 2.1 AA, and does under wcag22aa", async () => {
  const byDefault = await run("accessibility-wcag", "small-targets-wcag21-conformant.html");
  expect({ verdict: byDefault.verdict, reason: byDefault.reason }).toMatchObject({ verdict: "pass" });
  expect(byDefault.reasoning).toContain("WCAG 2.1 AA");
  expect(byDefault.reasoning).not.toMatch(/\btarget-size\b/);
  expect(byDefault.reasoning).not.toContain(" 0 element(s) needed review");
  expect(byDefault.findings.some((f) => f.measured?.rule === "color-contrast" && f.measured?.outcome === "needs review")).toBe(true);
  const wcag22 = await run("accessibility-wcag", "small-targets-wcag21-conformant.html", { standard: "wcag22aa" });
  expect(wcag22.verdict).toBe("fail");
  expect(wcag22.findings.some((f) => f.measured?.rule === "target-size")).toBe(true);
});
