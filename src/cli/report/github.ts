import { appendFileSync } from "node:fs";
import type { JobView, Verdict } from "../run/verdict";

/** Appends one `name=value` output per line (values here hold no newline) to the file GitHub Actions names in GITHUB_OUTPUT. */
export function writeGithubOutputs(path: string, values: Record<string, string>): void {
  appendFileSync(
    path,
    Object.entries(values)
      .map(([k, v]) => `${k}=${v.replace(/[\r\n]+/g, " ")}\n`)
      .join(""),
  );
}

/** The outputs of a finished run: job-id, verdict, credits (net), blocking-checks (comma-separated). */
export function runOutputs(job: JobView, verdict: Verdict): Record<string, string> {
  return {
    "job-id": job.jobId,
    verdict: verdict.outcome,
    credits: String(job.credits.net),
    "blocking-checks": [...verdict.policy.blockingProhibited, ...verdict.policy.blockingRequired].join(","),
  };
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/[\r\n]+/g, " ");

/** A markdown summary for GITHUB_STEP_SUMMARY: the verdict, then one table row per check. */
export function githubSummary(job: JobView, verdict: Verdict): string {
  const icon = { pass: "✅", fail: "❌", error: "⚠️" } as const;
  const blocking = new Set([...verdict.policy.blockingProhibited, ...verdict.policy.blockingRequired]);
  const rows = job.results.map(
    (r) =>
      `| ${icon[r.verdict]} ${r.verdict} | \`${r.validationId}\` | ${r.severity} | ${blocking.has(r.validationId) ? "yes" : "no"} | ${cell(r.reason ?? "")} |`,
  );
  const subject = job.subject.url ?? job.subject.baseUrl ?? job.testEmail ?? job.subject.testEmail ?? "";
  return [
    `### Assay: ${verdict.outcome.toUpperCase()}`,
    "",
    `Job \`${job.jobId}\` (${job.type}${subject ? ` ${cell(subject)}` : ""}): ${cell(verdict.why)}. Credits: ${job.credits.net} net.`,
    "",
    "| Verdict | Check | Severity | Blocks | Reason |",
    "|---|---|---|---|---|",
    ...rows,
    ...job.skipped_validations.map((s) => `| skipped | \`${s.validationId}\` | | no | ${cell(s.message)} |`),
    "",
  ].join("\n");
}
