import type { RunBriefData, RunViewData } from "../../services/run-views";
import { plural } from "../words";

/** A run in one or two sentences, for an MCP client: where it stands, its decision, and what is new. */
export function runSummary(run: RunViewData | RunBriefData): string {
  const { totals } = run;
  if (run.status === "running")
    return `Run ${run.runId} of ${run.project} is running: ${totals.settled} of ${plural(totals.pages, "page")} settled. Call get_run again until its status is completed or interrupted.`;
  const compared =
    "comparison" in run
      ? run.comparison
        ? ` Against baseline ${run.comparison.baselineRunId}: ${plural(run.comparison.newFailures.length, "new failure")}, ${run.comparison.fixed.length} fixed, ${run.comparison.stillFailing.length} still failing.`
        : " No baseline to compare with."
      : "";
  const visual = run.visual.status === "off" ? "" : ` Visual comparison: ${run.visual.message}`;
  return `Run ${run.runId} of ${run.project} is ${run.status}: ${run.decision} (${totals.passed} passed, ${totals.blocked} blocked, ${totals.undecided} undecided of ${plural(totals.pages, "page")}).${compared}${visual}`;
}
