import { AppError } from "../errors/app-error";
import { findValidation } from "../catalog/registry";
import type { JobRow, ResultRow } from "../../projections/jobs";
import type { CaptureService } from "./captures";
import { engineOfCaptureKey } from "./engine-renders";
import type { Static } from "@sinclair/typebox";
import type { Job } from "../contracts/job";
import { CAPTURE_SIZES } from "../capture/vocabulary";
import { passPolicy, policySeverity, type PolicyRow, type PolicySeverity } from "../domain/pass-policy";
import type { SkippedValidation } from "../domain/planned-job";
import { RULE_SOURCES } from "../capture/mail-clients/rule-sources";
import type { RuleSourceId } from "../capture/mail-clients/sanitize-record";

/** A job as every surface shows it; its schema is the operations' output, checked on every body the tests receive. */
export type JobView = Static<typeof Job>;

/** How jobs are shown: the JSON of a job and its results (GET /api/jobs, get_job, run_job), and list cursors. */

const NOTES = {
  pass: "Clean on this one. Nothing to fix.",
  fail: "Worth fixing before this ships: the reason says what and where.",
  error: "We could not run this check, so it is not a verdict on your work. It was refunded.",
  NEEDS_REVIEW:
    "The vision model and the measurements disagree, so this is not a verdict on your work yet: look at the captures. It was refunded.",
};

/**
 * The render a row refers to, from its first capture's key: `<jobId>-<size>.jpg` for a webpage,
 * `<jobId>-<clientId>-<formFactor>.jpg` for an email render.
 */
function renderOf(jobId: string, captureKeys: string[]): { captureSizeId?: string; captureClientId?: string } {
  const key = captureKeys[0];
  if (!key?.startsWith(`${jobId}-`) || !key.endsWith(".jpg")) return {};
  const rest = key.slice(jobId.length + 1, -".jpg".length);
  const size = CAPTURE_SIZES.find((s) => rest === s || rest.endsWith(`-${s}`));
  if (!size) return {};
  return rest === size
    ? { captureSizeId: size }
    : { captureSizeId: size, captureClientId: rest.slice(0, -size.length - 1) };
}

function resultView(
  r: ResultRow,
  detail: "brief" | "verbose",
  captures: CaptureService,
  jobId: string,
  policy: PolicySeverity,
) {
  const module = findValidation(r.validationId);
  return {
    validationId: r.validationId,
    name: module?.meta.name ?? r.validationId,
    verdict: r.verdict,
    severity: r.severity,
    ...(r.reason && r.verdict !== "pass" ? { reason: r.reason } : {}),
    reasoning: r.reasoning,
    findings: r.findings,
    ...(r.reasonCode ? { reasonCode: r.reasonCode } : {}),
    ...(detail === "verbose" && r.judge ? { judge: r.judge } : {}),
    ...(r.captureKeys.length
      ? {
          screenshotUrl: captures.url(r.captureKeys[0]!),
          screenshotShareUrl: captures.shareUrl(r.captureKeys[0]!),
          captures: r.captureKeys.map((key) => ({
            viewport: key.replace(/^.*-([a-z]+-[a-z]+)\.jpg$/, "$1"),
            engine: engineOfCaptureKey(key),
            screenshotUrl: captures.url(key),
          })),
        }
      : {}),
    ...(detail === "verbose"
      ? { references: module?.meta.references ?? [], note: r.reasonCode ? NOTES[r.reasonCode] : NOTES[r.verdict] }
      : {}),
    ...(detail === "verbose" && r.renders?.length
      ? {
          renders: r.renders.map(({ captureKey, ...render }) => ({
            ...render,
            screenshotUrl: captures.url(captureKey),
            sources: Object.fromEntries(
              [...new Set(render.changes.map((c) => c.source))].map((id) => [id, RULE_SOURCES[id as RuleSourceId]]),
            ),
          })),
        }
      : {}),
    status: r.verdict,
    policySeverity: policy,
    ...renderOf(jobId, r.captureKeys),
  };
}

/** A skipped check as every answer lists it (job, estimate, plan): reason also under the hosted service's name, reasonCode. */
export const skippedView = (s: SkippedValidation) => ({ ...s, reasonCode: s.reason });

const SETTLED = new Set<JobRow["status"]>(["completed", "interrupted", "expired"]);

/** The interruption as the hosted service's clients read it: a cause, the message, the checks it cost and the refund. */
function interruptionView(j: JobRow, results: ResultRow[]) {
  if (!j.interruption) return undefined;
  const cause =
    j.status === "expired"
      ? "email_expired"
      : j.interruption.startsWith("The job could not run")
        ? "execution_failed"
        : "capture_failed";
  const errored = results.filter((r) => r.verdict === "error").map((r) => r.validationId);
  return {
    cause,
    message: j.interruption,
    affectedValidationIds: j.status === "expired" ? j.validations.map((v) => v.id) : errored,
    refund: { settled: SETTLED.has(j.status), refundedCredits: j.refunded },
  } as const;
}

/**
 * The job's decision and its checks by source, in the hosted vocabulary. An expired job's checks never ran:
 * they count as error rows (undecided). Until the job settles its decision is pending.
 */
function policyView(j: JobRow, results: ResultRow[]) {
  const severityOf = new Map(j.validations.map((v) => [v.id, v.policySeverity ?? policySeverity(v.severity)]));
  const policyOf = (id: string, fallback: ResultRow["severity"]) => severityOf.get(id) ?? policySeverity(fallback);
  const byId = new Map(results.map((r) => [r.validationId, r]));
  const statusOf = (id: string) =>
    byId.get(id)?.verdict ?? (j.status === "expired" || j.status === "interrupted" ? "error" : "pending");
  const rows: PolicyRow[] = j.validations.flatMap((v) => {
    const status = statusOf(v.id);
    return status === "pending" ? [] : [{ validationId: v.id, severity: policyOf(v.id, v.severity), status }];
  });
  const decided = passPolicy(rows, "fail");
  const settled = SETTLED.has(j.status);
  const decision = !settled
    ? "pending"
    : decided.decision === "pass" && j.interruption
      ? "undecided"
      : decided.decision;
  const sources = [
    { validationSetId: j.validationSetId, ids: j.validations.filter((v) => v.fromSet).map((v) => v.id) },
    { validationSetId: null, ids: j.validations.filter((v) => !v.fromSet).map((v) => v.id) },
  ].filter((s) => s.ids.length > 0);
  const validationSets = sources.map((s) => {
    const failuresBySeverity: Record<PolicySeverity, string[]> = {
      required: [],
      recommended: [],
      optional: [],
      prohibited: [],
    };
    const validations = s.ids.map((id) => {
      const severity = severityOf.get(id)!;
      const status = statusOf(id);
      if (status === "fail") failuresBySeverity[severity].push(id);
      return { validationId: id, severity, status };
    });
    return { validationSetId: s.validationSetId, validations, failuresBySeverity };
  });
  const { blockedByRequired, blockedByProhibited, blockingRequired, blockingProhibited, undecided, warnings } = decided;
  return {
    overallPassPolicy: {
      threshold: "fail" as const,
      blockedByRequired,
      blockedByProhibited,
      blockingRequired,
      blockingProhibited,
      undecided,
      warnings,
      decision,
    },
    validationSets,
    policyOf,
  };
}

function emailCaptureView(j: JobRow) {
  if (j.type !== "email" || !j.subject.testEmail || !j.subject.expiresAt) return undefined;
  const captureStatus = j.status === "expired" ? "expired" : j.status === "pending" ? "awaiting_email" : "received";
  return {
    testEmail: j.subject.testEmail,
    captureMode: "inbox",
    captureStatus,
    expiresAt: j.subject.expiresAt,
  } as const;
}

export function jobView(
  j: JobRow,
  results: ResultRow[],
  detail: "brief" | "verbose",
  captures: CaptureService,
): JobView {
  const counts = { pass: 0, fail: 0, error: 0 };
  for (const r of results) counts[r.verdict]++;
  const policy = policyView(j, results);
  const emailCapture = emailCaptureView(j);
  const interruption = interruptionView(j, results);
  return {
    jobId: j.jobId,
    type: j.type,
    status: j.status,
    subject: j.subject,
    ...(j.validationSetId ? { validationSetId: j.validationSetId } : {}),
    validationSets: policy.validationSets,
    overallPassPolicy: policy.overallPassPolicy,
    // One rule decides both: passed is the decision's pass (a failed minor check warns, and still passes).
    summary: { ...counts, passed: policy.overallPassPolicy.decision === "pass" },
    results: results.map((r) => resultView(r, detail, captures, j.jobId, policy.policyOf(r.validationId, r.severity))),
    skipped_validations: j.skipped.map(skippedView),
    credits: { charged: j.charged, refunded: j.refunded, net: j.charged - j.refunded },
    ...(emailCapture ? { emailCapture } : {}),
    ...(j.type === "email" ? { testEmail: j.subject.testEmail, expiresAt: j.subject.expiresAt } : {}),
    ...(j.email
      ? {
          email: j.email,
          ...(j.email.subjectMatches === false
            ? {
                warnings: [
                  `The message's subject ${JSON.stringify(j.email.subject)} is not the expected ${JSON.stringify(j.email.expectedSubject)}: the checks ran on the message that arrived.`,
                ],
              }
            : {}),
        }
      : {}),
    ...(interruption ? { interruption } : {}),
    createdAt: j.createdAt,
    completedAt: j.completedAt,
  };
}

export const encodeCursor = (position: number) => Buffer.from(`p:${position}`).toString("base64url");
export function decodeCursor(cursor: string): number {
  const m = /^p:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m)
    throw new AppError("INVALID_REQUEST_BODY", "cursor is not a cursor this service issued.", { field: "cursor" });
  return Number(m[1]);
}
