import type { NewEvent, StreamWrite } from "../store/event-store";
import type { PlannedJob } from "./job-request";
import type { Finding, Outcome, Severity } from "../validations/types";
import { decide as decideCredits, type CreditLedgerState } from "./credits";
import { streams } from "./accounts";
import { sha256Hex } from "../store/canonical";

/** The job lifecycle as decisions over a planned job: accept-and-charge, then settle. */

export function decideAcceptance(
  jobId: string,
  customerId: string,
  job: PlannedJob,
  credits: CreditLedgerState & { streamVersion: number },
  inbox?: { testEmail: string; expiresAt: string },
): StreamWrite[] {
  const charge = decideCredits(
    { kind: "charge", customerId, jobId, lines: job.run.map((v) => ({ validationId: v.module.meta.id, credits: v.credits })) },
    credits,
  );
  const accepted: NewEvent = {
    type: "JobAccepted",
    data: {
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
      validations: job.run.map((v) => ({ id: v.module.meta.id, severity: v.severity, parameters: v.parameters, credits: v.credits, fromSet: v.fromSet, ...(v.clients ? { clients: v.clients } : {}) })),
      skipped: job.skipped,
      totalCredits: job.totalCredits,
      detail: job.detail,
    },
  };
  return [
    { streamId: streams.job(jobId), expectedVersion: 0, events: [accepted] },
    { streamId: streams.credits(customerId), expectedVersion: credits.streamVersion, events: charge },
  ];
}

export interface RecordedResult {
  validationId: string;
  severity: Severity;
  credits: number;
  outcome: Outcome;
  captureKeys: string[];
  durationMs: number;
  /** Part of a delivered row's credits given back: an email client that could not be rendered (its render's price). */
  refund?: { credits: number; reason: string };
}

export function resultEvent(jobId: string, r: RecordedResult): NewEvent {
  return {
    type: "ResultRecorded",
    data: {
      jobId,
      validationId: r.validationId,
      verdict: r.outcome.verdict,
      severity: r.severity,
      ...(r.outcome.reason !== undefined ? { reason: r.outcome.reason } : {}),
      reasoning: r.outcome.reasoning,
      findings: r.outcome.findings.map(cleanFinding),
      captureKeys: r.captureKeys,
      durationMs: Math.round(r.durationMs * 10) / 10,
    },
  };
}

function cleanFinding(f: Finding): Finding {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined)) as Finding;
}

/** Settlement: errored rows are refunded in full, a delivered row's undelivered part (a failed email render) in part; the rest stays charged. */
export function decideSettlement(
  jobId: string,
  customerId: string,
  results: RecordedResult[],
  captureEvents: NewEvent[],
  charged: number,
  versions: { job: number; credits: number },
  interruption?: string,
  email?: { from: string; subject: string; expectedSubject?: string; subjectMatches?: boolean },
): StreamWrite[] {
  const refundLines = results.flatMap((r) =>
    r.outcome.verdict === "error"
      ? [{ validationId: r.validationId, credits: r.credits, reason: r.outcome.reason ?? "the check could not run" }]
      : r.refund && r.refund.credits > 0
        ? [{ validationId: r.validationId, credits: Math.min(r.refund.credits, r.credits), reason: r.refund.reason }]
        : [],
  );
  const refund = decideCredits({ kind: "refund", customerId, jobId, lines: refundLines }, { balance: 0 });
  const refunded = refundLines.reduce((n, l) => n + l.credits, 0);
  return [
    {
      streamId: streams.job(jobId),
      expectedVersion: versions.job,
      events: [
        ...captureEvents,
        ...results.map((r) => resultEvent(jobId, r)),
        {
          type: "JobSettled",
          data: {
            jobId,
            status: interruption ? "interrupted" : "completed",
            charged,
            refunded,
            ...(interruption ? { interruption } : {}),
            ...(email ? { email } : {}),
          },
        },
      ],
    },
    ...(refund.length ? [{ streamId: streams.credits(customerId), expectedVersion: versions.credits, events: refund }] : []),
  ];
}

/** An email job whose message never came: closed as expired, every credit refunded. */
export function decideExpiry(
  jobId: string,
  customerId: string,
  lines: Array<{ validationId: string; credits: number }>,
  charged: number,
  versions: { job: number; credits: number },
): StreamWrite[] {
  const reason = "no message arrived at the test address before it expired";
  const refund = decideCredits({ kind: "refund", customerId, jobId, lines: lines.map((l) => ({ ...l, reason })) }, { balance: 0 });
  return [
    {
      streamId: streams.job(jobId),
      expectedVersion: versions.job,
      events: [{ type: "JobSettled", data: { jobId, status: "expired", charged, refunded: charged, interruption: `The job expired: ${reason}.` } }],
    },
    ...(refund.length ? [{ streamId: streams.credits(customerId), expectedVersion: versions.credits, events: refund }] : []),
  ];
}
