import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eventsOf, expectError, startServer, type ApiResponse, type TestServer } from "../support/harness";
import { checkToolResult } from "../support/contracts";
import { trailheadMessage } from "../support/smtp-session";

/**
 * Runs through HTTP and MCP on the real app (real Chromium, real SMTP): a run admitted whole and charged per page,
 * its pages ordinary jobs, its completion judged against the project's baseline (new failures, fixed, still failing,
 * new pages, pages gone), failOn new, ignores, explicit baselines and base branches, and every refusal: its code and
 * status, nothing charged, nothing created.
 */
setDefaultTimeout(120_000);

const CHECKS = ["page-title", "html-lang", "single-h1"];
const MAX_PAGES = 25;

const GOOD = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Shop</title></head><body><h1>${title}</h1></body></html>`;
/** page-title fails (major: blocks under the default threshold). */
const NO_TITLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><h1>Untitled</h1></body></html>`;
/** html-lang fails (major). */
const NO_LANG = `<!doctype html><html><head><meta charset="utf-8"><title>No lang | Shop</title></head><body><h1>No lang</h1></body></html>`;
/** single-h1 fails (minor: warns under the default threshold), with a finding per h1. */
const TWO_H1 = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Two | Shop</title></head><body><h1 id="first">A</h1><h1 id="second">B</h1></body></html>`;

const page = (path: string, html: string, extra: Record<string, unknown> = {}) => ({
  type: "static_html",
  html,
  baseUrl: `https://shop.example/${path}`,
  validations: CHECKS,
  ...extra,
});
const key = (path: string) => `https://shop.example/${path}`;

let server: TestServer;
let org: { apiKey: string; customerId: string };
let other: { apiKey: string; customerId: string };

/** A page held by the test: `/held/<name>` answers once released; `asked` lists the held pages in request order. */
const asked: string[] = [];
const releases = new Map<string, () => void>();
/** Lets a held page answer, once it has been asked for. */
async function release(name: string): Promise<void> {
  while (!releases.has(name)) await Bun.sleep(10);
  releases.get(name)!();
}
let site: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const held = /^\/held\/(.+)$/.exec(path);
      if (held) {
        asked.push(held[1]!);
        await new Promise<void>((resolve) => releases.set(held[1]!, resolve));
      }
      return new Response(GOOD(path), { headers: { "content-type": "text/html" } });
    },
  });
  server = await startServer({
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
    ASSAY_BROWSER_POOL_SIZE: "1",
    ASSAY_BROWSER_PAGES: "2",
    ASSAY_RUN_MAX_PAGES: String(MAX_PAGES),
    ASSAY_SIGNUP_CREDITS: "2000",
  });
  org = await server.signup();
  other = await server.signup();
});
afterAll(async () => {
  for (const release of releases.values()) release();
  await server?.stop();
  site?.stop(true);
});

const balanceOf = async (apiKey = org.apiKey) =>
  (await server.api("GET", "/api/credits", { key: apiKey })).body.balance as number;

/** Starts a run and, with `wait`, expects it answered settled (200); otherwise running (202). */
async function run(body: Record<string, unknown>, apiKey = org.apiKey): Promise<any> {
  const res = await server.api("POST", "/api/runs", { key: apiKey, body });
  if (res.status !== 200 && res.status !== 202)
    throw new Error(`run refused: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.status).toBe(body.wait ? 200 : 202);
  return res.body;
}

async function settledRun(runId: string, apiKey = org.apiKey): Promise<any> {
  for (let i = 0; i < 1200; i++) {
    const res = await server.api("GET", `/api/runs/${runId}`, { key: apiKey });
    expect(res.status).toBe(200);
    if (res.body.status !== "running") return res.body;
    await Bun.sleep(50);
  }
  throw new Error(`run ${runId} never completed`);
}

/** A refusal that changed nothing: the code and status, the same balance and the same log. */
async function expectRefused(
  send: () => Promise<ApiResponse>,
  status: number,
  code: string,
  apiKey = org.apiKey,
): Promise<ApiResponse> {
  const balance = await balanceOf(apiKey);
  const events = eventsOf(server).length;
  const res = await send();
  expectError(res, status, code);
  expect(await balanceOf(apiKey)).toBe(balance);
  expect(eventsOf(server).length).toBe(events);
  return res;
}

const pageOf = (r: any, pageKey: string) => r.pages.find((p: any) => p.pageKey === pageKey);

let baselineRun: any;

describe("a run and its pages", () => {
  test("every page its own job, accepted with the run in one append, charged and settled once; the first run on main becomes the baseline", async () => {
    const before = await balanceOf();
    const r = await run({
      project: "shop",
      branch: "main",
      commit: "a1b2c3d",
      wait: true,
      pages: [
        page("", GOOD("Home")),
        page("about", NO_TITLE),
        page("blog", TWO_H1, { name: "the blog" }),
        page("faq", NO_TITLE),
      ],
    });
    baselineRun = r;
    expect(r).toMatchObject({
      project: "shop",
      branch: "main",
      commit: "a1b2c3d",
      status: "completed",
      failOn: "fail",
      decision: "blocked",
      comparison: null,
      ignored: [],
    });
    expect(r.pages.map((p: any) => [p.index, p.pageKey, p.type, p.status, p.decision])).toEqual([
      [0, key(""), "static_html", "completed", "pass"],
      [1, key("about"), "static_html", "completed", "blocked"],
      [2, "the blog", "static_html", "completed", "pass"],
      [3, key("faq"), "static_html", "completed", "blocked"],
    ]);
    expect(r.pages[2].name).toBe("the blog");
    expect(r.pages[1].failures).toEqual([
      { validationId: "page-title", severity: "major", reason: expect.any(String) },
    ]);
    expect(r.pages[2].failures.map((f: any) => [f.validationId, f.severity])).toEqual([["single-h1", "minor"]]);
    expect(r.pages[0].summary).toEqual({ pass: 3, fail: 0, error: 0 });
    expect(r.totals).toMatchObject({ pages: 4, settled: 4, passed: 2, blocked: 2, undecided: 0 });
    expect(new Set(r.pages.map((p: any) => p.jobId)).size).toBe(4);

    // Each page is an ordinary job, charged once and settled once; the run's credits are its jobs'.
    const credits = (await server.api("GET", "/api/credits?limit=200", { key: org.apiKey })).body;
    let charged = 0;
    for (const p of r.pages) {
      const job = (await server.api("GET", `/api/jobs/${p.jobId}`, { key: org.apiKey })).body;
      expect([job.status, job.overallPassPolicy.decision === "pass"]).toEqual(["completed", p.decision === "pass"]);
      const entries = credits.ledger.filter((e: any) => e.jobId === p.jobId);
      expect(entries.map((e: any) => [e.type, -e.amount])).toEqual([["CreditsCharged", job.credits.charged]]);
      charged += job.credits.charged;
    }
    expect(r.totals.credits).toEqual({ charged, refunded: 0, net: charged });
    expect(await balanceOf()).toBe(before - charged);

    // RunStarted and every page's JobAccepted and charge are one append: consecutive in the log.
    const events = eventsOf(server);
    const started = events.findIndex((e) => e.type === "RunStarted" && (e.data as any).runId === r.runId);
    expect(events.slice(started, started + 9).map((e) => e.type)).toEqual([
      "RunStarted",
      ...r.pages.flatMap(() => ["JobAccepted", "CreditsCharged"]),
    ]);
    expect(events.filter((e) => e.type === "RunCompleted" && (e.data as any).runId === r.runId)).toHaveLength(1);
    for (const p of r.pages)
      expect(events.filter((e) => e.type === "JobSettled" && (e.data as any).jobId === p.jobId)).toHaveLength(1);

    const projects = (await server.api("GET", "/api/projects", { key: org.apiKey })).body.projects;
    expect(projects).toEqual([
      {
        project: "shop",
        baseBranch: "main",
        baselineRunId: r.runId,
        baselineBy: "latest",
        latestRunId: r.runId,
        runs: 1,
        createdAt: expect.any(String),
      },
    ]);
  });

  test("a run on a branch is compared with the baseline: new failures, fixed, still failing, new pages, pages gone; failOn new blocks only on new failures", async () => {
    const r = await run({
      project: "shop",
      branch: "feature",
      failOn: "new",
      wait: true,
      pages: [page("", NO_LANG), page("about", GOOD("About")), page("faq", NO_TITLE), page("contact", GOOD("Contact"))],
    });
    expect(r.comparison).toEqual({
      baselineRunId: baselineRun.runId,
      baseBranch: "main",
      newFailures: [{ pageKey: key(""), validationId: "html-lang", reason: expect.any(String) }],
      fixed: [{ pageKey: key("about"), validationId: "page-title", reason: expect.any(String) }],
      stillFailing: [{ pageKey: key("faq"), validationId: "page-title", reason: expect.any(String) }],
      newPages: [key("contact")],
      pagesGone: ["the blog"],
      visualChanges: [],
    });
    // The home page's new failure blocks; the FAQ's known one does not, under `new`.
    expect(r.pages.map((p: any) => p.decision)).toEqual(["blocked", "pass", "pass", "pass"]);
    expect(r.decision).toBe("blocked");
    expect(pageOf(r, key("faq")).failures.map((f: any) => f.validationId)).toEqual(["page-title"]);

    // Without the regression, the known failure alone passes under `new`, and blocks under the default threshold.
    const known = [page("", GOOD("Home")), page("faq", NO_TITLE)];
    const onlyKnown = await run({ project: "shop", branch: "feature", failOn: "new", wait: true, pages: known });
    expect([onlyKnown.decision, onlyKnown.comparison.newFailures, onlyKnown.comparison.stillFailing.length]).toEqual([
      "pass",
      [],
      1,
    ]);
    const byDefault = await run({ project: "shop", branch: "feature", wait: true, pages: known });
    expect([byDefault.failOn, byDefault.decision]).toEqual(["fail", "blocked"]);
    // A threshold still works on the whole run beside `new`: new failures of minor severity block too.
    const minor = await run({
      project: "shop",
      branch: "feature",
      failOn: "new,minor",
      wait: true,
      pages: [page("about", TWO_H1)],
    });
    expect([minor.decision, minor.comparison.newFailures.map((f: any) => f.validationId)]).toEqual([
      "blocked",
      ["single-h1"],
    ]);
    // Runs on other branches never become the baseline.
    const projects = (await server.api("GET", "/api/projects", { key: org.apiKey })).body.projects;
    expect(projects[0].baselineRunId).toBe(baselineRun.runId);
  });

  test("ignores accept known failures: shown as accepted and listed, never blocking, never dropped; a partial match accepts nothing", async () => {
    const r = await run({
      project: "shop",
      branch: "feature",
      failOn: "minor",
      wait: true,
      pages: [page("faq", NO_TITLE), page("blog", TWO_H1), page("two", TWO_H1)],
      ignores: [
        { check: "page-title", page: "https://shop.example/f*", reason: "The FAQ is retired next month" },
        { check: "single-h1", page: "**/blog", finding: "H1 ", reason: "The blog's template has two" },
        { check: "single-h1", page: "**/two", selector: "#first", reason: "Only the first is known" },
      ],
    });
    expect(pageOf(r, key("faq")).failures).toEqual([
      {
        validationId: "page-title",
        severity: "major",
        reason: expect.any(String),
        accepted: { reason: "The FAQ is retired next month" },
      },
    ]);
    expect(pageOf(r, key("blog")).failures[0].accepted).toEqual({ reason: "The blog's template has two" });
    expect(pageOf(r, key("two")).failures[0].accepted).toBeUndefined();
    expect(r.pages.map((p: any) => p.decision)).toEqual(["pass", "pass", "blocked"]);
    expect(r.ignored).toEqual([
      { pageKey: key("faq"), validationId: "page-title", reason: "The FAQ is retired next month" },
      { pageKey: key("blog"), validationId: "single-h1", finding: "H1 ", reason: "The blog's template has two" },
    ]);
    // Accepted failures are not counted as still failing nor new.
    expect(r.comparison.stillFailing.map((f: any) => f.pageKey)).toEqual([]);
    expect(r.comparison.newFailures.map((f: any) => f.pageKey)).toEqual([key("two")]);
  });

  test("detail=verbose adds each page's whole job; the list reads runs newest first, by project and branch, a page at a time", async () => {
    const verbose = (await server.api("GET", `/api/runs/${baselineRun.runId}?detail=verbose`, { key: org.apiKey }))
      .body;
    expect(verbose.pages[1].job.jobId).toBe(verbose.pages[1].jobId);
    expect(verbose.pages[1].job.results.map((r: any) => r.validationId).sort()).toEqual([...CHECKS].sort());
    expect(baselineRun.pages[1].job).toBeUndefined();

    const main = (await server.api("GET", "/api/runs?project=shop&branch=main", { key: org.apiKey })).body;
    expect(main.runs.map((r: any) => r.runId)).toEqual([baselineRun.runId]);
    expect(main.runs[0]).toMatchObject({ status: "completed", decision: "blocked", comparedWith: null });
    expect(main.runs[0].counts).toMatchObject({ pages: 4, passed: 2, blocked: 2, newFailures: 3 });
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page1: any = (
        await server.api("GET", `/api/runs?project=shop&limit=2${cursor ? `&cursor=${cursor}` : ""}`, {
          key: org.apiKey,
        })
      ).body;
      all.push(...page1.runs.map((r: any) => r.runId));
      cursor = page1.nextCursor;
    } while (cursor);
    expect(all).toHaveLength(6);
    expect(all[5]).toBe(baselineRun.runId);
    // Another organization sees none of them.
    expect((await server.api("GET", "/api/runs", { key: other.apiKey })).body.runs).toEqual([]);
  });
});

describe("baselines and base branches", () => {
  test("an explicit baseline holds until a run on the base branch completes after it; the base branch is the project's", async () => {
    const feature = await run({ project: "site", branch: "feature", wait: true, pages: [page("", NO_TITLE)] });
    const set = await server.api("POST", "/api/projects/site/baseline", {
      key: org.apiKey,
      body: { runId: feature.runId },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({
      project: "site",
      baseBranch: "main",
      baselineRunId: feature.runId,
      baselineBy: "explicit",
    });
    // A run on another branch than the base (main) leaves the explicit baseline as it is.
    const compared = await run({ project: "site", branch: "fix", wait: true, pages: [page("", GOOD("Home"))] });
    expect(compared.comparison).toMatchObject({
      baselineRunId: feature.runId,
      fixed: [{ validationId: "page-title" }],
    });
    const later = await run({ project: "site", branch: "fix", wait: true, pages: [page("", GOOD("Home"))] });
    expect(later.comparison.baselineRunId).toBe(feature.runId);

    // With fix as the base branch, its latest completed run (after the explicit choice) is the baseline.
    const configured = await server.api("PATCH", "/api/projects/site", {
      key: org.apiKey,
      body: { baseBranch: "fix" },
    });
    expect(configured.status).toBe(200);
    expect(configured.body).toMatchObject({
      project: "site",
      baseBranch: "fix",
      baselineRunId: later.runId,
      baselineBy: "latest",
      latestRunId: later.runId,
      runs: 3,
    });
    // Set explicitly again, the older run holds until the next run on fix completes.
    const again = await server.api("POST", "/api/projects/site/baseline", {
      key: org.apiKey,
      body: { runId: feature.runId },
    });
    expect(again.body).toMatchObject({ baselineRunId: feature.runId, baselineBy: "explicit" });
    const next = await run({ project: "site", branch: "fix", wait: true, pages: [page("", GOOD("Home"))] });
    expect(next.comparison.baselineRunId).toBe(feature.runId);
    const projects = (await server.api("GET", "/api/projects", { key: org.apiKey })).body.projects;
    expect(projects.find((p: any) => p.project === "site")).toMatchObject({
      baselineRunId: next.runId,
      baselineBy: "latest",
    });
    // A project configured before its first run.
    const fresh = await server.api("PATCH", "/api/projects/docs", { key: org.apiKey, body: { baseBranch: "trunk" } });
    expect(fresh.body).toMatchObject({ project: "docs", baseBranch: "trunk", baselineRunId: null, runs: 0 });
  });

  test("an email page waits for its message (its testEmail in the run); the run completes when it comes; a running run is no baseline", async () => {
    const r = await run({
      project: "campaign",
      pages: [
        { type: "email", subject: "Spring sale: 25% off walking boots", validations: ["email-subject-length"] },
        page("landing", GOOD("Landing")),
      ],
    });
    const testEmail: string = r.pages[0].testEmail;
    expect(testEmail).toMatch(/^t-[a-z0-9]+@/);
    expect(r.status).toBe("running");
    expect(r.decision).toBe("pending");
    expect(r.pages[0]).toMatchObject({
      pageKey: "Spring sale: 25% off walking boots",
      type: "email",
      status: "pending",
      decision: "pending",
    });
    await expectRefused(
      () => server.api("POST", "/api/projects/campaign/baseline", { key: org.apiKey, body: { runId: r.runId } }),
      409,
      "RUN_STILL_RUNNING",
    );
    const info = await nodemailer
      .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
      .sendMail(trailheadMessage(testEmail));
    expect(info.response).toStartWith("250");
    const done = await settledRun(r.runId);
    expect(done).toMatchObject({ status: "completed", decision: "pass" });
    expect(done.pages.map((p: any) => p.status)).toEqual(["completed", "completed"]);
  });
});

describe("refusals: the code and status, nothing charged, nothing created", () => {
  const valid = () => ({ project: "shop", pages: [page("", GOOD("Home")), page("about", GOOD("About"))] });
  const post =
    (body: unknown, apiKey = org.apiKey) =>
    () =>
      server.api("POST", "/api/runs", { key: apiKey, body });

  test("one invalid page refuses the whole run with the planner's code and the page's index", async () => {
    const bad = await expectRefused(
      post({ ...valid(), pages: [...valid().pages, page("x", GOOD("X"), { validations: ["no-such-check"] })] }),
      400,
      "VALIDATION_NOT_RUNNABLE",
    );
    expect(bad.body.details.pageIndex).toBe(2);
    expect(bad.body.message).toStartWith("Page 2:");
    const notObject = await expectRefused(
      post({ ...valid(), pages: [valid().pages[0], "a page"] }),
      400,
      "INVALID_REQUEST_BODY",
    );
    expect(notObject.body.details.pageIndex).toBe(1);
    const noSubject = await expectRefused(
      post({ ...valid(), pages: [{ type: "url", validations: CHECKS }] }),
      400,
      "JOB_SUBJECT_REQUIRED",
    );
    expect(noSubject.body.details).toMatchObject({ pageIndex: 0, field: "url" });
    const customer = await expectRefused(
      post({ ...valid(), pages: [{ ...valid().pages[0], customerId: other.customerId }] }),
      400,
      "UNKNOWN_FIELD",
    );
    expect(customer.body.details).toEqual({ unknownFields: ["customerId"], pageIndex: 0 });
  });

  test("a balance too low for the whole run is INSUFFICIENT_CREDITS with the run's total, though each page alone would fit", async () => {
    const poor = await server.signup();
    const balance = await balanceOf(poor.apiKey);
    await server.assay.operator.deductCredits(poor.customerId, balance - 5, "a tight balance");
    const refused = await expectRefused(
      post({ project: "shop", pages: [page("a", GOOD("A")), page("b", GOOD("B")), page("c", GOOD("C"))] }, poor.apiKey),
      402,
      "INSUFFICIENT_CREDITS",
      poor.apiKey,
    );
    expect(refused.body.details).toEqual({ balance: 5, required: 9, shortfall: 4, pages: 3 });
    expect((await server.api("GET", "/api/jobs", { key: poor.apiKey })).body.jobs).toEqual([]);
    expect((await server.api("GET", "/api/runs", { key: poor.apiKey })).body.runs).toEqual([]);
  });

  test("the run's own fields: too many pages, one page twice, an unknown failOn word, a bad project, an unknown ignored check", async () => {
    const many = await expectRefused(
      post({ project: "shop", pages: Array.from({ length: MAX_PAGES + 1 }, (_, i) => page(`p${i}`, GOOD("P"))) }),
      400,
      "RUN_TOO_MANY_PAGES",
    );
    expect(many.body.details).toEqual({ pages: MAX_PAGES + 1, maxPages: MAX_PAGES });
    // The same page by its normalized URL: host case and fragment aside.
    const twice = await expectRefused(
      post({
        project: "shop",
        pages: [
          page("a?y=2&x=1", GOOD("A")),
          { ...page("a", GOOD("A")), baseUrl: "https://SHOP.example/a?x=1&y=2#top" },
        ],
      }),
      400,
      "RUN_DUPLICATE_PAGE",
    );
    expect(twice.body.details).toEqual({ pageIndex: 1, firstIndex: 0, pageKey: "https://shop.example/a?x=1&y=2" });
    const failOn = await expectRefused(post({ ...valid(), failOn: "new,sometimes" }), 400, "INVALID_ENUM_VALUE");
    expect(failOn.body.details).toMatchObject({ field: "failOn", value: "new,sometimes" });
    await expectRefused(post({ ...valid(), project: "Not A Project" }), 400, "INVALID_REQUEST_BODY");
    await expectRefused(post({ ...valid(), pages: [] }), 400, "INVALID_REQUEST_BODY");
    await expectRefused(post({ pages: valid().pages }), 400, "MISSING_REQUIRED_FIELD");
    await expectRefused(post({ ...valid(), colour: "red" }), 400, "UNKNOWN_FIELD");
    const ignored = await expectRefused(
      post({ ...valid(), ignores: [{ check: "no-such-check", reason: "typo" }] }),
      400,
      "VALIDATION_NOT_RUNNABLE",
    );
    expect(ignored.body.details).toEqual({ field: "ignores[0].check", validationId: "no-such-check" });
  });

  test("a run's body may weigh up to 16 MiB: 6 MiB of pages reach the planner, where a lone job of that weight is REQUEST_TOO_LARGE", async () => {
    const heavy = `<!doctype html><html lang="en"><head><title>Heavy</title></head><body><h1>Heavy</h1><p>${"x".repeat(3 * 1024 * 1024)}</p></body></html>`;
    const reached = await expectRefused(
      post({
        project: "shop",
        pages: [page("heavy-1", heavy, { validations: ["no-such-check"] }), page("heavy-2", heavy)],
      }),
      400,
      "VALIDATION_NOT_RUNNABLE",
    );
    expect(reached.body.details.pageIndex).toBe(0);
    const tooLarge = await expectRefused(
      () => server.api("POST", "/api/jobs", { key: org.apiKey, body: page("heavy", heavy + heavy) }),
      413,
      "REQUEST_TOO_LARGE",
    );
    expect(tooLarge.body.details).toEqual({ limitBytes: 5 * 1024 * 1024 });
  });

  test("a run another organization, or none, has is RUN_NOT_FOUND; so is a baseline from another project", async () => {
    await expectRefused(() => server.api("GET", "/api/runs/run_nope", { key: org.apiKey }), 404, "RUN_NOT_FOUND");
    await expectRefused(
      () => server.api("GET", `/api/runs/${baselineRun.runId}`, { key: other.apiKey }),
      404,
      "RUN_NOT_FOUND",
      other.apiKey,
    );
    await expectRefused(
      () => server.api("POST", "/api/projects/site/baseline", { key: org.apiKey, body: { runId: baselineRun.runId } }),
      404,
      "RUN_NOT_FOUND",
    );
    await expectRefused(
      () =>
        server.api("POST", "/api/projects/shop/baseline", { key: other.apiKey, body: { runId: baselineRun.runId } }),
      404,
      "RUN_NOT_FOUND",
      other.apiKey,
    );
  });
});

describe("fair share", () => {
  test("a run of many pages and a single job of another organization after it: the single job waits for one turn, not for the run", async () => {
    asked.length = 0;
    const started = run({
      project: "big",
      pages: Array.from({ length: 8 }, (_, i) => ({
        type: "url",
        url: `http://127.0.0.1:${site.port}/held/run-${i}`,
        validations: ["page-title"],
      })),
    });
    // The pool has two turns: the run's first two pages take them.
    while (asked.length < 2) await Bun.sleep(10);
    expect([...asked].sort()).toEqual(["run-0", "run-1"]);
    const single = server.api("POST", "/api/jobs", {
      key: other.apiKey,
      body: { type: "url", url: `http://127.0.0.1:${site.port}/held/single`, validations: ["page-title"] },
    });
    while (server.assay.pool.waiting < 1) await Bun.sleep(10);
    await release(asked[0]!);
    while (asked.length < 3) await Bun.sleep(10);
    expect(asked[2]).toBe("single");
    await release("single");
    for (let i = 0; i < 8; i++) await release(`run-${i}`);
    expect((await single).status).toBe(200);
    const done = await settledRun((await started).runId);
    expect(done.totals).toMatchObject({ pages: 8, settled: 8, passed: 8 });
  });

  test("many bare jobs of one organization at once and a single job of another after them: the single job gets the first turn that ends", async () => {
    asked.length = 0;
    const many = Array.from({ length: 6 }, (_, i) =>
      server.api("POST", "/api/jobs", {
        key: org.apiKey,
        body: { type: "url", url: `http://127.0.0.1:${site.port}/held/bare-${i}`, validations: ["page-title"] },
      }),
    );
    while (asked.length < 2 || server.assay.pool.waiting < 4) await Bun.sleep(10);
    const single = server.api("POST", "/api/jobs", {
      key: other.apiKey,
      body: { type: "url", url: `http://127.0.0.1:${site.port}/held/alone`, validations: ["page-title"] },
    });
    while (server.assay.pool.waiting < 5) await Bun.sleep(10);
    await release(asked[0]!);
    while (asked.length < 3) await Bun.sleep(10);
    expect(asked[2]).toBe("alone");
    await release("alone");
    // Resolving a page already let go again changes nothing.
    for (let i = 0; i < 6; i++) await release(`bare-${i}`);
    expect((await Promise.all([...many, single])).map((r) => r.status)).toEqual(Array(7).fill(200));
  });
});

describe("MCP", () => {
  let mcp: Client;
  beforeAll(async () => {
    mcp = new Client({ name: "runs-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${org.apiKey}` } },
      }),
    );
  });
  afterAll(() => mcp?.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await mcp.callTool({ name, arguments: args })) as any;
    checkToolResult(name, result);
    return result;
  };

  test("run_site answers at once, get_run polls it to the end, list_runs and list_projects read them, set_baseline sets one", async () => {
    const started = await call("run_site", {
      project: "mcp-site",
      branch: "main",
      wait: true,
      pages: [page("", GOOD("Home")), page("about", NO_TITLE)],
    });
    expect(started.isError).toBeFalsy();
    expect(started.structuredContent.status).toBe("running");
    expect(started.content[0].text).toContain("Call get_run again");
    let got: any;
    for (let i = 0; i < 1200; i++) {
      got = await call("get_run", { runId: started.structuredContent.runId });
      if (got.structuredContent.status !== "running") break;
      await Bun.sleep(50);
    }
    expect(got.structuredContent).toMatchObject({ status: "completed", decision: "blocked" });
    expect(got.content[0].text).toContain("No baseline to compare with");
    const listed = await call("list_runs", { project: "mcp-site" });
    expect(listed.structuredContent.runs.map((r: any) => r.runId)).toEqual([started.structuredContent.runId]);
    const set = await call("set_baseline", { project: "mcp-site", runId: started.structuredContent.runId });
    expect(set.structuredContent).toMatchObject({
      baselineRunId: started.structuredContent.runId,
      baselineBy: "explicit",
    });
    const projects = await call("list_projects", {});
    expect(projects.structuredContent.projects.map((p: any) => p.project)).toContain("mcp-site");
  });

  test("a refusal is a tool error with the code and the page's index; nothing charged or created", async () => {
    const balance = await balanceOf();
    const events = eventsOf(server).length;
    const refused = await call("run_site", {
      project: "mcp-site",
      pages: [page("", GOOD("Home")), page("x", GOOD("X"), { validations: ["no-such-check"] })],
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: "VALIDATION_NOT_RUNNABLE", details: { pageIndex: 1 } });
    const missing = await call("get_run", { runId: "run_nope" });
    expect(missing.structuredContent.code).toBe("RUN_NOT_FOUND");
    expect(await balanceOf()).toBe(balance);
    expect(eventsOf(server).length).toBe(events);
  });
});
