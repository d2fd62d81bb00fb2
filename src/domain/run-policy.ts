import { DEFAULT_THRESHOLD, parseThreshold, passPolicy, type AnySeverity, type Threshold } from "./pass-policy";

/**
 * A run's failOn: the job threshold's words (src/domain/pass-policy.ts: fail, a severity name, error) plus `new`
 * (only failures new against the baseline block; with no baseline every failure is new) and `visual` (a page whose
 * screenshots changed beyond the run's maxChangedRatio blocks). `new` alone keeps the default threshold: a new
 * failure of required severity blocks, a new minor one warns. Throws a RangeError naming an unknown word.
 */
export interface RunFailOn {
  threshold: Threshold;
  newOnly: boolean;
  visual: boolean;
}

export function parseRunFailOn(text: string): RunFailOn {
  const words = text
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  const rest = words.filter((w) => w !== "new" && w !== "visual");
  return {
    threshold: rest.length ? parseThreshold(rest.join(",")) : DEFAULT_THRESHOLD,
    newOnly: words.includes("new"),
    visual: words.includes("visual"),
  };
}

/**
 * What one check's row of one page does to the run: `blocks`; `undecided` (it could not run, at a blocking
 * severity, and errors do not block); `warns` (below the threshold); `known` (a failure the baseline had, under
 * `new`); `accepted` (an ignore accepts it); `passes`. The per-row reading behind a run's decision, and what the
 * reports mark: a JUnit failure, a SARIF error, only where a row blocks.
 */
export type RowEffect = "blocks" | "undecided" | "warns" | "known" | "accepted" | "passes";

export function rowEffect(
  row: { validationId: string; severity: AnySeverity; verdict: "pass" | "fail" | "error" },
  failOn: RunFailOn,
  { isNew, accepted }: { isNew: boolean; accepted: boolean },
): RowEffect {
  if (row.verdict === "pass") return "passes";
  if (row.verdict === "fail" && accepted) return "accepted";
  const policy = passPolicy([row], failOn.threshold);
  if (policy.warnings.length) return "warns";
  if (policy.undecided.length) return "undecided";
  if (row.verdict === "fail" && failOn.newOnly && !isNew) return "known";
  return "blocks";
}
