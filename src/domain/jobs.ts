import type { NewEvent, StreamWrite } from "../store/event-log";
import type { PlannedJob } from "./planned-job";
import type { Finding, Outcome, Severity } from "../validations/types";
import { decide as decideCredits, type CreditLedgerState } from "./credits";
import { streams } from "./accounts";
import { sha256Hex } from "../store/canonical";
import type {
  CaptureStoredData,
  EmailReceivedData,
  JobAcceptedData,
  JobSettledData,
  ResultRecordedData,
  jobEvents,
} from "../../events/jobs";
import type { EventUnion } from "../../events/shared";
import type { RenderRecordData } from "../../events/jobs";

/**
 * The job as a decider: decide(command, state) -> writes; evolve(state, event) -> state over the job's own
 * stream (`job-<jobId>`). The state says what the job may still do, so the domain itself refuses a second
 * settlement, an expiry after settlement, an interruption of a closed job, or a second message for one test address.
 */

/** The events of one job's stream. */
export type JobEvent = EventUnion<typeof jobEvents>;

/**
 * running: a url/static_html job being checked; pending: an email job waiting for its message; received: its
 * message arrived and is being checked; the last three are closed for good.
 */
export type JobStatus = "running" | "pending" | "received" | JobSettledData["status"];

export interface JobState {
  /** Events on the job's stream so far: the version the next write expects. */
  version: number;
  /** Null until the job is accepted. */
  accepted: JobAcceptedData | null;
  status: JobStatus | null;
  charged: number;
  refunded: number;
  /** Email jobs: the message that arrived, once it has. */
  email: EmailReceivedData | null;
}

export const initialJobState: JobState = {
  version: 0,
  accepted: null,
  status: null,
  charged: 0,
  refunded: 0,
  email: null,
};

export function evolve(state: JobState, e: JobEvent): JobState {
  const next = { ...state, version: state.version + 1 };
  switch (e.type) {
    case "JobAccepted":
      return {
        ...next,
        accepted: e.data,
        status: e.data.type === "email" ? "pending" : "running",
        charged: e.data.totalCredits,
      };
    case "EmailReceived":
      return { ...next, status: "received", email: e.data };
    case "JobSettled":
      return { ...next, status: e.data.status, charged: e.data.charged, refunded: e.data.refunded };
    case "CaptureStored":
    case "ResultRecorded":
      return next;
  }
}

/** The state of a job from its stream, oldest event first. */
export const jobState = (events: readonly JobEvent[]): JobState => events.reduce(evolve, initialJobState);

/**
 * Whether an email job's test address takes its one message now: waiting, already used (a message came, or
 * the job closed), or expired (its window passed with no message).
 */
export function mailboxState(state: JobState, now: Date): "waiting" | "used" | "expired" {
  // Settled by the expiry sweep: the window passed without a message, so the address expired (it was never used).
  if (state.status === "expired") return "expired";
  if (state.status !== "pending") return "used";
  return state.accepted!.subject.expiresAt! <= now.toISOString() ? "expired" : "waiting";
}

/** A command refused because of where the job is in its lifecycle (e.g. settling a job already closed). */
export class JobStateError extends Error {}

export interface RecordedResult {
  validationId: string;
  severity: Severity;
  credits: number;
  outcome: Outcome;
  captureKeys: string[];
  /** Email renders the row read, with what each client's profile did to the message. */
  renders?: RenderRecordData[];
  durationMs: number;
  /** Parts of a delivered row that were not delivered (an email client that could not be rendered) and their price. */
  undelivered?: { credits: number; reason: string };
}

/** A screenshot written under DATA_DIR/captures, to be recorded by CaptureStored. */
export type StoredFile = Omit<CaptureStoredData, "jobId" | "customerId">;

/** The received message as the inbox handed it over, and where its bytes were kept. */
export interface ReceivedMessage {
  raw: Uint8Array;
  storageKey: string;
  envelope: EmailReceivedData["envelope"];
  /** The From and Subject header lines as they arrived (not decoded). */
  from: string;
  subject: string;
}

export type JobCommand =
  | {
      kind: "accept";
      jobId: string;
      customerId: string;
      job: PlannedJob;
      inbox?: { testEmail: string; expiresAt: string };
    }
  | { kind: "receiveEmail"; message: ReceivedMessage; now: Date }
  | {
      kind: "settle";
      results: RecordedResult[];
      captures: StoredFile[];
      interruption?: string;
      email?: JobSettledData["email"];
    }
  | { kind: "expire"; now: Date }
  | { kind: "interrupt"; cause: string };

/** What a decision reads: the job's own state, and the ledger of the organization it charges. */
export interface JobDecisionState {
  job: JobState;
  credits: CreditLedgerState & { streamVersion: number };
}

export function decide(cmd: JobCommand, state: JobDecisionState): StreamWrite[] {
  switch (cmd.kind) {
    case "accept":
      if (state.job.accepted) throw new JobStateError(`job ${cmd.jobId} was already accepted`);
      return accept(cmd.jobId, cmd.customerId, cmd.job, state.credits, cmd.inbox);
    case "receiveEmail": {
      const job = open(state.job, ["pending"], "receive a message");
      if (mailboxState(state.job, cmd.now) !== "waiting")
        throw new JobStateError(`job ${job.jobId}'s test address has expired`);
      return [
        {
          streamId: streams.job(job.jobId),
          expectedVersion: state.job.version,
          events: [emailReceived(job, cmd.message)],
        },
      ];
    }
    case "settle": {
      const job = open(state.job, ["running", "received"], "settle");
      return settle(job, state, cmd);
    }
    case "expire": {
      const job = open(state.job, ["pending"], "expire");
      if (mailboxState(state.job, cmd.now) !== "expired")
        throw new JobStateError(`job ${job.jobId}'s test address has not expired yet`);
      return expire(job, state);
    }
    case "interrupt": {
      // Only a job being checked: a pending email job is still waiting for its message, and a settled one is closed.
      const job = open(state.job, ["running", "received"], "interrupt");
      return settle(job, state, {
        kind: "settle",
        results: interruptedRows(job, cmd.cause),
        captures: [],
        interruption: cmd.cause,
      });
    }
  }
}

/** The accepted job, if its status allows the command; a JobStateError otherwise. */
function open(state: JobState, allowed: JobStatus[], what: string): JobAcceptedData {
  if (!state.accepted || !state.status) throw new JobStateError(`cannot ${what}: no such job`);
  if (!allowed.includes(state.status))
    throw new JobStateError(`cannot ${what}: job ${state.accepted.jobId} is ${state.status}`);
  return state.accepted;
}

/** Accept and charge, in one append with the balance check. */
function accept(
  jobId: string,
  customerId: string,
  job: PlannedJob,
  credits: JobDecisionState["credits"],
  inbox?: { testEmail: string; expiresAt: string },
): StreamWrite[] {
  const charge = decideCredits(
    {
      kind: "charge",
      customerId,
      jobId,
      lines: job.run.map((v) => ({ validationId: v.module.meta.id, credits: v.credits })),
    },
    credits,
  );
  const data: JobAcceptedData = {
    jobId,
    customerId,
    type: job.type,
    subject: {
      ...(job.url !== undefined ? { url: job.url } : {}),
      ...(job.baseUrl !== undefined ? { baseUrl: job.baseUrl } : {}),
      ...(job.html !== undefined ? { htmlSha256: sha256Hex(job.html), htmlBytes: Buffer.byteLength(job.html) } : {}),
      ...(job.emailSubject !== undefined ? { emailSubject: job.emailSubject } : {}),
      ...(inbox ?? {}),
    },
    ...(job.validationSetId ? { validationSetId: job.validationSetId } : {}),
    validations: job.run.map((v) => ({
      id: v.module.meta.id,
      severity: v.severity,
      ...(v.policySeverity ? { policySeverity: v.policySeverity } : {}),
      parameters: v.parameters,
      credits: v.credits,
      fromSet: v.fromSet,
      ...(v.clients ? { clients: v.clients } : {}),
      ...(v.engines ? { engines: v.engines } : {}),
    })),
    skipped: job.skipped,
    totalCredits: job.totalCredits,
    detail: job.detail,
  };
  return [
    { streamId: streams.job(jobId), expectedVersion: 0, events: [{ type: "JobAccepted", data }] },
    { streamId: streams.credits(customerId), expectedVersion: credits.streamVersion, events: charge },
  ];
}

function emailReceived(job: JobAcceptedData, m: ReceivedMessage): NewEvent {
  const data: EmailReceivedData = {
    jobId: job.jobId,
    customerId: job.customerId,
    storageKey: m.storageKey,
    sha256: sha256Hex(m.raw),
    bytes: m.raw.length,
    envelope: m.envelope,
    from: m.from.slice(0, 500),
    subject: m.subject.slice(0, 1000),
  };
  return { type: "EmailReceived", data };
}

function captureStored(job: JobAcceptedData, file: StoredFile): NewEvent {
  const data: CaptureStoredData = { jobId: job.jobId, customerId: job.customerId, ...file };
  return { type: "CaptureStored", data };
}

function resultRecorded(jobId: string, r: RecordedResult): NewEvent {
  const data: ResultRecordedData = {
    jobId,
    validationId: r.validationId,
    verdict: r.outcome.verdict,
    severity: r.severity,
    ...(r.outcome.reason !== undefined ? { reason: r.outcome.reason } : {}),
    reasoning: r.outcome.reasoning,
    findings: r.outcome.findings.map(cleanFinding),
    captureKeys: r.captureKeys,
    ...(r.renders?.length ? { renders: r.renders } : {}),
    durationMs: Math.round(r.durationMs * 10) / 10,
    ...(r.outcome.reasonCode ? { reasonCode: r.outcome.reasonCode } : {}),
    ...(r.outcome.judge
      ? {
          judge: {
            ...r.outcome.judge,
            inspection: {
              ...r.outcome.judge.inspection,
              findings: r.outcome.judge.inspection.findings.map(cleanFinding),
            },
          },
        }
      : {}),
  };
  return { type: "ResultRecorded", data };
}

function cleanFinding(f: Finding): Finding {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Finding;
}

/**
 * The one refund rule: an errored row is refunded in full; a delivered row gives back the price of its
 * undelivered parts (a mail client that could not be rendered), at most what the row cost; the rest stays charged.
 */
export function refundOf(r: RecordedResult): { credits: number; reason: string } | null {
  if (r.outcome.verdict === "error")
    return { credits: r.credits, reason: r.outcome.reason ?? "the check could not run" };
  if (r.undelivered && r.undelivered.credits > 0)
    return { credits: Math.min(r.undelivered.credits, r.credits), reason: r.undelivered.reason };
  return null;
}

function settle(
  job: JobAcceptedData,
  state: JobDecisionState,
  cmd: Extract<JobCommand, { kind: "settle" }>,
): StreamWrite[] {
  const refundLines = cmd.results.flatMap((r) => {
    const refund = refundOf(r);
    return refund ? [{ validationId: r.validationId, ...refund }] : [];
  });
  const refund = decideCredits(
    { kind: "refund", customerId: job.customerId, jobId: job.jobId, lines: refundLines },
    { balance: 0 },
  );
  const settled: JobSettledData = {
    jobId: job.jobId,
    status: cmd.interruption ? "interrupted" : "completed",
    charged: state.job.charged,
    refunded: refundLines.reduce((n, l) => n + l.credits, 0),
    ...(cmd.interruption ? { interruption: cmd.interruption } : {}),
    ...(cmd.email ? { email: cmd.email } : {}),
  };
  return [
    {
      streamId: streams.job(job.jobId),
      expectedVersion: state.job.version,
      events: [
        ...cmd.captures.map((file) => captureStored(job, file)),
        ...cmd.results.map((r) => resultRecorded(job.jobId, r)),
        { type: "JobSettled", data: settled },
      ],
    },
    ...(refund.length
      ? [{ streamId: streams.credits(job.customerId), expectedVersion: state.credits.streamVersion, events: refund }]
      : []),
  ];
}

/** A job that could not finish: every selected check an error row saying why, so each is refunded in full. */
function interruptedRows(job: JobAcceptedData, cause: string): RecordedResult[] {
  return job.validations.map((v) => ({
    validationId: v.id,
    severity: v.severity,
    credits: v.credits,
    outcome: { verdict: "error", reason: cause, reasoning: cause, findings: [] },
    captureKeys: [],
    durationMs: 0,
  }));
}

/** An email job whose message never came: closed as expired, every credit refunded. */
function expire(job: JobAcceptedData, state: JobDecisionState): StreamWrite[] {
  const reason = "no message arrived at the test address before it expired";
  const lines = job.validations.map((v) => ({ validationId: v.id, credits: v.credits, reason }));
  const refund = decideCredits({ kind: "refund", customerId: job.customerId, jobId: job.jobId, lines }, { balance: 0 });
  const settled: JobSettledData = {
    jobId: job.jobId,
    status: "expired",
    charged: state.job.charged,
    refunded: state.job.charged,
    interruption: `The job expired: ${reason}.`,
  };
  return [
    {
      streamId: streams.job(job.jobId),
      expectedVersion: state.job.version,
      events: [{ type: "JobSettled", data: settled }],
    },
    ...(refund.length
      ? [{ streamId: streams.credits(job.customerId), expectedVersion: state.credits.streamVersion, events: refund }]
      : []),
  ];
}
