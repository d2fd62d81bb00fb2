import { hostname } from "node:os";
import builder from "junit-report-builder";
import type { RowEffect } from "../../../../src/domain/run-policy";
import type { JobView, ResultRow, Verdict } from "../run/verdict";
import type { CheckRow, RunReport } from "./run-rows";

/**
 * JUnit XML (junit-report-builder), for one job or a whole run, on one rule: a test case per check named by its
 * validation id alone (never its severity, so a check's history survives a change of severity), a <failure> only
 * where the check blocks under the threshold, an <error> where it could not run at a blocking severity, and
 * failures that do not block (warnings, known or accepted ones) as the case's system-out, saying why they pass.
 */

type Suite = ReturnType<ReturnType<typeof builder.newBuilder>["testSuite"]>;
type Row = Pick<CheckRow, "validationId" | "name" | "severity" | "verdict" | "reason" | "reasoning" | "findings">;

function detailOf(r: Row, note: string[]): string {
  return [
    ...note,
    `severity: ${r.severity}`,
    ...(r.reasoning ? [r.reasoning] : []),
    ...r.findings.map((f) => `${f.selector ? `${f.selector}: ` : ""}${f.message}`),
  ].join("\n");
}

/** One check's test case under what it does to the decision. */
function addCheckCase(suite: Suite, className: string, r: Row, effect: RowEffect, note: string[] = []): void {
  const test = suite.testCase().className(className).name(r.validationId).time(0);
  const detail = detailOf(r, note);
  if (effect === "blocks" && r.verdict === "fail") test.failure(r.reason ?? r.name, r.severity).standardOutput(detail);
  else if (effect === "blocks" || effect === "undecided")
    test.error(r.reason ?? "the check could not run", r.verdict === "error" ? "error" : r.severity, detail);
  else if (r.verdict !== "pass")
    test.standardOutput(`${r.verdict} (${effect}, not blocking): ${r.reason ?? r.name}\n${detail}`);
}

/** A job's rows' effects under its verdict's policy. */
function jobEffect(r: ResultRow, verdict: Verdict): RowEffect {
  const p = verdict.policy;
  if (r.verdict === "pass") return "passes";
  if (p.blockingRequired.includes(r.validationId) || p.blockingProhibited.includes(r.validationId)) return "blocks";
  if (p.undecided.includes(r.validationId)) return "undecided";
  return "warns";
}

/** The document: the builder's XML without the root's skipped count (junit-10.xsd has no such attribute on <testsuites>). */
const xmlOf = (report: ReturnType<typeof builder.newBuilder>) =>
  report.build().replace(/(<testsuites\b[^>]*?) skipped="\d+"/, "$1");

/** One job: one suite (class name assay.<type>); job id, status, verdict and credits as suite properties. */
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
  for (const r of job.results) addCheckCase(suite, `assay.${job.type}`, r, jobEffect(r, verdict));
  for (const s of job.skipped_validations)
    suite.testCase().className(`assay.${job.type}`).name(s.validationId).time(0).skipped().standardOutput(s.message);
  return xmlOf(report);
}

/**
 * A run: one suite per page (named by its name or pageKey, which is also its test cases' class name), a case per
 * check as above; a page that never ran its checks (interrupted, expired) is one `page` case in error; a page
 * with screenshots compared has a `visual` case, failed only under failOn visual.
 */
export function runJunitReport(report: RunReport): string {
  const { run } = report;
  const doc = builder.newBuilder();
  for (const p of report.pages) {
    const suite = doc
      .testSuite()
      .name(p.label)
      .timestamp(new Date(run.createdAt))
      .property("runId", run.runId)
      .property("pageKey", p.page.pageKey)
      .property("jobId", p.page.jobId)
      .property("type", p.page.type)
      .property("status", p.page.status)
      .property("decision", p.page.decision);
    if (p.file) suite.property("file", p.file);
    for (const r of p.rows) {
      const note = [
        ...(r.verdict === "fail" ? [r.isNew ? "new against the baseline" : "failing in the baseline too"] : []),
        ...(r.accepted ? [`accepted: ${r.accepted}`] : []),
      ];
      addCheckCase(suite, p.label, r, r.effect, note);
    }
    for (const s of p.skipped)
      suite.testCase().className(p.label).name(s.validationId).time(0).skipped().standardOutput(s.message);
    if (p.rows.length === 0 && p.page.status !== "completed")
      suite
        .testCase()
        .className(p.label)
        .name("page")
        .time(0)
        .error(`the page's job is ${p.page.status}`, p.page.status);
    if (p.page.visual) {
      const visual = suite.testCase().className(p.label).name("visual").time(0);
      const sizes = p.page.visual.sizes
        .map((s) => `${s.size}: ${(s.changedRatio * 100).toFixed(2)}% changed`)
        .join("\n");
      if (p.visual === "blocks")
        visual.failure("the page looks different from the baseline", "visual").standardOutput(sizes);
      else if (p.visual === "changed") visual.standardOutput(`changed (not blocking without failOn visual)\n${sizes}`);
    }
  }
  return xmlOf(doc);
}
