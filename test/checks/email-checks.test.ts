import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { validationModules } from "../../src/catalog/registry";
import { examplesOf } from "../../src/catalog/examples";
import { startServer, type TestServer } from "../support/harness";
import { fixtureEntry, runEmailFixture, settledEmailJob, verdictAndReason } from "../support/fixture-runs";
import { unreported } from "./support/check-run";

/**
 * Each functional email check gets its own pass and fail message, delivered over real SMTP to an email job
 * created through the API for that check alone. Fixtures: test/fixtures/email/<id>/pass.eml and fail.eml
 * (complete RFC 5322 messages, CRLF), params.json when the check takes parameters, and expected.json naming what
 * the fail run must report, so a fail fixture cannot pass by failing for another reason.
 *
 * One server for the file; every job is created and every message sent at once in beforeAll, and each test
 * awaits its own job, so the file costs about as long as its slowest job.
 *
 * Not here: checks that read SPF/DKIM/DMARC ("authentication"), which need signed mail and a fixture DNS
 * resolver (test/checks/email-authentication.test.ts).
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "email");
const checks = validationModules.filter(
  (m) =>
    m.meta.subjectType === "email" &&
    m.meta.kind === "functional" &&
    !(m.meta.needs as string[]).includes("authentication"),
);
const VERDICTS = ["pass", "fail"] as const;

let server: TestServer;
let apiKey: string;
const settled = new Map<string, Promise<any>>();

function transport(port: number) {
  return nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
}

const awaitSettled = (jobId: string) => settledEmailJob(server, apiKey, jobId);

beforeAll(async () => {
  server = await startServer({ ASSAY_BROWSER_POOL_SIZE: "2" });
  apiKey = (await server.signup()).apiKey;
  for (const m of checks) {
    for (const expected of VERDICTS) {
      if (!existsSync(join(FIXTURES, m.meta.id, `${expected}.eml`))) continue;
      const job = runEmailFixture(server, apiKey, "email", m.meta.id, expected);
      job.catch(() => {}); // awaited by its test; a rejection here must not go unhandled first
      settled.set(`${m.meta.id}/${expected}`, job);
    }
  }
});
afterAll(() => server.stop());

test("every functional email check has a pass and a fail fixture, and says what the fail must report", () => {
  const missing = checks
    .flatMap((m) => [...VERDICTS.map((v) => join(m.meta.id, `${v}.eml`)), join(m.meta.id, "expected.json")])
    .filter((p) => !existsSync(join(FIXTURES, p)));
  expect(missing).toEqual([]);
});

test("the fixtures are complete RFC 5322 messages with CRLF line endings", () => {
  for (const m of checks) {
    for (const v of VERDICTS) {
      const file = join(FIXTURES, m.meta.id, `${v}.eml`);
      if (!existsSync(file)) continue;
      const text = readFileSync(file, "latin1");
      expect({ file, bareLf: /(^|[^\r])\n/.test(text) }).toEqual({ file, bareLf: false });
      expect(text).toMatch(/\r\n\r\n/);
      expect(text.slice(0, text.indexOf("\r\n\r\n"))).toMatch(/^From: /m);
    }
  }
});

for (const m of checks) {
  describe(m.meta.id, () => {
    for (const expected of VERDICTS) {
      test(`${expected}.eml gives ${expected}, as the catalog's example records`, async () => {
        const job = await settled.get(`${m.meta.id}/${expected}`);
        expect(job).toBeDefined();
        expect(job.status).toBe("completed");
        const [result] = job.results;
        expect(result.validationId).toBe(m.meta.id);
        expect({ verdict: result.verdict, reason: result.reason, reasoning: result.reasoning }).toMatchObject({
          verdict: expected,
        });
        expect(verdictAndReason(result)).toEqual(verdictAndReason(examplesOf(m.meta.id)?.[expected]));
        if (expected === "fail") {
          expect(result.reason.length).toBeGreaterThan(20);
          expect(result.findings.length).toBeGreaterThan(0);
          const { mustReport } = JSON.parse(readFileSync(join(FIXTURES, m.meta.id, "expected.json"), "utf8"));
          expect(mustReport.length).toBeGreaterThan(0);
          expect(unreported(result.findings, mustReport)).toEqual([]);
        }
      });
    }
  });
}

describe("the HTML part's structure", () => {
  test("every check that reads it runs on one parse, and nothing the message links to is fetched", async () => {
    const htmlChecks = checks.filter((m) => (m.meta.needs as string[]).includes("email-html")).map((m) => m.meta.id);
    expect(htmlChecks.length).toBeGreaterThan(10);
    const created = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "email", validations: htmlChecks },
    });
    expect(created.status).toBe(200);
    // Remote images, a stylesheet, a font and a frame at a host that answers and counts: none may be asked for.
    let hits = 0;
    const remote = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => (hits++, new Response("x")) });
    const at = `http://127.0.0.1:${remote.port}`;
    try {
      const html =
        `<!DOCTYPE html><html lang="en"><head><link rel="stylesheet" href="${at}/s.css"><style>@font-face{font-family:x;src:url(${at}/f.woff)} body{font-family:x;background:url(${at}/bg.png)}</style></head>` +
        `<body><img src="${at}/open.gif" width="1" height="1" alt=""><iframe src="${at}/frame.html"></iframe><p>Hello</p></body></html>`;
      await transport(server.smtpPort).sendMail({
        from: '"Northwind Coffee" <news@northwind.example>',
        to: created.body.testEmail,
        subject: "Pixels",
        text: "Hello",
        html,
      });
      const job = await awaitSettled(created.body.jobId);
      expect(
        job.results.map((r: any) => [r.validationId, r.verdict]).filter(([, v]: string[]) => v === "error"),
      ).toEqual([]);
      expect(hits).toBe(0);
    } finally {
      remote.stop(true);
    }
  });

  test("the shared base message (any check's pass.eml) is clean for every functional email check at once", async () => {
    const entries = checks.map((m) => fixtureEntry("email", m.meta.id));
    const created = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "email", validations: entries },
    });
    expect(created.status).toBe(200);
    const raw = readFileSync(join(FIXTURES, "email-preheader", "pass.eml"));
    await transport(server.smtpPort).sendMail({
      envelope: { from: "bounce@bounce.northwind.example", to: [created.body.testEmail] },
      raw,
    });
    const job = await awaitSettled(created.body.jobId);
    expect(
      job.results.filter((r: any) => r.verdict !== "pass").map((r: any) => [r.validationId, r.verdict, r.reason]),
    ).toEqual([]);
    expect(job.results.length).toBe(checks.length);
  });

  test("a message without an HTML part passes the HTML checks as not applicable, and is still checked as plain text", async () => {
    const created = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: {
        type: "email",
        validations: [
          "email-html-lang",
          "email-image-alt-text",
          "email-unsubscribe-link",
          "email-no-lorem-ipsum",
          "email-plain-text-part",
        ],
      },
    });
    await transport(server.smtpPort).sendMail({
      from: '"Northwind Coffee" <news@northwind.example>',
      to: created.body.testEmail,
      subject: "Plain news",
      text: "Lorem ipsum dolor sit amet.\n\nUnsubscribe: https://www.northwind.example/u?id=1\n",
    });
    const job = await awaitSettled(created.body.jobId);
    const verdicts = Object.fromEntries(job.results.map((r: any) => [r.validationId, r.verdict]));
    expect(verdicts).toEqual({
      "email-html-lang": "pass",
      "email-image-alt-text": "pass",
      "email-unsubscribe-link": "pass",
      "email-no-lorem-ipsum": "fail",
      "email-plain-text-part": "pass",
    });
  });

  test("a meta refresh (even entity-encoded) cannot navigate the page away before it is read; scripts do not run", async () => {
    const created = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "email", validations: ["email-html-lang", "email-font-size"] },
    });
    await transport(server.smtpPort).sendMail({
      from: '"Northwind Coffee" <news@northwind.example>',
      to: created.body.testEmail,
      subject: "Refresh",
      text: "Hello",
      html:
        '<html lang="en"><head><meta http-equiv="&#82;efresh" content="0;url=https://elsewhere.example/"></head>' +
        '<body><p style="font-size:11px">Small print</p><script>document.documentElement.removeAttribute("lang")</script></body></html>',
    });
    const job = await awaitSettled(created.body.jobId);
    expect(job.results.map((r: any) => [r.validationId, r.verdict])).toEqual([
      ["email-html-lang", "pass"],
      ["email-font-size", "fail"],
    ]);
    expect(job.results[1].reason).toContain("11px");
  });

  test("email-utm-tracking takes the sender's domains and keys as parameters", async () => {
    const entry = {
      id: "email-utm-tracking",
      parameters: { ownDomains: ["instagram.com"], utmParameters: ["utm_source"] },
    };
    const created = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "email", validations: [entry] },
    });
    expect(created.status).toBe(200);
    const raw = readFileSync(join(FIXTURES, "email-utm-tracking", "fail.eml"));
    await transport(server.smtpPort).sendMail({
      envelope: { from: "bounce@bounce.northwind.example", to: [created.body.testEmail] },
      raw,
    });
    const job = await awaitSettled(created.body.jobId);
    // Only the Instagram link is "own" now, and it has no utm_source; the untagged shop link is not checked.
    expect(job.results[0]).toMatchObject({ verdict: "fail" });
    expect(job.results[0].reason).toContain("instagram.com");
    expect(job.results[0].reason).not.toContain("shop.northwind.example");
  });
});
