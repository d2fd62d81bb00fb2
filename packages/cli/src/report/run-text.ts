import type { CheckRow, PageReport, RunReport } from "./run-rows";

const COLOURS = {
  pass: "\x1b[32m",
  blocked: "\x1b[31m",
  undecided: "\x1b[33m",
  pending: "\x1b[33m",
  dim: "\x1b[2m",
} as const;

const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio < 0.01 ? 2 : 1)}%`;

/** What a row's effect says beside it. */
export const EFFECT_WORDS: Record<CheckRow["effect"], string> = {
  blocks: "blocks",
  undecided: "could not run",
  warns: "warns",
  known: "known",
  accepted: "accepted",
  passes: "passes",
};

function rowLine(r: CheckRow): string {
  const tags = [
    r.severity,
    ...(r.verdict === "fail" && r.isNew && r.effect !== "accepted" ? ["new"] : []),
    EFFECT_WORDS[r.effect],
  ];
  const accepted = r.accepted ? ` (accepted: ${r.accepted})` : "";
  return `    ${r.verdict.toUpperCase().padEnd(5)} ${r.validationId} [${tags.join(", ")}]${r.reason ? `: ${r.reason}` : ""}${accepted}`;
}

function pageLines(p: PageReport, paint: (c: keyof typeof COLOURS, s: string) => string): string[] {
  const { pass, fail, error } = p.page.summary;
  const head = `${paint(p.page.decision as keyof typeof COLOURS, p.page.decision.toUpperCase().padEnd(9))} ${p.label}${p.file ? ` (${p.file})` : ""}  ${pass} pass, ${fail} fail, ${error} error${p.page.status === "completed" ? "" : ` · ${p.page.status}`}`;
  const lines = [head];
  for (const r of p.rows) {
    if (r.verdict === "pass") continue;
    lines.push(rowLine(r));
    for (const f of r.findings.slice(0, 3))
      lines.push(paint("dim", `          ${f.selector ? `${f.selector}: ` : ""}${f.message}`));
  }
  if (p.page.visual?.changed)
    for (const s of p.page.visual.sizes)
      lines.push(`    VISUAL ${s.size}: ${percent(s.changedRatio)} changed${p.visual === "blocks" ? " [blocks]" : ""}`);
  return lines;
}

/**
 * The run as lines for a person: what it was, then what changed against the baseline (new failures, fixed, visual
 * changes), then each page with its checks that did not pass, the credits, and the decision last. Coloured only on
 * a terminal.
 */
export function runTextReport(report: RunReport, colour: boolean): string {
  const { run, verdict } = report;
  const paint = (c: keyof typeof COLOURS, s: string) => (colour ? `${COLOURS[c]}${s}\x1b[0m` : s);
  const c = run.comparison;
  const lines = [
    `run ${run.runId} ${run.status} · project ${run.project}${run.branch ? ` · branch ${run.branch}` : ""} · ${run.totals.pages} pages · fail on ${run.failOn}`,
    c
      ? `compared with ${c.baselineRunId} (${c.baseBranch})`
      : "no baseline to compare with: every failure counts as new",
  ];
  if (c) {
    lines.push(`new failures: ${c.newFailures.length}`);
    for (const f of c.newFailures) lines.push(`  ${f.pageKey}  ${f.validationId}: ${f.reason}`);
    lines.push(`fixed: ${c.fixed.length}`);
    for (const f of c.fixed) lines.push(`  ${f.pageKey}  ${f.validationId}`);
    if (c.visualChanges.length) lines.push(`visual changes: ${c.visualChanges.length}`);
    for (const v of c.visualChanges) lines.push(`  ${v.pageKey}  ${v.size}: ${percent(v.changedRatio)} changed`);
    if (c.newPages.length) lines.push(`new pages: ${c.newPages.join(", ")}`);
    if (c.pagesGone.length) lines.push(`pages gone: ${c.pagesGone.join(", ")}`);
  }
  lines.push("pages:");
  for (const p of report.pages) lines.push(...pageLines(p, paint).map((l) => `  ${l}`));
  if (run.ignored.length) lines.push(`accepted findings: ${run.ignored.length} (ignores in the config)`);
  const { charged, refunded, net } = run.totals.credits;
  lines.push(`credits: ${charged} charged, ${refunded} refunded, ${net} net`);
  lines.push(`decision: ${paint(verdict.outcome, verdict.outcome.toUpperCase())} (${verdict.why})`);
  return `${lines.join("\n")}\n`;
}
