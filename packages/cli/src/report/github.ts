import { appendFileSync } from "node:fs";
import type { JobView, Verdict } from "../run/verdict";
import type { RunReport } from "./run-rows";

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

/** The outputs of a finished run: run-id, verdict, pages, new-failures, fixed, visual-changes, credits (net), blocking-pages. */
export function runGithubOutputs(report: RunReport): Record<string, string> {
  const { run } = report;
  return {
    "run-id": run.runId,
    verdict: report.verdict.outcome,
    pages: String(run.totals.pages),
    "new-failures": String(run.comparison?.newFailures.length ?? 0),
    fixed: String(run.comparison?.fixed.length ?? 0),
    "visual-changes": String(run.comparison?.visualChanges.length ?? 0),
    credits: String(run.totals.credits.net),
    "blocking-pages": report.pages
      .filter((p) => p.visual === "blocks" || p.rows.some((r) => r.effect === "blocks"))
      .map((p) => p.label)
      .join(","),
  };
}

/** A step summary is cut at 1 MiB by GitHub; each table shows this many rows, then says how many more there are. */
const SUMMARY_ROWS = 50;

function table(head: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, SUMMARY_ROWS).map((r) => `| ${r.map(cell).join(" | ")} |`);
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...shown,
    ...(rows.length > SUMMARY_ROWS
      ? [
          `| … and ${rows.length - SUMMARY_ROWS} more | ${head
            .slice(1)
            .map(() => "")
            .join(" | ")} |`,
        ]
      : []),
    "",
  ];
}

/** The run as markdown for GITHUB_STEP_SUMMARY: the decision, then new failures, fixed, visual changes, then every page. */
export function runGithubSummary(report: RunReport): string {
  const { run, verdict } = report;
  const c = run.comparison;
  const icon = { pass: "✅", blocked: "❌", undecided: "⚠️", pending: "⏳" } as Record<string, string>;
  const blocksOf = new Map(report.pages.map((p) => [p.page.pageKey, p]));
  const blocking = (pageKey: string, validationId: string) =>
    blocksOf.get(pageKey)?.rows.find((r) => r.validationId === validationId)?.effect === "blocks" ? "yes" : "no";
  return [
    `### Assay: ${verdict.outcome.toUpperCase()}`,
    "",
    `Run \`${run.runId}\` of **${cell(run.project)}**${run.branch ? ` on \`${cell(run.branch)}\`` : ""}: ${cell(verdict.why)}. ${run.totals.pages} pages, ${run.totals.passed} passed; credits: ${run.totals.credits.net} net.`,
    "",
    c
      ? `Compared with \`${c.baselineRunId}\` (${cell(c.baseBranch)}): ${c.newFailures.length} new failures, ${c.fixed.length} fixed, ${c.visualChanges.length} visual changes.`
      : "No baseline to compare with: every failure counts as new.",
    "",
    ...(c?.newFailures.length ? ["#### New failures", ""] : []),
    ...table(
      ["Page", "Check", "Blocks", "Reason"],
      (c?.newFailures ?? []).map((f) => [
        f.pageKey,
        `\`${f.validationId}\``,
        blocking(f.pageKey, f.validationId),
        f.reason,
      ]),
    ),
    ...(c?.fixed.length ? ["#### Fixed", ""] : []),
    ...table(
      ["Page", "Check"],
      (c?.fixed ?? []).map((f) => [f.pageKey, `\`${f.validationId}\``]),
    ),
    ...(c?.visualChanges.length ? ["#### Visual changes", ""] : []),
    ...table(
      ["Page", "Size", "Changed"],
      (c?.visualChanges ?? []).map((v) => [v.pageKey, v.size, `${(v.changedRatio * 100).toFixed(2)}%`]),
    ),
    "#### Pages",
    "",
    ...table(
      ["Decision", "Page", "Pass", "Fail", "Error", "Blocking checks"],
      report.pages.map((p) => [
        `${icon[p.page.decision] ?? ""} ${p.page.decision}`,
        p.label,
        String(p.page.summary.pass),
        String(p.page.summary.fail),
        String(p.page.summary.error),
        p.rows
          .filter((r) => r.effect === "blocks")
          .map((r) => `\`${r.validationId}\``)
          .join(", "),
      ]),
    ),
  ].join("\n");
}
