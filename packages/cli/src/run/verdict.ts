import type { Static } from "@sinclair/typebox";
import type { Job } from "../../../../src/contracts/job";
import { decideJob, type JobDecision, type Threshold } from "../../../../src/domain/pass-policy";
import { EXIT } from "../../../../src/cli/program";

type WireJob = Static<typeof Job>;
/** One result row as the client reads it (the schema's verdict is one of three words). */
export type ResultRow = Omit<WireJob["results"][number], "verdict"> & { verdict: "pass" | "fail" | "error" };
/** A job as GET /api/jobs answers it. */
export type JobView = Omit<WireJob, "results"> & { results: ResultRow[] };

/** The run's decision: its exit code's name, the policy behind it, and one sentence saying why. */
export interface Verdict {
  outcome: "pass" | "blocked" | "undecided";
  policy: JobDecision;
  why: string;
}

export const exitOf = (v: Verdict): number => EXIT[v.outcome];

/**
 * Decides a job the way its `overallPassPolicy` does (the shared decideJob) under the run's threshold. A job that
 * did not complete (expired, interrupted, still pending when the wait ended) is undecided.
 */
export function verdictOf(job: JobView, threshold: Threshold): Verdict {
  const policy = decideJob(job, threshold);
  if (job.status === "expired")
    return { outcome: "undecided", policy, why: "the job expired: no message arrived at its test address in time" };
  if (job.status === "interrupted")
    return { outcome: "undecided", policy, why: `the job was interrupted: ${interruptionText(job)}` };
  if (job.status !== "completed")
    return { outcome: "undecided", policy, why: `the job is still ${job.status}: the wait ended first` };
  const blocking = [...policy.blockingProhibited, ...policy.blockingRequired];
  if (policy.decision === "blocked") return { outcome: "blocked", policy, why: `blocked by ${blocking.join(", ")}` };
  if (policy.decision === "undecided")
    return { outcome: "undecided", policy, why: `could not run: ${policy.undecided.join(", ")}` };
  return {
    outcome: "pass",
    policy,
    why: policy.warnings.length ? `passed, with warnings: ${policy.warnings.join(", ")}` : "passed",
  };
}

/** The interruption's text, whether the server answers it as a sentence or as an object with a message. */
export function interruptionText(job: JobView): string {
  const i = (job as { interruption?: unknown }).interruption;
  if (typeof i === "string") return i;
  if (i && typeof i === "object" && typeof (i as { message?: unknown }).message === "string")
    return (i as { message: string }).message;
  return "no reason given";
}
