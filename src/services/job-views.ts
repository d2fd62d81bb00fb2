import { AppError } from "../errors/app-error";
import { findValidation } from "../catalog/registry";
import type { JobRow, ResultRow } from "../../projections/jobs";
import type { CaptureService } from "./captures";
import type { Static } from "@sinclair/typebox";
import type { Job } from "../contracts/outputs";

/** A job as every surface shows it; its schema is the operations' output, checked on every body the tests receive. */
export type JobView = Static<typeof Job>;

/** How jobs are shown: the JSON of a job and its results (GET /api/jobs, get_job, run_job), and list cursors. */

const NOTES = {
  pass: "Clean on this one. Nothing to fix.",
  fail: "Worth fixing before this ships: the reason says what and where.",
  error: "We could not run this check, so it is not a verdict on your work. It was refunded.",
};

function resultView(r: ResultRow, detail: "brief" | "verbose", captures: CaptureService) {
  const module = findValidation(r.validationId);
  return {
    validationId: r.validationId,
    name: module?.meta.name ?? r.validationId,
    verdict: r.verdict,
    severity: r.severity,
    ...(r.reason && r.verdict !== "pass" ? { reason: r.reason } : {}),
    reasoning: r.reasoning,
    findings: r.findings,
    ...(r.captureKeys.length
      ? {
          screenshotUrl: captures.url(r.captureKeys[0]!),
          screenshotShareUrl: captures.shareUrl(r.captureKeys[0]!),
          captures: r.captureKeys.map((key) => ({ viewport: key.replace(/^.*-([a-z]+-[a-z]+)\.jpg$/, "$1"), screenshotUrl: captures.url(key) })),
        }
      : {}),
    ...(detail === "verbose" ? { references: module?.meta.references ?? [], note: NOTES[r.verdict] } : {}),
  };
}

export function jobView(j: JobRow, results: ResultRow[], detail: "brief" | "verbose", captures: CaptureService): JobView {
  const counts = { pass: 0, fail: 0, error: 0 };
  for (const r of results) counts[r.verdict]++;
  return {
    jobId: j.jobId,
    type: j.type,
    status: j.status,
    subject: j.subject,
    ...(j.validationSetId ? { validationSets: [j.validationSetId] } : {}),
    overallPassPolicy: "every-result-pass" as const,
    summary: { ...counts, passed: j.status === "completed" && counts.fail === 0 && counts.error === 0 },
    results: results.map((r) => resultView(r, detail, captures)),
    skipped_validations: j.skipped,
    credits: { charged: j.charged, refunded: j.refunded, net: j.charged - j.refunded },
    ...(j.type === "email" ? { testEmail: j.subject.testEmail, expiresAt: j.subject.expiresAt } : {}),
    ...(j.email
      ? {
          email: j.email,
          ...(j.email.subjectMatches === false
            ? { warnings: [`The message's subject ${JSON.stringify(j.email.subject)} is not the expected ${JSON.stringify(j.email.expectedSubject)}: the checks ran on the message that arrived.`] }
            : {}),
        }
      : {}),
    ...(j.interruption ? { interruption: j.interruption } : {}),
    createdAt: j.createdAt,
    completedAt: j.completedAt,
  };
}

export const encodeCursor = (position: number) => Buffer.from(`p:${position}`).toString("base64url");
export function decodeCursor(cursor: string): number {
  const m = /^p:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw new AppError("INVALID_REQUEST_BODY", "cursor is not a cursor this service issued.", { field: "cursor" });
  return Number(m[1]);
}
