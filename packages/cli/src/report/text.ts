import type { JobView, Verdict } from "../run/verdict";

const COLOURS = {
  pass: "\x1b[32m",
  fail: "\x1b[31m",
  error: "\x1b[33m",
  blocked: "\x1b[31m",
  undecided: "\x1b[33m",
  dim: "\x1b[2m",
} as const;

/** The job as lines for a person: one line per check, the skipped ones, then the verdict. Coloured only when asked (a terminal). */
export function textReport(job: JobView, verdict: Verdict, colour: boolean): string {
  const paint = (c: keyof typeof COLOURS, s: string) => (colour ? `${COLOURS[c]}${s}\x1b[0m` : s);
  const subject = job.subject.url ?? job.subject.baseUrl ?? job.testEmail ?? job.subject.testEmail ?? "";
  const lines = [`job ${job.jobId} ${job.status} (${job.type}${subject ? ` ${subject}` : ""})`];
  for (const r of job.results) {
    const tag = r.verdict.toUpperCase().padEnd(5);
    lines.push(`${paint(r.verdict, tag)} ${r.validationId} [${r.severity}]${r.reason ? `: ${r.reason}` : ""}`);
    for (const f of r.verdict === "pass" ? [] : r.findings.slice(0, 5)) {
      lines.push(paint("dim", `        ${f.selector ? `${f.selector}: ` : ""}${f.message}`));
    }
  }
  for (const s of job.skipped_validations) lines.push(`SKIP  ${s.validationId}: ${s.message}`);
  lines.push(`credits: ${job.credits.charged} charged, ${job.credits.refunded} refunded, ${job.credits.net} net`);
  lines.push(`verdict: ${paint(verdict.outcome, verdict.outcome.toUpperCase())} (${verdict.why})`);
  return `${lines.join("\n")}\n`;
}
