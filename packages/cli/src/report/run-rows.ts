import type { Static } from "@sinclair/typebox";
import type { Finding } from "../../../../events/jobs";
import type { RunViewBody } from "../../../../src/contracts/run-view";
import type { AnySeverity } from "../../../../src/domain/pass-policy";
import { parseRunFailOn, rowEffect, type RowEffect, type RunFailOn } from "../../../../src/domain/run-policy";
import type { PlannedPage } from "../run/run-request";
import { EXIT } from "../../../../src/cli/program";

/**
 * A run view read for the reports: each page with its checks (the job's results when the view is verbose, else
 * the page's failures) and what each does to the run under its failOn; the run's verdict in a sentence. Every run
 * writer (text, JSON, JUnit, SARIF, GitHub, HTML) reads this one model.
 */

export type RunPage = RunViewBody["pages"][number];

export interface CheckRow {
  validationId: string;
  name: string;
  severity: string;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  reasoning?: string;
  findings: Array<Static<typeof Finding>>;
  screenshotUrl?: string;
  effect: RowEffect;
  /** A failure the baseline did not have (every failure, without a baseline). */
  isNew: boolean;
  /** The accepting ignore's reason. */
  accepted?: string;
}

export interface PageReport {
  page: RunPage;
  /** The page as people name it: its config name, else its pageKey. */
  label: string;
  /** A built folder's or config's HTML file the page was read from. */
  file?: string;
  rows: CheckRow[];
  skipped: Array<{ validationId: string; message: string }>;
  /** Its screenshots changed beyond the run's maxChangedRatio; `blocks` under failOn visual. */
  visual: "blocks" | "changed" | "unchanged" | "none";
}

export interface RunVerdict {
  outcome: "pass" | "blocked" | "undecided";
  why: string;
}

export interface RunReport {
  run: RunViewBody;
  failOn: RunFailOn;
  pages: PageReport[];
  verdict: RunVerdict;
}

const key = (pageKey: string, validationId: string) => `${pageKey}\u0000${validationId}`;

/** A failOn the server echoed that this client cannot read decides nothing here: the default threshold. */
function failOnOf(text: string): RunFailOn {
  try {
    return parseRunFailOn(text || "fail");
  } catch {
    return parseRunFailOn("fail");
  }
}

function pageRows(page: RunPage, failOn: RunFailOn, isNew: (validationId: string) => boolean): CheckRow[] {
  const accepted = new Map(page.failures.filter((f) => f.accepted).map((f) => [f.validationId, f.accepted!.reason]));
  const withEffect = (row: Omit<CheckRow, "effect" | "isNew" | "accepted">, severity: AnySeverity): CheckRow => {
    const fresh = row.verdict === "fail" && isNew(row.validationId);
    const acceptedReason = row.verdict === "fail" ? accepted.get(row.validationId) : undefined;
    return {
      ...row,
      effect: rowEffect({ validationId: row.validationId, severity, verdict: row.verdict }, failOn, {
        isNew: fresh,
        accepted: acceptedReason !== undefined,
      }),
      isNew: fresh,
      ...(acceptedReason !== undefined ? { accepted: acceptedReason } : {}),
    };
  };
  if (page.job)
    return page.job.results.map((r) =>
      withEffect(
        {
          validationId: r.validationId,
          name: r.name,
          severity: r.severity,
          verdict: r.verdict as CheckRow["verdict"],
          ...(r.reason ? { reason: r.reason } : {}),
          reasoning: r.reasoning,
          findings: r.findings,
          ...(r.screenshotUrl ? { screenshotUrl: r.screenshotUrl } : {}),
        },
        r.policySeverity === "prohibited" ? "prohibited" : r.severity,
      ),
    );
  return page.failures.map((f) =>
    withEffect(
      {
        validationId: f.validationId,
        name: f.validationId,
        severity: f.severity,
        verdict: "fail",
        reason: f.reason,
        findings: [],
      },
      f.severity as AnySeverity,
    ),
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function verdictOf(run: RunViewBody, failOn: RunFailOn, pages: PageReport[]): RunVerdict {
  if (run.status === "running")
    return {
      outcome: "undecided",
      why: `the run is still running (${run.totals.settled}/${run.totals.pages} pages settled): the wait ended first`,
    };
  const blocking = pages.filter((p) => p.rows.some((r) => r.effect === "blocks") || p.visual === "blocks");
  const rows = pages.flatMap((p) => p.rows);
  if (run.decision === "blocked") {
    const failures = rows.filter((r) => r.effect === "blocks").length;
    const visual = pages.filter((p) => p.visual === "blocks").length;
    const parts = [
      ...(failures ? [plural(failures, run.comparison && failOn.newOnly ? "new failure" : "failure")] : []),
      ...(visual ? [plural(visual, "visual change")] : []),
    ];
    return {
      outcome: "blocked",
      why: `blocked by ${parts.join(" and ") || "the server's decision"} on ${plural(blocking.length, "page")}`,
    };
  }
  if (run.decision === "undecided") {
    const interrupted = pages.filter((p) => p.page.status === "interrupted" || p.page.status === "expired").length;
    const errors = rows.filter((r) => r.effect === "undecided").length;
    return {
      outcome: "undecided",
      why:
        run.status === "interrupted"
          ? "the run was interrupted"
          : [
              interrupted ? `${plural(interrupted, "page")} interrupted` : "",
              errors ? `${plural(errors, "check")} could not run` : "",
            ]
              .filter(Boolean)
              .join(", ") || "undecided",
    };
  }
  const warnings = rows.filter((r) => r.effect === "warns" || r.effect === "known").length;
  const accepted = rows.filter((r) => r.effect === "accepted").length;
  const notes = [warnings ? plural(warnings, "warning") : "", accepted ? `${accepted} accepted` : ""].filter(Boolean);
  return { outcome: "pass", why: notes.length ? `passed, with ${notes.join(" and ")}` : "passed" };
}

/** The run read for the reports; `planned` (the pages as this client planned them) adds each HTML page's file. */
export function runReport(run: RunViewBody, planned: readonly PlannedPage[] = []): RunReport {
  const failOn = failOnOf(run.failOn);
  const fresh = new Set((run.comparison?.newFailures ?? []).map((f) => key(f.pageKey, f.validationId)));
  const pages = run.pages.map((page): PageReport => {
    const isNew = (validationId: string) => !run.comparison || fresh.has(key(page.pageKey, validationId));
    const file = planned[page.index]?.file;
    const visual = !page.visual ? "none" : !page.visual.changed ? "unchanged" : failOn.visual ? "blocks" : "changed";
    return {
      page,
      label: page.name ?? page.pageKey,
      ...(file ? { file } : {}),
      rows: pageRows(page, failOn, isNew),
      skipped: (page.job?.skipped_validations ?? []).map((s) => ({ validationId: s.validationId, message: s.message })),
      visual,
    };
  });
  return { run, failOn, pages, verdict: verdictOf(run, failOn, pages) };
}

export const runExitOf = (v: RunVerdict): number => EXIT[v.outcome];

/** The JSON report: the verdict, why, and the run view as the server answered it. */
export const runJsonReport = (report: RunReport): string =>
  `${JSON.stringify({ verdict: report.verdict.outcome, why: report.verdict.why, run: report.run }, null, 2)}\n`;
