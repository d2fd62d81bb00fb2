import type { IgnoreData } from "../../events/runs";
import type { Finding } from "../validations/types";
import { passPolicy, type AnySeverity, type PolicyRow } from "./pass-policy";
import { parseRunFailOn, type RunFailOn } from "./run-policy";

/**
 * A run judged against its baseline: pure functions of the two runs' page results, the run's ignores and its
 * threshold (`failOn`). RunCompleted records what judgeRun answers once every page has settled; the run view shows
 * the same for the pages settled so far.
 *
 * - **Pages** are matched across runs by their pageKey (src/domain/runs.ts), **checks** by their id.
 * - **The comparison**, per page and check: a failure is *new* when the baseline had no failure of that check on that
 *   page (it passed, could not run, was not selected, or the page is new), *still failing* when it had one, and a
 *   baseline failure is *fixed* when the check now passes there (a check that could not run now is neither). Pages
 *   only in this run are *new pages*, pages only in the baseline *pages gone*. Without a baseline there is no
 *   comparison, and every failure counts as new.
 * - **Ignores** accept known failures without turning their check off: a failure of the ignore's check, on a page its
 *   glob matches (every page when it names none), is accepted when the ignores name no selector nor finding text, or
 *   when every finding of the failure is matched by one of them (a selector containing the ignore's `selector`, a
 *   message or text containing its `finding`, case aside; a failure without findings by its reason). An accepted
 *   failure stays on its page, marked `accepted` with the reasons, and is listed in `ignored`; it neither blocks nor
 *   counts in the comparison.
 * - **failOn** is the pass policy's threshold (src/domain/pass-policy.ts: `fail` by default, a severity, `error`)
 *   plus `new`: only new failures block (the threshold still says which severities do), and `visual`: a page whose
 *   screenshots changed beyond the run's tolerance blocks. Each page is decided by the pass policy on its rows
 *   (an interrupted or expired page that nothing blocks is undecided); the run is blocked when a page is, else
 *   undecided when a page is, else it passes.
 */

/** One result row of a page's job, as the comparison reads it (a prohibited check at severity `prohibited`). */
export interface PageRow {
  validationId: string;
  severity: AnySeverity;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  findings: readonly Finding[];
}

/** A settled page of a run: its identity across runs, how its job ended, and its rows. */
export interface PageResults {
  pageKey: string;
  status: "completed" | "interrupted" | "expired";
  rows: readonly PageRow[];
}

/** One page's screenshots at one size against the baseline's (the visual diff's answer, when it runs). */
export interface VisualChange {
  pageKey: string;
  size: string;
  changedRatio: number;
  /** Beyond the run's maxChangedRatio. */
  changed: boolean;
}

export type Decision = "pass" | "blocked" | "undecided";

export interface JudgedFailure {
  validationId: string;
  severity: AnySeverity;
  reason: string;
  /** Accepted by the run's ignores: shown, never blocking. */
  accepted?: { reason: string };
}

export interface JudgedPage {
  pageKey: string;
  decision: Decision;
  /** The page's failed checks, in its rows' order, the accepted ones marked. */
  failures: JudgedFailure[];
}

export interface ComparedFailure {
  pageKey: string;
  validationId: string;
  reason: string;
}

export interface Comparison {
  newFailures: ComparedFailure[];
  fixed: ComparedFailure[];
  stillFailing: ComparedFailure[];
  newPages: string[];
  pagesGone: string[];
  visualChanges: Array<{ pageKey: string; size: string; changedRatio: number }>;
}

export interface IgnoredFailure {
  pageKey: string;
  validationId: string;
  selector?: string;
  finding?: string;
  reason: string;
}

export interface RunJudgement {
  pages: JudgedPage[];
  decision: Decision;
  /** Null without a baseline. */
  comparison: Comparison | null;
  ignored: IgnoredFailure[];
  counts: {
    pages: number;
    passed: number;
    blocked: number;
    undecided: number;
    newFailures: number;
    fixed: number;
    stillFailing: number;
    newPages: number;
    pagesGone: number;
    ignored: number;
    visualChanges: number;
  };
}

export interface RunToJudge {
  current: readonly PageResults[];
  /** The baseline run's pages; null when the project has no baseline. */
  baseline: readonly PageResults[] | null;
  ignores: readonly IgnoreData[];
  failOn: string | RunFailOn;
  /** The visual diff's answers for this run's pages (none until it runs). */
  visualChanges?: readonly VisualChange[];
}

/** A reason as the comparison records it: at most 500 characters. */
const clip = (reason: string | undefined) => {
  const text = reason ?? "";
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
};

/** Whether a glob (`*` within a path segment, `**` across them, `?` one character) matches a pageKey. */
export function pageMatches(glob: string, pageKey: string): boolean {
  return new Bun.Glob(glob).match(pageKey);
}

/** Whether one ignore covers one finding of a failure of its check on its page (a failure without findings: its reason). */
function covers(ignore: IgnoreData, finding: Finding | null, reason: string): boolean {
  if (finding === null && ignore.selector) return false;
  if (ignore.selector && !finding!.selector?.includes(ignore.selector)) return false;
  if (!ignore.finding) return true;
  const needle = ignore.finding.toLowerCase();
  const haystacks = finding === null ? [reason] : [finding.message, finding.text ?? ""];
  return haystacks.some((h) => h.toLowerCase().includes(needle));
}

/**
 * The ignores that accept a failed row on a page, or none when it is not accepted: an ignore of its check and page
 * without selector or finding accepts it whole; otherwise every finding (or, without findings, the reason) must be
 * covered by one of them.
 */
export function acceptingIgnores(ignores: readonly IgnoreData[], pageKey: string, row: PageRow): IgnoreData[] {
  const relevant = ignores.filter((i) => i.check === row.validationId && (!i.page || pageMatches(i.page, pageKey)));
  const whole = relevant.find((i) => !i.selector && !i.finding);
  if (whole) return [whole];
  const parts: Array<Finding | null> = row.findings.length ? [...row.findings] : [null];
  const used = new Set<IgnoreData>();
  for (const part of parts) {
    const by = relevant.find((i) => covers(i, part, row.reason ?? ""));
    if (!by) return [];
    used.add(by);
  }
  return [...used];
}

const keyOf = (pageKey: string, validationId: string) => `${pageKey}\u0000${validationId}`;

/** Judges a run: each page's decision and failures, the run's decision, the comparison and what was accepted. */
export function judgeRun(run: RunToJudge): RunJudgement {
  const failOn = typeof run.failOn === "string" ? parseRunFailOn(run.failOn) : run.failOn;
  const baselineFailures = new Map<string, string>();
  const baselinePages = new Set<string>();
  for (const page of run.baseline ?? []) {
    baselinePages.add(page.pageKey);
    for (const row of page.rows)
      if (row.verdict === "fail") baselineFailures.set(keyOf(page.pageKey, row.validationId), clip(row.reason));
  }
  const currentPages = new Map(run.current.map((p) => [p.pageKey, p]));
  const changedPages = new Set((run.visualChanges ?? []).filter((c) => c.changed).map((c) => c.pageKey));
  const comparison: Comparison = {
    newFailures: [],
    fixed: [],
    stillFailing: [],
    newPages: [],
    pagesGone: [],
    visualChanges: [],
  };
  const ignored: IgnoredFailure[] = [];

  const pages = run.current.map((page): JudgedPage => {
    if (run.baseline && !baselinePages.has(page.pageKey)) comparison.newPages.push(page.pageKey);
    const failures: JudgedFailure[] = [];
    const policyRows: PolicyRow[] = [];
    for (const row of page.rows) {
      const reason = clip(row.reason);
      if (row.verdict !== "fail") {
        policyRows.push({ validationId: row.validationId, severity: row.severity, verdict: row.verdict });
        continue;
      }
      const accepting = acceptingIgnores(run.ignores, page.pageKey, row);
      if (accepting.length) {
        failures.push({
          validationId: row.validationId,
          severity: row.severity,
          reason,
          accepted: { reason: [...new Set(accepting.map((i) => i.reason))].join("; ") },
        });
        for (const i of accepting)
          ignored.push({
            pageKey: page.pageKey,
            validationId: row.validationId,
            ...(i.selector ? { selector: i.selector } : {}),
            ...(i.finding ? { finding: i.finding } : {}),
            reason: i.reason,
          });
        continue;
      }
      failures.push({ validationId: row.validationId, severity: row.severity, reason });
      const known = baselineFailures.has(keyOf(page.pageKey, row.validationId));
      (known ? comparison.stillFailing : comparison.newFailures).push({
        pageKey: page.pageKey,
        validationId: row.validationId,
        reason,
      });
      // With `new`, a failure the baseline already had does not block (the threshold decides for the new ones).
      if (!(failOn.newOnly && known))
        policyRows.push({ validationId: row.validationId, severity: row.severity, verdict: "fail" });
    }
    const decided = passPolicy(policyRows, failOn.threshold).decision;
    const visuallyBlocked = failOn.visual && changedPages.has(page.pageKey);
    const decision: Decision =
      decided === "blocked" || visuallyBlocked
        ? "blocked"
        : decided === "pass" && page.status !== "completed"
          ? "undecided"
          : decided;
    return { pageKey: page.pageKey, decision, failures };
  });

  for (const page of run.baseline ?? []) {
    const now = currentPages.get(page.pageKey);
    if (!now) {
      comparison.pagesGone.push(page.pageKey);
      continue;
    }
    for (const row of page.rows) {
      if (row.verdict !== "fail") continue;
      if (now.rows.some((r) => r.validationId === row.validationId && r.verdict === "pass"))
        comparison.fixed.push({ pageKey: page.pageKey, validationId: row.validationId, reason: clip(row.reason) });
    }
  }
  comparison.visualChanges = (run.visualChanges ?? [])
    .filter((c) => c.changed)
    .map(({ pageKey, size, changedRatio }) => ({ pageKey, size, changedRatio }));

  const count = (d: Decision) => pages.filter((p) => p.decision === d).length;
  const decision: Decision = count("blocked") ? "blocked" : count("undecided") ? "undecided" : "pass";
  return {
    pages,
    decision,
    comparison: run.baseline ? comparison : null,
    ignored,
    counts: {
      pages: pages.length,
      passed: count("pass"),
      blocked: count("blocked"),
      undecided: count("undecided"),
      newFailures: comparison.newFailures.length,
      fixed: comparison.fixed.length,
      stillFailing: comparison.stillFailing.length,
      newPages: comparison.newPages.length,
      pagesGone: comparison.pagesGone.length,
      ignored: ignored.length,
      visualChanges: comparison.visualChanges.length,
    },
  };
}
