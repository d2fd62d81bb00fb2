import type { JobView } from "../../services/job-views";
import { plural } from "../words";

/** A job in one or two sentences, for the job tools' summaries. */
export function jobSummary(job: JobView): string {
  if (job.status === "pending") {
    return `Email job ${job.jobId} is pending: send the real message to ${job.testEmail} before ${job.expiresAt}, then call await_email_job.`;
  }
  const s = job.summary;
  const verdicts = `${s.pass} pass, ${s.fail} fail, ${s.error} error`;
  const skipped = job.skipped_validations.length
    ? `; ${plural(job.skipped_validations.length, "check")} skipped (need parameters: ask the user)`
    : "";
  return `Job ${job.jobId} ${job.status}: ${verdicts}${skipped}; ${job.credits.net} credits net.${job.interruption ? ` Interrupted: ${job.interruption.message}` : ""}`;
}
