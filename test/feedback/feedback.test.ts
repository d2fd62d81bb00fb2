import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  eventCount,
  eventsOf,
  expectError,
  htmlJob,
  runCli,
  startServer,
  tempDataDir,
  type TestServer,
} from "../support/harness";

/**
 * Feedback that pays, through HTTP against the real app: the looks-wrong set on any result (worded after the
 * verdict, paying what the check cost net of refunds), the job- and standard-scope sets queued per credential one
 * at a time, every refusal (and that it created and paid nothing), one payout under 50 concurrent submissions,
 * the ledger verified after payouts, and the operator's report.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;
/** page-title passes, single-h1 fails (two h1). */
const PAGE =
  '<!doctype html><html lang="en"><head><title>Boots</title></head><body><h1>Boots</h1><h1>Sale</h1></body></html>';

let server: TestServer;
let target: ReturnType<typeof Bun.serve>;
let key: string;
let customerId: string;
let jobId: string;
let otherKey: string;

const balance = async (k = key) => (await server.api("GET", "/api/credits", { key: k })).body.balance as number;
const submit = (body: unknown, k = key) => server.api("POST", "/api/feedback", { key: k, body });
const looksWrong = (validationId: string, answers: Record<string, unknown>, job = jobId) => ({
  setId: "looks-wrong",
  jobId: job,
  validationId,
  answers: Object.entries({ aiMistakeNotes: null, verdictComments: "", feedbackNotes: null, ...answers }).map(
    ([questionId, value]) => ({ questionId, value }),
  ),
});
const payouts = () =>
  eventsOf(server).filter((e) => e.type === "CreditsGranted" && (e.data as { reason: string }).reason === "feedback");

/** A refusal with this status, code and details that appended nothing and moved no credit. */
async function refused(res: Promise<any>, status: number, code: string, details?: Record<string, unknown>) {
  const events = eventCount(server);
  const before = await balance();
  const r = await res;
  expectError(r, status, code);
  if (details) expect(r.body.details).toEqual(details);
  expect(eventCount(server)).toBe(events);
  expect(await balance()).toBe(before);
  return r;
}

beforeAll(async () => {
  target = Bun.serve({ port: 0, fetch: () => new Response("down for maintenance", { status: 500 }) });
  server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  ({ apiKey: key, customerId } = await server.signup());
  ({ apiKey: otherKey } = await server.signup());
  const job = await server.api("POST", "/api/jobs", { key, body: htmlJob(PAGE, ["page-title", "single-h1"]) });
  expect(job.status).toBe(200);
  expect(job.body.results.map((r: any) => [r.validationId, r.verdict])).toEqual([
    ["page-title", "pass"],
    ["single-h1", "fail"],
  ]);
  jobId = job.body.jobId;
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server.stop();
  target.stop(true);
}, HOOK_TIMEOUT);

describe("the looks-wrong set", () => {
  test("served for any result, worded after its verdict, paying what the check cost", async () => {
    const fail = await server.api("GET", `/api/feedback/questions?jobId=${jobId}&validationId=single-h1`, { key });
    expect(fail.status).toBe(200);
    expect(fail.body).toMatchObject({
      due: true,
      setId: "looks-wrong",
      scope: "validation",
      jobId,
      validationId: "single-h1",
      storedVerdict: "fail",
      questionCount: 4,
      rewardCredits: 1,
    });
    expect(fail.body.questions.map((q: any) => [q.id, q.shape.kind])).toEqual([
      ["humanVerdict", "verdict"],
      ["aiMistakeNotes", "text"],
      ["verdictComments", "text"],
      ["feedbackNotes", "text"],
    ]);
    expect(fail.body.questions[0].text).toContain("Is the problem it reports real?");
    expect(fail.body.questions[0].shape).toEqual({ kind: "verdict", states: ["pass", "fail", "error"] });
    const pass = await server.api("GET", `/api/feedback/questions?jobId=${jobId}&validationId=page-title`, { key });
    expect(pass.body.questions[0].text).toContain("Did it miss a problem?");
  });

  test("refusals on the questions: anchors, job, check, set", async () => {
    const q = (query: string, k = key) => server.api("GET", `/api/feedback/questions?${query}`, { key: k });
    expectError(await q(`jobId=${jobId}`), 400, "FEEDBACK_ANCHOR_REQUIRED");
    expect((await q(`jobId=${jobId}`)).body.details).toEqual({ setId: "looks-wrong", needs: ["validationId"] });
    expect((await q("validationId=page-title")).body.details).toEqual({ setId: "looks-wrong", needs: ["jobId"] });
    expect((await q("setId=looks-wrong")).body.details).toEqual({
      setId: "looks-wrong",
      needs: ["jobId", "validationId"],
    });
    const missing = await q("jobId=job_nope&validationId=page-title");
    expectError(missing, 404, "JOB_NOT_FOUND");
    expect(missing.body.details).toEqual({ jobId: "job_nope" });
    expectError(await q(`jobId=${jobId}&validationId=page-title`, otherKey), 404, "JOB_NOT_FOUND");
    const notInJob = await q(`jobId=${jobId}&validationId=html-lang`);
    expectError(notInJob, 404, "FEEDBACK_CHECK_NOT_IN_JOB");
    expect(notInJob.body.details).toEqual({ jobId, validationId: "html-lang" });
    const unknown = await q("setId=nope");
    expectError(unknown, 404, "FEEDBACK_SET_UNKNOWN");
    expect(unknown.body.details).toEqual({ setId: "nope" });
  });

  test("submission refusals, in order, each creating and paying nothing", async () => {
    await refused(submit({ setId: "nope", answers: [] }), 404, "FEEDBACK_SET_UNKNOWN", { setId: "nope" });
    await refused(submit({ setId: "looks-wrong", jobId, answers: [] }), 400, "FEEDBACK_ANCHOR_REQUIRED", {
      setId: "looks-wrong",
      needs: ["validationId"],
    });
    await refused(submit(looksWrong("page-title", {}, "job_nope")), 404, "JOB_NOT_FOUND", { jobId: "job_nope" });
    await refused(submit(looksWrong("page-title", { humanVerdict: "pass" }), otherKey), 404, "JOB_NOT_FOUND", {
      jobId,
    });
    await refused(submit(looksWrong("html-lang", {})), 404, "FEEDBACK_CHECK_NOT_IN_JOB", {
      jobId,
      validationId: "html-lang",
    });
    const bad = {
      setId: "looks-wrong",
      jobId,
      validationId: "single-h1",
      answers: [
        { questionId: "humanVerdict", value: "maybe" },
        { questionId: "aiMistakeNotes", value: 5 },
        { questionId: "aiMistakeNotes", value: "twice" },
        { questionId: "feedbackNotes", value: "x".repeat(2001) },
        { questionId: "mood", value: "happy" },
      ],
    };
    await refused(submit(bad), 400, "FEEDBACK_ANSWERS_INVALID", {
      setId: "looks-wrong",
      problems: [
        { questionId: "aiMistakeNotes", problem: "answered 2 times; answer each question once" },
        { questionId: "mood", problem: "not a question of this set" },
        { questionId: "humanVerdict", problem: "must be one of pass, fail, error" },
        { questionId: "aiMistakeNotes", problem: "must be a string" },
        {
          questionId: "verdictComments",
          problem: "not answered; an optional question is answered with null or an empty string",
        },
        { questionId: "feedbackNotes", problem: "at most 2000 characters" },
      ],
    });
    await refused(
      submit(looksWrong("single-h1", { humanVerdict: "pass", aiMistakeNotes: "  " })),
      400,
      "AI_MISTAKE_NOTES_REQUIRED",
      {
        humanVerdict: "pass",
        storedVerdict: "fail",
        field: "aiMistakeNotes",
      },
    );
    await refused(submit(looksWrong("single-h1", { humanVerdict: "fail" })), 400, "FEEDBACK_RATIONALE_REQUIRED", {
      humanVerdict: "fail",
      fields: ["verdictComments", "feedbackNotes"],
    });
    // The source is the channel's: a body naming one is refused by the schema.
    expectError(
      await submit({ ...looksWrong("single-h1", { humanVerdict: "fail", feedbackNotes: "x" }), source: "dashboard" }),
      400,
      "UNKNOWN_FIELD",
    );
    await refused(
      server.api("GET", `/api/feedback?jobId=${jobId}&validationId=single-h1`, { key }),
      404,
      "FEEDBACK_NOT_FOUND",
      { jobId, validationId: "single-h1" },
    );
  });

  test("filed once: the receipt echoes it with the payout, it reads back, and a second is FEEDBACK_ALREADY_GIVEN", async () => {
    const before = await balance();
    const filed = looksWrong("single-h1", {
      humanVerdict: "pass",
      aiMistakeNotes: "Two h1 is fine in this template: one is the logo.",
    });
    const res = await submit(filed);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      setId: "looks-wrong",
      jobId,
      validationId: "single-h1",
      answers: filed.answers,
      source: "agent",
      submittedAt: expect.any(String),
      payout: { credits: 1, balanceAfter: before + 1 },
    });
    expect(await balance()).toBe(before + 1);
    const [event] = eventsOf(server).filter((e) => e.type === "FeedbackSubmitted");
    expect(event!.metadata).toMatchObject({ channel: "api", actor: { kind: "key" } });
    expect(event!.data).toMatchObject({ source: "agent", storedVerdict: "fail", rewardCredits: 1 });
    expect(payouts().map((e) => e.data)).toEqual([
      {
        customerId,
        amount: 1,
        reason: "feedback",
        feedback: { setId: "looks-wrong", jobId, validationId: "single-h1" },
      },
    ]);
    const read = await server.api("GET", `/api/feedback?jobId=${jobId}&validationId=single-h1`, { key });
    expect(read.body).toMatchObject({
      storedVerdict: "fail",
      humanVerdict: "pass",
      disputed: true,
      source: "agent",
      rewardCredits: 1,
      submittedAt: res.body.submittedAt,
    });
    expect(
      (await server.api("GET", `/api/feedback/questions?jobId=${jobId}&validationId=single-h1`, { key })).body,
    ).toEqual({ due: false });
    await refused(submit(filed), 409, "FEEDBACK_ALREADY_GIVEN", {
      setId: "looks-wrong",
      jobId,
      validationId: "single-h1",
    });
  });

  test("50 concurrent submissions of the same result pay exactly once", async () => {
    const before = await balance();
    const body = looksWrong("page-title", { humanVerdict: "pass" });
    const answers = await Promise.all(Array.from({ length: 50 }, () => submit(body)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 409, "FEEDBACK_ALREADY_GIVEN");
    expect(await balance()).toBe(before + 1);
    expect(payouts().filter((e) => (e.data as any).feedback.validationId === "page-title")).toHaveLength(1);
  });

  test("an errored, refunded row earns nothing: rewardCredits 0 and no grant", async () => {
    const job = await server.api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `${target.url.origin}/`, validations: ["page-title"] },
    });
    expect(job.body.results[0].verdict).toBe("error");
    const q = await server.api("GET", `/api/feedback/questions?jobId=${job.body.jobId}&validationId=page-title`, {
      key,
    });
    expect(q.body).toMatchObject({ storedVerdict: "error", rewardCredits: 0 });
    expect(q.body.questions[0].text).toContain("could not run");
    const grants = payouts().length;
    const res = await submit(
      looksWrong("page-title", { humanVerdict: "error", feedbackNotes: "The page answers 500." }, job.body.jobId),
    );
    expect(res.body.payout).toEqual({ credits: 0, balanceAfter: await balance() });
    expect(payouts()).toHaveLength(grants);
  });
});

describe("queued sets, per credential, one at a time", () => {
  test("the job set is due after a settled job; the standard set waits behind it", async () => {
    expect((await server.api("GET", "/api/feedback/due", { key })).body).toEqual({
      due: true,
      setId: "first-job",
      questionCount: 3,
      rewardCredits: 5,
    });
    const other = await server.api("GET", "/api/feedback/due", { key: otherKey });
    expect(other.body).toEqual({ due: false, setId: null, questionCount: 0, rewardCredits: 0 });
    expect((await server.api("GET", "/api/feedback/questions", { key: otherKey })).body).toEqual({ due: false });
    const essentials = await server.api("POST", "/api/jobs", {
      key,
      body: htmlJob(PAGE, undefined, { validationSetId: "web-essentials" }),
    });
    expect(essentials.status).toBe(200);
    const standard = {
      setId: "web-essentials-coverage",
      jobId: essentials.body.jobId,
      answers: [
        { questionId: "missingChecks", value: [] },
        { questionId: "comments", value: null },
      ],
    };
    await refused(submit(standard), 409, "FEEDBACK_NOT_DUE", {
      setId: "web-essentials-coverage",
      expectedSetId: "first-job",
    });
    await refused(submit({ ...standard, jobId: undefined }), 400, "FEEDBACK_ANCHOR_REQUIRED", {
      setId: "web-essentials-coverage",
      needs: ["jobId"],
      validationSetId: "web-essentials",
    });
    await refused(submit({ ...standard, jobId }), 400, "FEEDBACK_ANCHOR_REQUIRED", {
      setId: "web-essentials-coverage",
      needs: ["jobId"],
      validationSetId: "web-essentials",
      jobId,
    });
    expectError(
      await server.api("GET", "/api/feedback/questions?setId=web-essentials-coverage", { key }),
      409,
      "FEEDBACK_NOT_DUE",
    );

    const served = await server.api("GET", "/api/feedback/questions", { key });
    expect(served.body).toMatchObject({
      due: true,
      setId: "first-job",
      scope: "job",
      jobId: essentials.body.jobId,
      rewardCredits: 5,
      questionCount: 3,
    });
    expect(served.body.questions.map((q: any) => q.shape.kind)).toEqual(["rating", "single_choice", "boolean"]);
    const jobSet = (rating: unknown) => ({
      setId: "first-job",
      answers: [
        { questionId: "usefulness", value: rating },
        { questionId: "nextStep", value: "fix the page" },
        { questionId: "wouldRecommend", value: true },
      ],
    });
    await refused(submit(jobSet(6)), 400, "FEEDBACK_ANSWERS_INVALID", {
      setId: "first-job",
      problems: [{ questionId: "usefulness", problem: "must be a whole number from 1 to 5" }],
    });
    const before = await balance();
    const paid = await submit(jobSet(4));
    expect(paid.body).toMatchObject({
      setId: "first-job",
      jobId: essentials.body.jobId,
      payout: { credits: 5, balanceAfter: before + 5 },
    });
    await refused(submit(jobSet(4)), 409, "FEEDBACK_ALREADY_GIVEN", {
      setId: "first-job",
      jobId: essentials.body.jobId,
    });

    // After a submission, asking again serves the next set.
    expect((await server.api("GET", "/api/feedback/due", { key })).body).toEqual({
      due: true,
      setId: "web-essentials-coverage",
      questionCount: 2,
      rewardCredits: 3,
    });
    await refused(
      submit({
        ...standard,
        answers: [
          { questionId: "missingChecks", value: ["page speed", "page speed"] },
          { questionId: "comments", value: null },
        ],
      }),
      400,
      "FEEDBACK_ANSWERS_INVALID",
      {
        setId: "web-essentials-coverage",
        problems: [{ questionId: "missingChecks", problem: "names an option twice" }],
      },
    );
    expect((await submit(standard)).body.payout).toEqual({ credits: 3, balanceAfter: before + 8 });
    expect((await server.api("GET", "/api/feedback/due", { key })).body).toEqual({
      due: false,
      setId: null,
      questionCount: 0,
      rewardCredits: 0,
    });
  });

  test("another key of the same organization has its own queue", async () => {
    const minted = await runCli(
      ["key", "mint", "--customer", customerId, "--scope", "feedback:write", "jobs:write", "jobs:read"],
      server.env,
    );
    expect(minted.code).toBe(0);
    const second = JSON.parse(minted.stdout).apiKey as string;
    expect((await server.api("GET", "/api/feedback/due", { key: second })).body.due).toBe(false);
    await server.api("POST", "/api/jobs", { key: second, body: htmlJob(PAGE, ["page-title"]) });
    expect((await server.api("GET", "/api/feedback/due", { key: second })).body).toMatchObject({
      due: true,
      setId: "first-job",
    });
  });
});

describe("the operator", () => {
  test("ledger verify accounts for every payout; replay rebuilds the queue and the filed feedback", async () => {
    const verify = await runCli(["ledger", "verify", "--json"], server.env);
    expect(verify.code).toBe(0);
    expect(JSON.parse(verify.stdout).balances[customerId]).toBe(await balance());
    const due = (await server.api("GET", "/api/feedback/due", { key })).body;
    const filed = (await server.api("GET", `/api/feedback?jobId=${jobId}&validationId=single-h1`, { key })).body;
    expect((await runCli(["replay"], server.env)).code).toBe(0);
    expect((await server.api("GET", "/api/feedback/due", { key })).body).toEqual(due);
    expect((await server.api("GET", `/api/feedback?jobId=${jobId}&validationId=single-h1`, { key })).body).toEqual(
      filed,
    );
  });

  test("assay feedback report: per check, disputes by direction and the notes, newest first", async () => {
    const res = await runCli(["feedback", "report", "--json"], server.env);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(
      report.checks.map((c: any) => [c.validationId, c.feedback, c.disputed, c.falseFail, c.missedProblem, c.error]),
    ).toEqual([
      ["single-h1", 1, 1, 1, 0, 0],
      ["page-title", 2, 0, 0, 0, 0],
    ]);
    expect(report.checks[0].notes).toEqual([
      expect.objectContaining({
        jobId,
        storedVerdict: "fail",
        humanVerdict: "pass",
        aiMistakeNotes: "Two h1 is fine in this template: one is the logo.",
      }),
    ]);
    expect(report.checks[1].notes.map((n: any) => n.feedbackNotes)).toEqual(["The page answers 500."]);
    const text = await runCli(["feedback", "report", "--since", "2999-01-01"], server.env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("No feedback");
  });

  test("a sets file that does not validate stops the start, naming the file and the problem", async () => {
    const file = join(tempDataDir(), "sets.json");
    writeFileSync(
      file,
      JSON.stringify({ sets: [{ setId: "only-job", scope: "job", title: "T", rewardCredits: -1, questions: [] }] }),
    );
    await expect(startServer({ ASSAY_FEEDBACK_SETS_FILE: file })).rejects.toThrow(
      `Feedback sets file ${file} is invalid: /sets/0/rewardCredits: Expected integer to be greater or equal to 0`,
    );
  });
});
