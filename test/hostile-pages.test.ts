import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, startServer, type TestServer } from "./support/harness";

/**
 * Pages whose own scripts used to take Assay's verdicts away (test/fixtures/hostile-pages/README.md), each as a real
 * static_html job: every check that reads the DOM, axe, vitals, layout or screenshots ends with a verdict.
 * Checks that probe other hosts (broken links and images, the favicon) are left out: these pages are about the
 * page's scripts, and the tests have no outside network.
 */
const FIXTURES = join(import.meta.dir, "fixtures", "hostile-pages");
const CHECKS = [
  "page-title",
  "html-lang",
  "meta-description",
  "single-h1",
  "heading-order",
  "image-alt-text",
  "viewport-meta",
  "no-lorem-ipsum",
  "no-unrendered-placeholders",
  "console-errors",
  "mixed-content",
  "accessibility-wcag",
  "color-contrast",
  "form-labels",
  "core-web-vitals-lab",
  "no-horizontal-overflow",
  "tap-targets",
  "font-size-body-min-max",
  "layout-not-broken",
  "cta-visible",
];

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer();
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

async function runPage(file: string, validations: unknown[] = CHECKS) {
  const html = readFileSync(join(FIXTURES, file), "utf8");
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(html, validations) });
  expect({ status: res.status, body: res.status === 200 ? "job" : res.body }).toEqual({ status: 200, body: "job" });
  const results = res.body.results as Array<{ validationId: string; verdict: string; reason?: string; findings: Array<{ message: string }> }>;
  const errored = results.filter((r) => r.verdict === "error").map((r) => `${r.validationId}: ${r.reason}`);
  expect(errored).toEqual([]);
  return results;
}

describe("a page's own scripts cannot take its verdicts away", () => {
  test("an AMD loader whose define() throws: axe and the gatherers still run", async () => {
    const results = await runPage("amd-guard.html");
    expect(results.find((r) => r.validationId === "accessibility-wcag")!.verdict).toBe("pass");
  });

  test("a page that replaces performance.now (and Date.now): every check gets a verdict", async () => {
    await runPage("performance-now.html");
  });

  test("a page that assigns URL = '': links still resolve (the off-domain link is reported)", async () => {
    const results = await runPage("url-empty.html", [...CHECKS, { id: "link-domain-allowlist", parameters: { allowedDomains: ["example.com"] } }]);
    const allowlist = results.find((r) => r.validationId === "link-domain-allowlist")!;
    expect(allowlist.verdict).toBe("fail");
    expect(allowlist.findings.map((f) => f.message)).toEqual(["link to partner.example.net"]);
  });

  test("a prompt() loop on load: the prompt is answered, the page loads, and each dialog is a finding of console-errors", async () => {
    const results = await runPage("prompt-loop.html");
    const consoleRow = results.find((r) => r.validationId === "console-errors")!;
    expect(consoleRow.verdict).toBe("pass");
    expect(consoleRow.findings.map((f) => f.message)).toEqual([
      'prompt() dialog: "What is your name?" (answered "Assay")',
      'alert() dialog: "Nice to meet you" (dismissed)',
    ]);
  });

  test("a dialog storm on load: the first 20 dialogs are answered and listed, the rest answered without being shown", async () => {
    const results = await runPage("dialog-storm.html");
    const consoleRow = results.find((r) => r.validationId === "console-errors")!;
    expect(consoleRow.findings.length).toBe(20);
    expect(consoleRow.findings.slice(0, 2).map((f) => f.message)).toEqual(['alert() dialog: "Notice 1" (dismissed)', 'confirm() dialog: "Continue 2?" (dismissed)']);
    expect(results.find((r) => r.validationId === "single-h1")!.verdict).toBe("pass");
  });

  test("a page of bad practices (document.write, deprecated APIs, replaced built-ins, many console errors, odd markup)", async () => {
    const results = await runPage("bad-practices.html");
    expect(results.find((r) => r.validationId === "console-errors")!.verdict).toBe("fail");
  });
});
