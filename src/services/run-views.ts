import type { Static } from "@sinclair/typebox";
import type { JobRow, ResultRow } from "../../projections/jobs";
import type { ProjectRow, RunPageRow, RunRow } from "../../projections/runs";
import type { ProjectView, RunBrief, RunView } from "../contracts/run-view";
import { judgeRun, type PageResults } from "../domain/run-comparison";
import { parseRunFailOn } from "../domain/run-policy";
import { baselineOf, DEFAULT_BASE_BRANCH, type BaselineCandidate } from "../domain/runs";
import type { CaptureService } from "./captures";
import { jobView } from "./job-views";
import { asksVisual } from "./run-visual";
import { DEFAULT_MAX_CHANGED_RATIO, DEFAULT_VISUAL_THRESHOLD } from "../domain/visual-diff";

/** How runs and projects are shown: the run view (GET /api/runs/{runId}, get_run, run_site), its brief, a project. */

export type RunViewData = Static<typeof RunView>;
export type RunBriefData = Static<typeof RunBrief>;
export type ProjectViewData = Static<typeof ProjectView>;

const SETTLED = new Set<JobRow["status"]>(["completed", "interrupted", "expired"]);

/**
 * A settled page's results as the comparison reads them: every selected check's row (a check without one, as on an
 * expired email job, could not run), a prohibited check at severity `prohibited`; null while the job is open.
 */
export function pageResults(
  page: RunPageRow,
  job: JobRow | undefined,
  results: readonly ResultRow[],
): PageResults | null {
  if (!job || !SETTLED.has(job.status)) return null;
  const byId = new Map(results.map((r) => [r.validationId, r]));
  return {
    pageKey: page.pageKey,
    status: job.status as PageResults["status"],
    rows: job.validations.map((v) => {
      const r = byId.get(v.id);
      return {
        validationId: v.id,
        severity: v.policySeverity === "prohibited" ? "prohibited" : v.severity,
        verdict: r?.verdict ?? "error",
        ...(r?.reason ? { reason: r.reason } : {}),
        findings: r?.findings ?? [],
      };
    }),
  };
}

/** What the run view is built from: the run, its pages with their jobs and results, and (while running) its baseline. */
export interface RunMaterial {
  run: RunRow;
  pages: RunPageRow[];
  jobs: Map<string, JobRow>;
  results: Map<string, ResultRow[]>;
  /** While the run is running and blocks only on new failures: the baseline's settled pages (null: none). */
  baseline: PageResults[] | null;
}

/**
 * The run as the surfaces show it. A page's decision is `pending` until its job settles; once the run completes,
 * the decisions, the comparison and what was accepted are the ones RunCompleted recorded; before, the settled pages
 * are judged as they stand (against the project's baseline now, when only new failures block).
 */
export function runView(m: RunMaterial, detail: "brief" | "verbose", captures: CaptureService): RunViewData {
  const { run } = m;
  const settled = m.pages.map((p) => pageResults(p, m.jobs.get(p.jobId), m.results.get(p.jobId) ?? []));
  const judged = judgeRun({
    current: settled.filter((p): p is PageResults => p !== null),
    baseline: run.status === "running" ? m.baseline : null,
    ignores: run.ignores,
    failOn: parseRunFailOn(run.failOn),
  });
  const byKey = new Map(judged.pages.map((p) => [p.pageKey, p]));
  const pages = m.pages.map((p, i) => {
    const job = m.jobs.get(p.jobId)!;
    const results = m.results.get(p.jobId) ?? [];
    const judgedPage = settled[i] ? byKey.get(p.pageKey) : undefined;
    const summary = { pass: 0, fail: 0, error: 0 };
    for (const r of results) summary[r.verdict]++;
    return {
      index: p.index,
      ...(p.name !== null ? { name: p.name } : {}),
      pageKey: p.pageKey,
      type: p.type,
      jobId: p.jobId,
      status: job.status,
      decision: !judgedPage ? ("pending" as const) : (p.decision ?? judgedPage.decision),
      summary,
      failures: judgedPage?.failures ?? [],
      ...pageVisual(run, p.index, captures),
      ...(job.type === "email" && job.subject.testEmail ? { testEmail: job.subject.testEmail } : {}),
      ...(detail === "verbose" ? { job: jobView(job, results, "verbose", captures) } : {}),
    };
  });
  const comparison =
    run.comparison && run.comparedWith
      ? {
          baselineRunId: run.comparedWith,
          baseBranch: run.baseBranch!,
          ...run.comparison,
          visualChanges: run.comparison.visualChanges.map((c) => ({
            ...c,
            ...diffLinks(
              run.visualDiffs?.find(
                (d) => d.size === c.size && m.pages.find((p) => p.index === d.index)?.pageKey === c.pageKey,
              ),
              captures,
            ),
          })),
        }
      : null;
  return {
    ...head(run, m, pages),
    pages,
    comparison,
    ignored: run.ignored ?? judged.ignored,
  };
}

/** The run in a list: its head, totals and the recorded counts, without pages. */
export function runBrief(m: RunMaterial, captures: CaptureService): RunBriefData {
  return briefOf(m, runView(m, "brief", captures));
}

/** The brief form of a run view already made. */
export function briefOf(m: RunMaterial, view: RunViewData): RunBriefData {
  const { pages: _pages, comparison: _comparison, ignored: _ignored, ...rest } = view;
  return { ...rest, comparedWith: m.run.comparedWith, counts: m.run.counts };
}

type VisualDiff = NonNullable<RunRow["visualDiffs"]>[number];

const diffLinks = (d: VisualDiff | undefined, captures: CaptureService) =>
  d?.diff ? { diffUrl: captures.url(d.diff.key), diffShareUrl: captures.shareUrl(d.diff.key) } : {};

/** A page's screenshots against its baseline page's, per size, as RunCompleted recorded them (none: absent). */
function pageVisual(run: RunRow, index: number, captures: CaptureService) {
  const diffs = (run.visualDiffs ?? []).filter((d) => d.index === index);
  if (!diffs.length) return {};
  return {
    visual: {
      sizes: diffs.map((d) => ({
        size: d.size,
        changedRatio: d.changedRatio,
        changed: d.changed,
        ...diffLinks(d, captures),
        baselineUrl: captures.url(d.baselineKey),
        currentUrl: captures.url(d.currentKey),
      })),
      changed: diffs.some((d) => d.changed),
    },
  };
}

/** Whether the run's visual comparison was made, and why not when it was not. */
function visualHead(run: RunRow) {
  const tolerance = {
    threshold: run.visual?.threshold ?? DEFAULT_VISUAL_THRESHOLD,
    maxChangedRatio: run.visual?.maxChangedRatio ?? DEFAULT_MAX_CHANGED_RATIO,
  };
  const said = (status: "off" | "pending" | "no-baseline" | "compared", message: string) => ({
    status,
    message,
    ...tolerance,
  });
  if (!asksVisual(run))
    return said("off", "The run asked for no visual comparison (visual settings, or visual in failOn, ask for one).");
  if (run.status === "running")
    return said("pending", "The screenshots are compared with the baseline's when every page has settled.");
  if (!run.visualDiffs)
    return said("no-baseline", "The project had no baseline run when this run completed: nothing to compare with.");
  const changed = run.visualDiffs.filter((d) => d.changed).length;
  return said(
    "compared",
    `${run.visualDiffs.length} screenshot(s) compared with run ${run.comparedWith}'s; ${changed} changed beyond maxChangedRatio.`,
  );
}

function head(run: RunRow, m: RunMaterial, pages: ReadonlyArray<{ status: string; decision: string }>) {
  let charged = 0;
  let refunded = 0;
  for (const p of m.pages) {
    const job = m.jobs.get(p.jobId)!;
    charged += job.charged;
    refunded += job.refunded;
  }
  const count = (decision: string) => pages.filter((p) => p.decision === decision).length;
  return {
    runId: run.runId,
    project: run.project,
    branch: run.branch,
    commit: run.commit,
    status: run.status,
    createdAt: run.createdAt,
    completedAt: run.completedAt,
    failOn: run.failOn,
    decision: run.decision ?? ("pending" as const),
    visual: visualHead(run),
    totals: {
      pages: pages.length,
      settled: pages.filter((p) => SETTLED.has(p.status as JobRow["status"])).length,
      passed: count("pass"),
      blocked: count("blocked"),
      undecided: count("undecided"),
      credits: { charged, refunded, net: charged - refunded },
    },
  };
}

/** The project's baseline from its row and the latest completed run on its base branch. */
export function projectBaseline(
  row: Pick<ProjectRow, "baselineRunId" | "baselinePosition">,
  latestOnBase: BaselineCandidate | null,
) {
  const explicit =
    row.baselineRunId !== null && row.baselinePosition !== null
      ? { runId: row.baselineRunId, position: row.baselinePosition }
      : null;
  return baselineOf(explicit, latestOnBase);
}

export function projectView(row: ProjectRow, latestOnBase: BaselineCandidate | null): ProjectViewData {
  const baseline = projectBaseline(row, latestOnBase);
  return {
    project: row.project,
    baseBranch: row.baseBranch ?? DEFAULT_BASE_BRANCH,
    baselineRunId: baseline?.runId ?? null,
    baselineBy: baseline?.by ?? null,
    latestRunId: row.latestRunId,
    runs: row.runs,
    createdAt: row.createdAt,
  };
}
