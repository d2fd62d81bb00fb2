import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { expectError, htmlJob, startServer, type ApiResponse, type TestServer } from "../support/harness";

/** Estimate, run and list through HTTP, with real Chromium: verdicts, credits, skipped checks, filters, tenants. */

const GOOD = `<!doctype html><html lang="en"><head><title>Spring sale</title>
<meta name="description" content="Everything in the spring range is twenty percent off until Sunday.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Spring sale</h1><h2>Shoes</h2><p>Free returns within 30 days.</p><img src="/a.png" alt="A red shoe"></body></html>`;
// No lang, no title, no description, no viewport, two h1s, a skipped heading level, an image without alt.
const BAD = `<html><head></head><body><h1>One</h1><h1>Two</h1><h4>Deep</h4><p>Hello world</p><img src="/b.png"></body></html>`;
const WEB_ESSENTIALS = [
  "no-lorem-ipsum",
  "no-unrendered-placeholders",
  "image-alt-text",
  "page-title",
  "meta-description",
  "html-lang",
  "viewport-meta",
  "single-h1",
  "heading-order",
];
/** Hooks start servers and run jobs in Chromium: give them the same room as tests (`--timeout` covers tests only). */
const HOOK_TIMEOUT = 120_000;
// Bun 1.4 ignores bunfig's [test] timeout; so that this file also runs alone (without npm test's --timeout), set the room here.
setDefaultTimeout(120_000);

let server: TestServer;
let target: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  // Loopback is opened for the url-job tests only; a local server stands in for a website.
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  target = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/ok") return new Response(GOOD, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (path === "/a.png") return new Response(null, { status: 404 });
      return new Response("<h1>Internal Server Error</h1>", { status: 500, headers: { "content-type": "text/html" } });
    },
  });
}, HOOK_TIMEOUT);
afterAll(async () => {
  target.stop(true);
  await server.stop();
}, HOOK_TIMEOUT);

function expectOk(res: ApiResponse) {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
}

const byId = (results: Array<{ validationId: string }>) => new Map(results.map((r) => [r.validationId, r as any]));

async function credits(s: TestServer, key: string) {
  const res = await s.api("GET", "/api/credits", { key });
  expectOk(res);
  return res.body;
}

async function jobs(s: TestServer, key: string, query = "") {
  const res = await s.api("GET", `/api/jobs${query}`, { key });
  expectOk(res);
  return res.body;
}

describe("estimate", () => {
  test("prices one line per check, with the total, the balance and whether it suffices, and charges nothing", async () => {
    const { apiKey } = await server.signup();
    const res = await server.api("POST", "/api/jobs/estimate", {
      key: apiKey,
      body: htmlJob(GOOD, [{ id: "required-text-present", parameters: { text: "Spring" } }], {
        validationSetId: "web-essentials",
      }),
    });
    expectOk(res);
    expect(res.body.lines).toEqual(
      [...WEB_ESSENTIALS, "required-text-present"].map((validationId) => ({ validationId, credits: 1 })),
    );
    expect(res.body.totalCredits).toBe(10);
    expect(res.body.balance).toBe(1000);
    expect(res.body.sufficient).toBe(true);
    expect(res.body.shortfall).toBeUndefined();
    expect(res.body.skipped_validations).toEqual([]);
    expect(res.body.jobId).toBeUndefined();
    const after = await credits(server, apiKey);
    expect(after.balance).toBe(1000);
    expect(after.ledger).toHaveLength(1);
    expect((await jobs(server, apiKey)).jobs).toEqual([]);
  });
});

describe("run", () => {
  let key: string;
  beforeAll(async () => {
    ({ apiKey: key } = await server.signup());
  }, HOOK_TIMEOUT);

  test("a failing page: one verdict per check, the reason to fix on fail, the set, and credits charged", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(BAD, undefined, { validationSetId: "web-essentials" }),
    });
    expectOk(res);
    const job = res.body;
    expect(job.jobId).toMatch(/^job_/);
    expect(job.status).toBe("completed");
    expect(job.validationSetId).toBe("web-essentials");
    expect(job.validationSets.map((s: { validationSetId: string | null }) => s.validationSetId)).toEqual([
      "web-essentials",
    ]);
    expect(job.skipped_validations).toEqual([]);
    expect(job.credits).toEqual({ charged: 9, refunded: 0, net: 9 });
    expect(job.results.map((r: { validationId: string }) => r.validationId).sort()).toEqual([...WEB_ESSENTIALS].sort());
    const results = byId(job.results);
    for (const id of [
      "page-title",
      "html-lang",
      "meta-description",
      "viewport-meta",
      "single-h1",
      "heading-order",
      "image-alt-text",
    ]) {
      const r = results.get(id);
      expect(r.verdict).toBe("fail");
      expect(typeof r.reason).toBe("string");
      expect(r.reason.length).toBeGreaterThan(0);
      expect(typeof r.reasoning).toBe("string");
      expect(Array.isArray(r.findings)).toBe(true);
      expect(typeof r.severity).toBe("string");
    }
    for (const id of ["no-lorem-ipsum", "no-unrendered-placeholders"]) {
      expect(results.get(id).verdict).toBe("pass");
      expect(results.get(id).reason).toBeUndefined();
    }
    expect(results.get("single-h1").findings.length).toBeGreaterThanOrEqual(2);
    // brief: no references and no note
    for (const r of job.results) {
      expect(r.references).toBeUndefined();
      expect(r.note).toBeUndefined();
    }
    const after = await credits(server, key);
    expect(after.balance).toBe(991);
    expect(after.ledger[0]).toMatchObject({ type: "CreditsCharged", amount: -9, jobId: job.jobId, balanceAfter: 991 });
  });

  test("a clean page passes every check", async () => {
    const res = await server.api("POST", "/api/jobs", { key, body: htmlJob(GOOD, WEB_ESSENTIALS) });
    expectOk(res);
    expect(res.body.status).toBe("completed");
    for (const r of res.body.results) expect([r.validationId, r.verdict]).toEqual([r.validationId, "pass"]);
    expect(res.body.summary.passed).toBe(true);
    expect(res.body.validationSetId).toBeUndefined();
    expect(res.body.validationSets.map((s: { validationSetId: string | null }) => s.validationSetId)).toEqual([null]);
  });

  test("summary.passed is overallPassPolicy.decision's pass: a failed minor check passes both, a failed required check neither", async () => {
    const twoH1s = GOOD.replace("</body>", "<h1>Again</h1></body>");
    const minorOnly = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(twoH1s, ["page-title", { id: "single-h1", severity: "minor" }]),
    });
    expectOk(minorOnly);
    expect(minorOnly.body.summary).toEqual({ pass: 1, fail: 1, error: 0, passed: true });
    expect(minorOnly.body.overallPassPolicy).toMatchObject({ decision: "pass", warnings: ["single-h1"] });
    const required = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(twoH1s, ["page-title", { id: "single-h1", severity: "major" }]),
    });
    expectOk(required);
    expect([required.body.summary.passed, required.body.overallPassPolicy.decision]).toEqual([false, "blocked"]);
    // Read back, the job says the same.
    const read = await server.api("GET", `/api/jobs/${minorOnly.body.jobId}`, { key });
    expect([read.body.summary.passed, read.body.overallPassPolicy.decision]).toEqual([true, "pass"]);
  });

  test("detail=verbose adds references and a note to every result", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(BAD, ["page-title", "html-lang"], { detail: "verbose" }),
    });
    expectOk(res);
    for (const r of res.body.results) {
      expect(Array.isArray(r.references)).toBe(true);
      expect(typeof r.note).toBe("string");
      expect(r.note.length).toBeGreaterThan(0);
    }
    expect(res.body.results.some((r: { references: unknown[] }) => r.references.length > 0)).toBe(true);
  });

  test("a per-entry severity overrides the catalog's", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(BAD, [{ id: "page-title", severity: "info" }]),
    });
    expectOk(res);
    expect(res.body.results[0].severity).toBe("info");
  });

  test("identical duplicate entries collapse and run once, charged once", async () => {
    const before = (await credits(server, key)).balance;
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(BAD, ["page-title", "page-title", { id: "page-title" }]),
    });
    expectOk(res);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0].validationId).toBe("page-title");
    expect(res.body.credits).toEqual({ charged: 1, refunded: 0, net: 1 });
    expect((await credits(server, key)).balance).toBe(before - 1);
  });

  test("a set plus an extra check through validations[] runs both", async () => {
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(GOOD, [{ id: "required-text-present", parameters: { text: "free returns" } }], {
        validationSetId: "web-essentials",
      }),
    });
    expectOk(res);
    expect(res.body.results).toHaveLength(10);
    expect(byId(res.body.results).get("required-text-present").verdict).toBe("pass");
    expect(res.body.credits.charged).toBe(10);
  });
});

describe("requiresConfiguration", () => {
  let key: string;
  beforeAll(async () => {
    ({ apiKey: key } = await server.signup());
  }, HOOK_TIMEOUT);

  test("without parameters the check is skipped with REQUIRES_CONFIGURATION, not run and not charged", async () => {
    const estimate = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(GOOD, ["required-text-present", "page-title"]),
    });
    expectOk(estimate);
    expect(estimate.body.lines).toEqual([{ validationId: "page-title", credits: 1 }]);
    expect(estimate.body.totalCredits).toBe(1);
    expect(estimate.body.skipped_validations).toHaveLength(1);
    expect(estimate.body.skipped_validations[0]).toMatchObject({
      validationId: "required-text-present",
      reason: "REQUIRES_CONFIGURATION",
    });

    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(GOOD, ["required-text-present", "page-title"]),
    });
    expectOk(res);
    expect(res.body.results.map((r: { validationId: string }) => r.validationId)).toEqual(["page-title"]);
    expect(res.body.skipped_validations).toHaveLength(1);
    const [skipped] = res.body.skipped_validations;
    expect(skipped.validationId).toBe("required-text-present");
    expect(skipped.reason).toBe("REQUIRES_CONFIGURATION");
    expect(typeof skipped.message).toBe("string");
    expect(res.body.credits).toEqual({ charged: 1, refunded: 0, net: 1 });
    expect((await credits(server, key)).balance).toBe(999);

    // The skip is kept with the job.
    const listed = await jobs(server, key, `?jobId=${res.body.jobId}`);
    expect(listed.jobs[0].skipped_validations).toEqual(res.body.skipped_validations);
    // One shape: the estimate lists the skip exactly as the job does, reasonCode included.
    expect(skipped.reasonCode).toBe("REQUIRES_CONFIGURATION");
    expect(estimate.body.skipped_validations).toEqual(res.body.skipped_validations);
    const planned = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(GOOD, ["required-text-present"]),
    });
    expect(planned.body.skipped_validations).toEqual(res.body.skipped_validations);
  });

  test("an entry object with no parameters is skipped the same way", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(GOOD, [{ id: "required-text-present", severity: "critical" }]),
    });
    expectOk(res);
    expect(res.body.lines).toEqual([]);
    expect(res.body.totalCredits).toBe(0);
    expect(res.body.skipped_validations.map((s: { reason: string }) => s.reason)).toEqual(["REQUIRES_CONFIGURATION"]);
  });

  test("with parameters it runs: visible text passes", async () => {
    const before = (await credits(server, key)).balance;
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(GOOD, [
        { id: "required-text-present", parameters: { text: ["FREE   returns within 30 days", "Spring sale"] } },
      ]),
    });
    expectOk(res);
    expect(res.body.skipped_validations).toEqual([]);
    expect(res.body.results).toHaveLength(1);
    expect(res.body.results[0]).toMatchObject({ validationId: "required-text-present", verdict: "pass" });
    expect(res.body.credits.charged).toBe(1);
    expect((await credits(server, key)).balance).toBe(before - 1);
  });

  test("with parameters it runs: missing or hidden text fails with the reason naming it", async () => {
    const html = `<html lang="en"><head><title>T</title></head><body><h1>Hello</h1><p style="display:none">Secret offer</p></body></html>`;
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(html, [
        { id: "required-text-present", parameters: { text: ["Hello", "Secret offer", "Terms apply"] } },
      ]),
    });
    expectOk(res);
    const [r] = res.body.results;
    expect(r.verdict).toBe("fail");
    expect(r.reason).toContain("Secret offer");
    expect(r.reason).toContain("Terms apply");
    expect(r.reason).not.toContain("Hello");
    expect(r.findings).toHaveLength(2);
  });
});

describe("GET /api/jobs", () => {
  let key: string;
  const created: string[] = [];
  beforeAll(async () => {
    ({ apiKey: key } = await server.signup());
    for (const html of [GOOD, BAD, GOOD]) {
      const res = await server.api("POST", "/api/jobs", { key, body: htmlJob(html, ["page-title", "html-lang"]) });
      expectOk(res);
      created.push(res.body.jobId);
    }
    // One interrupted job, for the status filter.
    const res = await server.api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `${target.url.origin}/broken`, validations: ["page-title"] },
    });
    expectOk(res);
    expect(res.body.status).toBe("interrupted");
    created.push(res.body.jobId);
  }, HOOK_TIMEOUT);

  test("lists the caller's jobs newest first, with results", async () => {
    const list = await jobs(server, key);
    expect(list.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([...created].reverse());
    expect(list.nextCursor).toBeNull();
    const bad = list.jobs.find((j: { jobId: string }) => j.jobId === created[1]);
    expect(byId(bad.results).get("page-title").verdict).toBe("fail");
    expect(bad.credits).toEqual({ charged: 2, refunded: 0, net: 2 });
    expect(bad.results[0].references).toBeUndefined();
  });

  test("a job read back by jobId equals the run response", async () => {
    const other = await server.signup();
    const run = await server.api("POST", "/api/jobs", {
      key: other.apiKey,
      body: htmlJob(BAD, ["single-h1", "page-title"]),
    });
    expectOk(run);
    const listed = await jobs(server, other.apiKey, `?jobId=${run.body.jobId}`);
    expect(listed.jobs).toEqual([run.body]);
  });

  test("filters by jobId", async () => {
    const list = await jobs(server, key, `?jobId=${created[1]}`);
    expect(list.jobs).toHaveLength(1);
    expect(list.jobs[0].jobId).toBe(created[1]);
  });

  test("filters by status", async () => {
    const interrupted = await jobs(server, key, "?status=interrupted");
    expect(interrupted.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([created[3]]);
    const completed = await jobs(server, key, "?status=completed");
    expect(completed.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([created[2], created[1], created[0]]);
    const pending = await jobs(server, key, "?status=pending");
    expect(pending.jobs).toEqual([]);
  });

  test("pages with limit and nextCursor, without gaps or repeats", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await jobs(server, key, `?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.jobs.length).toBeLessThanOrEqual(3);
      seen.push(...page.jobs.map((j: { jobId: string }) => j.jobId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(seen).toEqual([...created].reverse());
    const first = await jobs(server, key, "?limit=1");
    expect(first.jobs.map((j: { jobId: string }) => j.jobId)).toEqual([created[3]]);
    expect(typeof first.nextCursor).toBe("string");
  });

  test("detail=verbose on the list adds references and a note", async () => {
    const list = await jobs(server, key, `?jobId=${created[1]}&detail=verbose`);
    for (const r of list.jobs[0].results) {
      expect(Array.isArray(r.references)).toBe(true);
      expect(typeof r.note).toBe("string");
    }
    const brief = await jobs(server, key, `?jobId=${created[1]}&detail=brief`);
    for (const r of brief.jobs[0].results) expect(r.note).toBeUndefined();
  });

  test("without detail, brief is the default (spec), whatever detail the job was created with; verbose when asked", async () => {
    const run = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(BAD, ["page-title"], { detail: "verbose" }),
    });
    expectOk(run);
    expect(run.body.results[0].note).toEqual(expect.any(String));
    const listed = (await jobs(server, key, `?jobId=${run.body.jobId}`)).jobs[0];
    const one = (await server.api("GET", `/api/jobs/${run.body.jobId}`, { key })).body;
    const newest = (await jobs(server, key, "?limit=1")).jobs[0];
    for (const job of [listed, one, newest]) {
      expect(job.jobId).toBe(run.body.jobId);
      expect(job.results[0]).not.toHaveProperty("note");
      expect(job.results[0]).not.toHaveProperty("references");
    }
    expect((await server.api("GET", `/api/jobs/${run.body.jobId}?detail=verbose`, { key })).body).toEqual(run.body);
  });

  test("bad query values are refused", async () => {
    expectError(await server.api("GET", "/api/jobs?status=done", { key }), 400, "INVALID_ENUM_VALUE");
    expectError(await server.api("GET", "/api/jobs?detail=full", { key }), 400, "INVALID_ENUM_VALUE");
    expectError(await server.api("GET", "/api/jobs?limit=0", { key }), 400, "INVALID_REQUEST_BODY");
    expectError(await server.api("GET", "/api/jobs?limit=abc", { key }), 400, "INVALID_REQUEST_BODY");
    expectError(await server.api("GET", "/api/jobs?cursor=not-a-cursor", { key }), 400, "INVALID_REQUEST_BODY");
  });

  test("an unknown jobId is JOB_NOT_FOUND", async () => {
    const res = await server.api("GET", "/api/jobs?jobId=job_0000000000000000000000", { key });
    expectError(res, 404, "JOB_NOT_FOUND");
  });
});

describe("tenant isolation", () => {
  test("tenant B never sees tenant A's jobs, and A's jobId is JOB_NOT_FOUND for B", async () => {
    const a = await server.signup();
    const b = await server.signup();
    const run = await server.api("POST", "/api/jobs", { key: a.apiKey, body: htmlJob(BAD, ["page-title"]) });
    expectOk(run);
    const jobId = run.body.jobId;

    expect((await jobs(server, b.apiKey)).jobs).toEqual([]);
    expect((await jobs(server, b.apiKey, "?status=completed")).jobs).toEqual([]);
    const lookup = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: b.apiKey });
    expectError(lookup, 404, "JOB_NOT_FOUND");
    expect(JSON.stringify(lookup.body)).not.toContain(a.customerId);
    const verbose = await server.api("GET", `/api/jobs?jobId=${jobId}&detail=verbose`, { key: b.apiKey });
    expectError(verbose, 404, "JOB_NOT_FOUND");

    expect((await credits(server, b.apiKey)).balance).toBe(1000);
    expect((await credits(server, a.apiKey)).balance).toBe(999);
    expect((await jobs(server, a.apiKey, `?jobId=${jobId}`)).jobs).toHaveLength(1);
  });
});

describe("url jobs", () => {
  test("a reachable page runs its checks", async () => {
    const { apiKey } = await server.signup();
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "url", url: `${target.url.origin}/ok`, validations: ["page-title", "html-lang"] },
    });
    expectOk(res);
    expect(res.body.status).toBe("completed");
    expect(res.body.results.map((r: { verdict: string }) => r.verdict)).toEqual(["pass", "pass"]);
    expect(res.body.credits).toEqual({ charged: 2, refunded: 0, net: 2 });
  });

  test("a page that will not load: every row is error, the job is interrupted and everything is refunded", async () => {
    const { apiKey } = await server.signup();
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: { type: "url", url: `${target.url.origin}/broken`, validations: ["page-title", "html-lang", "single-h1"] },
    });
    expectOk(res);
    expect(res.body.status).toBe("interrupted");
    expect(res.body.results).toHaveLength(3);
    for (const r of res.body.results) {
      expect(r.verdict).toBe("error");
      expect(typeof r.reason).toBe("string");
    }
    expect(res.body.interruption.message).toContain("500");
    expect(res.body.interruption).toMatchObject({ cause: "capture_failed", refund: { settled: true } });
    expect([res.body.summary.passed, res.body.overallPassPolicy.decision]).toEqual([false, "undecided"]);
    expect(res.body.credits).toEqual({ charged: 3, refunded: 3, net: 0 });
    const after = await credits(server, apiKey);
    expect(after.balance).toBe(1000);
    expect(after.ledger.map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ["CreditsRefunded", 3],
      ["CreditsCharged", -3],
      ["CreditsGranted", 1000],
    ]);
  });
});

describe("INSUFFICIENT_CREDITS", () => {
  let poor: TestServer;
  let key: string;
  beforeAll(async () => {
    poor = await startServer({ ASSAY_SIGNUP_CREDITS: "3" });
    ({ apiKey: key } = await poor.signup());
  }, HOOK_TIMEOUT);
  afterAll(() => poor.stop(), HOOK_TIMEOUT);

  test("the estimate says it does not suffice, and by how much", async () => {
    const res = await poor.api("POST", "/api/jobs/estimate", {
      key,
      body: htmlJob(GOOD, undefined, { validationSetId: "web-essentials" }),
    });
    expectOk(res);
    expect(res.body).toMatchObject({ totalCredits: 9, balance: 3, sufficient: false, shortfall: 6 });
  });

  test("a run over the balance is 402 with balance, required and shortfall, and charges nothing", async () => {
    const res = await poor.api("POST", "/api/jobs", {
      key,
      body: htmlJob(GOOD, undefined, { validationSetId: "web-essentials" }),
    });
    expectError(res, 402, "INSUFFICIENT_CREDITS");
    expect(res.body.details).toEqual({ balance: 3, required: 9, shortfall: 6 });
    const after = await credits(poor, key);
    expect(after.balance).toBe(3);
    expect(after.ledger).toHaveLength(1);
    expect((await jobs(poor, key)).jobs).toEqual([]);
  });

  test("a job costing exactly the balance runs; the next one is refused at zero", async () => {
    const ok = await poor.api("POST", "/api/jobs", {
      key,
      body: htmlJob(GOOD, ["page-title", "html-lang", "single-h1"]),
    });
    expectOk(ok);
    expect(ok.body.credits.charged).toBe(3);
    expect((await credits(poor, key)).balance).toBe(0);
    const refused = await poor.api("POST", "/api/jobs", { key, body: htmlJob(GOOD, ["page-title"]) });
    expectError(refused, 402, "INSUFFICIENT_CREDITS");
    expect(refused.body.details).toEqual({ balance: 0, required: 1, shortfall: 1 });
    expect((await credits(poor, key)).balance).toBe(0);
    expect((await jobs(poor, key)).jobs).toHaveLength(1);
  });

  test("a job whose only check is skipped costs nothing and still runs at zero balance", async () => {
    const res = await poor.api("POST", "/api/jobs/estimate", { key, body: htmlJob(GOOD, ["required-text-present"]) });
    expectOk(res);
    expect(res.body).toMatchObject({ totalCredits: 0, balance: 0, sufficient: true });
  });
});
