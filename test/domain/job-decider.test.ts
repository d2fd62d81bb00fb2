import { expect, test } from "bun:test";
import {
  decide,
  evolve,
  initialJobState,
  jobState,
  JobStateError,
  mailboxState,
  type JobEvent,
  type JobState,
  type RecordedResult,
} from "../../src/domain/jobs";
import type { PlannedJob } from "../../src/domain/planned-job";
import { findValidation } from "../../src/catalog/registry";
import type { NewEvent, StreamWrite } from "../../src/store/event-log";

/** The job decider on its own: no store, no browser. State is always the fold of what decide returned. */

const customerId = "cus_a";
const jobId = "job_1";
const credits = { balance: 10, streamVersion: 1, existingCharge: null };

function planned(type: PlannedJob["type"], ids: string[]): PlannedJob {
  const run = ids.map((id) => ({
    module: findValidation(id)!,
    severity: "major" as const,
    parameters: {},
    credits: 2,
    fromSet: false,
  }));
  return {
    type,
    ...(type === "email" ? {} : { html: "<title>t</title>", baseUrl: "https://example.com/" }),
    run,
    skipped: [],
    detail: "brief",
    totalCredits: run.reduce((n, v) => n + v.credits, 0),
  };
}

const jobEvents = (writes: StreamWrite[]) =>
  writes.filter((w) => w.streamId === `job-${jobId}`).flatMap((w) => w.events) as unknown as JobEvent[];
const creditEvents = (writes: StreamWrite[]): NewEvent[] =>
  writes.filter((w) => w.streamId === `credits-${customerId}`).flatMap((w) => w.events);
const fold = (state: JobState, writes: StreamWrite[]) => jobEvents(writes).reduce(evolve, state);

function row(
  validationId: string,
  verdict: "pass" | "fail" | "error",
  extra: Partial<RecordedResult> = {},
): RecordedResult {
  return {
    validationId,
    severity: "major",
    credits: 2,
    outcome: { verdict, reasoning: verdict, findings: [], ...(verdict === "error" ? { reason: "it crashed" } : {}) },
    captureKeys: [],
    durationMs: 1,
    ...extra,
  };
}

function refused(fn: () => unknown): JobStateError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(JobStateError);
    return e as JobStateError;
  }
  throw new Error("the decider did not refuse");
}

function accepted(job = planned("static_html", ["page-title", "single-h1"])): JobState {
  return fold(initialJobState, decide({ kind: "accept", jobId, customerId, job }, { job: initialJobState, credits }));
}

test("accept decides JobAccepted on a new job stream and the charge on the ledger; evolve folds status and charge", () => {
  const writes = decide(
    { kind: "accept", jobId, customerId, job: planned("static_html", ["page-title", "single-h1"]) },
    { job: initialJobState, credits },
  );
  expect(writes.map((w) => [w.streamId, w.expectedVersion])).toEqual([
    [`job-${jobId}`, 0],
    [`credits-${customerId}`, 1],
  ]);
  expect(jobEvents(writes).map((e) => e.type)).toEqual(["JobAccepted"]);
  expect(creditEvents(writes)).toEqual([
    {
      type: "CreditsCharged",
      data: {
        customerId,
        jobId,
        amount: 4,
        lines: [
          { validationId: "page-title", credits: 2 },
          { validationId: "single-h1", credits: 2 },
        ],
      },
    },
  ]);
  const state = fold(initialJobState, writes);
  expect(state).toMatchObject({ version: 1, status: "running", charged: 4, refunded: 0, email: null });
  expect(state.accepted?.subject.htmlSha256).toHaveLength(64);
  expect(
    refused(() =>
      decide(
        { kind: "accept", jobId, customerId, job: planned("static_html", ["page-title"]) },
        { job: state, credits },
      ),
    ).message,
  ).toContain("already accepted");
});

test("settle records captures and results, refunds errored rows in full and an undelivered part by its price, and folds the refund", () => {
  const state = accepted();
  const writes = decide(
    {
      kind: "settle",
      results: [
        row("page-title", "error"),
        row("single-h1", "pass", { undelivered: { credits: 5, reason: "could not render in X" } }),
      ],
      captures: [
        {
          key: `${jobId}-desktop-md.jpg`,
          viewport: "desktop-md",
          contentType: "image/jpeg",
          bytes: 3,
          sha256: "a".repeat(64),
        },
      ],
    },
    { job: state, credits },
  );
  expect(writes[0]!.expectedVersion).toBe(1);
  expect(jobEvents(writes).map((e) => e.type)).toEqual([
    "CaptureStored",
    "ResultRecorded",
    "ResultRecorded",
    "JobSettled",
  ]);
  expect(jobEvents(writes)[0]!.data).toMatchObject({ jobId, customerId, key: `${jobId}-desktop-md.jpg` });
  // The undelivered part is refunded at most the row's price (2 of 5).
  expect(creditEvents(writes)).toEqual([
    {
      type: "CreditsRefunded",
      data: {
        customerId,
        jobId,
        amount: 4,
        lines: [
          { validationId: "page-title", credits: 2, reason: "it crashed" },
          { validationId: "single-h1", credits: 2, reason: "could not render in X" },
        ],
      },
    },
  ]);
  const settled = fold(state, writes);
  expect(settled).toMatchObject({ version: 5, status: "completed", charged: 4, refunded: 4 });
});

test("a settled job refuses a second settlement and an expiry", () => {
  const settled = fold(
    accepted(),
    decide(
      { kind: "settle", results: [row("page-title", "pass"), row("single-h1", "fail")], captures: [] },
      { job: accepted(), credits },
    ),
  );
  expect(settled.status).toBe("completed");
  expect(
    refused(() => decide({ kind: "settle", results: [], captures: [] }, { job: settled, credits })).message,
  ).toContain("is completed");
  expect(
    refused(() => decide({ kind: "expire", now: new Date(Date.now() + 1e9) }, { job: settled, credits })).message,
  ).toContain("is completed");
});

test("an interrupted settlement folds as interrupted; a job never accepted cannot settle", () => {
  const state = accepted();
  const writes = decide(
    {
      kind: "settle",
      results: [row("page-title", "error"), row("single-h1", "error")],
      captures: [],
      interruption: "DNS failed",
    },
    { job: state, credits },
  );
  expect(fold(state, writes)).toMatchObject({ status: "interrupted", refunded: 4 });
  expect(
    refused(() => decide({ kind: "settle", results: [], captures: [] }, { job: initialJobState, credits })).message,
  ).toContain("no such job");
});

test("an email job takes one message while its window is open; expiry only after the window, refunding everything, and never twice", () => {
  const now = new Date("2030-01-01T00:00:00.000Z");
  const expiresAt = "2030-01-01T00:10:00.000Z";
  const job = planned("email", ["email-subject-length"]);
  const acceptance = decide(
    { kind: "accept", jobId, customerId, job, inbox: { testEmail: "t-x@inbox.test", expiresAt } },
    { job: initialJobState, credits },
  );
  const waiting = fold(initialJobState, acceptance);
  expect(waiting.status).toBe("pending");
  expect(mailboxState(waiting, now)).toBe("waiting");
  expect(mailboxState(waiting, new Date(expiresAt))).toBe("expired");

  // Expiry before the window closed is refused; after, it refunds the whole charge.
  expect(refused(() => decide({ kind: "expire", now }, { job: waiting, credits })).message).toContain("not expired");
  const expiry = decide({ kind: "expire", now: new Date(expiresAt) }, { job: waiting, credits });
  expect(creditEvents(expiry)[0]!.data).toMatchObject({ amount: 2 });
  const expired = fold(waiting, expiry);
  expect(expired).toMatchObject({ status: "expired", charged: 2, refunded: 2 });
  expect(mailboxState(expired, now)).toBe("expired");
  expect(() => decide({ kind: "expire", now: new Date(expiresAt) }, { job: expired, credits })).toThrow(JobStateError);

  // A message in the window is recorded once; a second one is refused, and so is expiry of a job that has its message.
  const message = {
    raw: new TextEncoder().encode("Subject: hi\r\n\r\nbody"),
    storageKey: `${jobId}.eml`,
    envelope: { mailFrom: "a@b.test", rcptTo: ["t-x@inbox.test"] },
    from: "a@b.test",
    subject: "hi",
  };
  const arrival = decide({ kind: "receiveEmail", message, now }, { job: waiting, credits });
  expect(jobEvents(arrival)[0]!.data).toMatchObject({
    jobId,
    customerId,
    storageKey: `${jobId}.eml`,
    bytes: message.raw.length,
    from: "a@b.test",
    subject: "hi",
  });
  const received = fold(waiting, arrival);
  expect(received).toMatchObject({ status: "received", email: { storageKey: `${jobId}.eml` } });
  expect(mailboxState(received, now)).toBe("used");
  expect(() => decide({ kind: "receiveEmail", message, now }, { job: received, credits })).toThrow(JobStateError);
  expect(() => decide({ kind: "expire", now: new Date(expiresAt) }, { job: received, credits })).toThrow(JobStateError);
  expect(() => decide({ kind: "receiveEmail", message, now: new Date(expiresAt) }, { job: waiting, credits })).toThrow(
    JobStateError,
  );
  expect(jobState([...jobEvents(acceptance), ...jobEvents(arrival)])).toEqual(received);
});

test("interrupt closes a running job once: every check an error row with the cause, the whole charge refunded, status interrupted", () => {
  const state = accepted();
  const cause = "The server restarted while this job ran";
  const writes = decide({ kind: "interrupt", cause }, { job: state, credits });
  expect(writes.map((w) => [w.streamId, w.expectedVersion])).toEqual([
    [`job-${jobId}`, 1],
    [`credits-${customerId}`, 1],
  ]);
  expect(jobEvents(writes).map((e) => e.type)).toEqual(["ResultRecorded", "ResultRecorded", "JobSettled"]);
  expect(
    jobEvents(writes)
      .slice(0, 2)
      .map((e) => e.data),
  ).toEqual(
    ["page-title", "single-h1"].map((validationId) => ({
      jobId,
      validationId,
      verdict: "error",
      severity: "major",
      reason: cause,
      reasoning: cause,
      findings: [],
      captureKeys: [],
      durationMs: 0,
    })),
  );
  expect(jobEvents(writes)[2]!.data).toEqual({
    jobId,
    status: "interrupted",
    charged: 4,
    refunded: 4,
    interruption: cause,
  });
  expect(creditEvents(writes)).toEqual([
    {
      type: "CreditsRefunded",
      data: {
        customerId,
        jobId,
        amount: 4,
        lines: [
          { validationId: "page-title", credits: 2, reason: cause },
          { validationId: "single-h1", credits: 2, reason: cause },
        ],
      },
    },
  ]);
  const interrupted = fold(state, writes);
  expect(interrupted).toMatchObject({ version: 4, status: "interrupted", charged: 4, refunded: 4 });
  // A second start finds it closed: no second interruption, no settlement after it.
  expect(refused(() => decide({ kind: "interrupt", cause }, { job: interrupted, credits })).message).toContain(
    "is interrupted",
  );
  expect(
    refused(() => decide({ kind: "settle", results: [], captures: [] }, { job: interrupted, credits })).message,
  ).toContain("is interrupted");
});

test("interrupt is refused for a job that is not being checked: settled, expired, never accepted, or an email job still waiting for its message", () => {
  const cause = "restarted";
  const completed = fold(
    accepted(),
    decide(
      { kind: "settle", results: [row("page-title", "pass"), row("single-h1", "pass")], captures: [] },
      { job: accepted(), credits },
    ),
  );
  expect(refused(() => decide({ kind: "interrupt", cause }, { job: completed, credits })).message).toContain(
    "is completed",
  );
  expect(refused(() => decide({ kind: "interrupt", cause }, { job: initialJobState, credits })).message).toContain(
    "no such job",
  );

  const expiresAt = "2030-01-01T00:10:00.000Z";
  const waiting = fold(
    initialJobState,
    decide(
      {
        kind: "accept",
        jobId,
        customerId,
        job: planned("email", ["email-subject-length"]),
        inbox: { testEmail: "t-x@inbox.test", expiresAt },
      },
      { job: initialJobState, credits },
    ),
  );
  expect(refused(() => decide({ kind: "interrupt", cause }, { job: waiting, credits })).message).toContain(
    "is pending",
  );
  const expired = fold(waiting, decide({ kind: "expire", now: new Date(expiresAt) }, { job: waiting, credits }));
  expect(refused(() => decide({ kind: "interrupt", cause }, { job: expired, credits })).message).toContain(
    "is expired",
  );

  // An email job whose message arrived is being checked: it can be interrupted, its whole charge refunded.
  const message = {
    raw: new TextEncoder().encode("Subject: hi\r\n\r\nbody"),
    storageKey: `${jobId}.eml`,
    envelope: { mailFrom: "a@b.test", rcptTo: ["t-x@inbox.test"] },
    from: "a@b.test",
    subject: "hi",
  };
  const received = fold(
    waiting,
    decide({ kind: "receiveEmail", message, now: new Date("2030-01-01T00:00:00.000Z") }, { job: waiting, credits }),
  );
  expect(fold(received, decide({ kind: "interrupt", cause }, { job: received, credits }))).toMatchObject({
    status: "interrupted",
    charged: 2,
    refunded: 2,
  });
});
