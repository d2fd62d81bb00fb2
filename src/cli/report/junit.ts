import { hostname } from "node:os";
import builder from "junit-report-builder";
import type { JobView, Verdict } from "../run/verdict";

/**
 * JUnit XML (junit-report-builder): one suite per job, one test case per validation (class name assay.<type>),
 * a failure carrying the reason and the findings, an error for a check that could not run, a skipped case for a
 * validation not run. The job id, status, verdict and credits are suite properties.
 */
export function junitReport(job: JobView, verdict: Verdict): string {
  const report = builder.newBuilder();
  const started = new Date(job.createdAt);
  const seconds = job.completedAt ? Math.max(0, (new Date(job.completedAt).getTime() - started.getTime()) / 1000) : 0;
  const suite = report
    .testSuite()
    .name(
      `assay ${job.type} ${job.subject.url ?? job.subject.baseUrl ?? job.testEmail ?? job.subject.testEmail ?? job.jobId}`,
    )
    .timestamp(started)
    .time(seconds)
    .property("jobId", job.jobId)
    .property("status", job.status)
    .property("verdict", verdict.outcome)
    .property("creditsNet", String(job.credits.net))
    .property("hostname", hostname());
  for (const r of job.results) {
    const test = suite.testCase().className(`assay.${job.type}`).name(`${r.validationId} [${r.severity}]`).time(0);
    const detail = [r.reasoning, ...r.findings.map((f) => `${f.selector ? `${f.selector}: ` : ""}${f.message}`)]
      .filter(Boolean)
      .join("\n");
    if (r.verdict === "fail") test.failure(r.reason ?? r.name, r.severity).standardOutput(detail);
    else if (r.verdict === "error") test.error(r.reason ?? "the check could not run", "error", detail);
  }
  for (const s of job.skipped_validations)
    suite.testCase().className(`assay.${job.type}`).name(s.validationId).time(0).skipped().standardOutput(s.message);
  // The root's skipped count: the suite carries it; the Jenkins JUnit schema (junit-10.xsd) has no such attribute on <testsuites>.
  return report.build().replace(/(<testsuites\b[^>]*?) skipped="\d+"/, "$1");
}
