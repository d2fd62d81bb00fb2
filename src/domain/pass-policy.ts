import { ASSAY_SEVERITIES, POLICY_SEVERITIES } from "../contracts/job-request";

/**
 * The pass policy: whether a job's results block, pass, or leave the decision open. One pure function for the
 * job view (`overallPassPolicy`), the command line (`assay run --fail-on`) and anything else that decides.
 *
 * Two severity vocabularies meet here. Assay's catalog speaks `critical`, `major`, `minor`, `info`; the hosted
 * service's clients speak `required`, `recommended`, `optional`, `prohibited`. The mapping (SEVERITY_MAPPING):
 *
 * | Assay      | policy        | a failure…                                   |
 * |------------|---------------|----------------------------------------------|
 * | critical   | required      | blocks                                       |
 * | major      | required      | blocks                                       |
 * | minor      | recommended   | warns                                        |
 * | info       | optional      | warns                                        |
 * | (none)     | prohibited    | blocks: the check found the prohibited thing |
 *
 * A request's `severity: "required"` is stored as `critical`, `recommended` as `minor`, `optional` as `info`;
 * `prohibited` has no Assay counterpart: stored as `critical` (it blocks), and the job keeps `prohibited` beside it.
 *
 * The threshold (`--fail-on`) is a comma-separated list of words, case-insensitive:
 * - `fail` (the default): failed rows whose severity is required (critical, major) or prohibited block.
 * - one severity name, of either vocabulary: failed rows of that severity or graver block. The order, gravest
 *   first: prohibited, critical, major (= required), minor (= recommended), info (= optional). `required` is the
 *   same as `fail`; `info` or `optional` makes every failure block (Assay's "every result passes").
 * - `error`: error rows at a blocking severity block too. Without it they are `undecided`: the check could not
 *   run, so it is no verdict either way. Error rows below the threshold only warn, as their failures would.
 * `fail` and a severity name together: the severity name wins. An unknown word throws a RangeError.
 *
 * A blocking row goes to `blockingProhibited` when its severity is prohibited, else to `blockingRequired` (a
 * threshold below `required` makes more rows required for this decision); `blockedByProhibited` and
 * `blockedByRequired` say whether each list has an id, as booleans: the hosted service's clients test them for
 * truth (`if (p.blockedByRequired || p.blockedByProhibited)`), and an empty list would be true. The decision:
 * `blocked` when either list has an id; else `undecided` when `undecided` has one; else `pass`. Rows are ids in
 * their given order.
 *
 * `decideJob(job, threshold?)` decides a job's JSON (GET /api/jobs/{jobId}) the same way: what a client such as
 * `assay run` calls, agreeing with the job's own `overallPassPolicy` under the default threshold.
 */

export type AssaySeverity = (typeof ASSAY_SEVERITIES)[number];
export type PolicySeverity = (typeof POLICY_SEVERITIES)[number];
/** What a row's severity may be: either vocabulary. */
export type AnySeverity = AssaySeverity | PolicySeverity;

/** Assay's severity to the hosted vocabulary. */
export const TO_POLICY: Readonly<Record<AssaySeverity, PolicySeverity>> = {
  critical: "required",
  major: "required",
  minor: "recommended",
  info: "optional",
};

/** A request's hosted severity as Assay stores it (`prohibited` has no Assay counterpart and stays itself). */
export const FROM_POLICY: Readonly<Record<PolicySeverity, AssaySeverity | "prohibited">> = {
  required: "critical",
  recommended: "minor",
  optional: "info",
  prohibited: "prohibited",
};

/** The published mapping, one line per Assay severity plus prohibited: what the catalog and llms.txt show. */
export const SEVERITY_MAPPING: ReadonlyArray<{ assay: AssaySeverity | null; policy: PolicySeverity; blocks: boolean }> =
  [
    { assay: "critical", policy: "required", blocks: true },
    { assay: "major", policy: "required", blocks: true },
    { assay: "minor", policy: "recommended", blocks: false },
    { assay: "info", policy: "optional", blocks: false },
    { assay: null, policy: "prohibited", blocks: true },
  ];

/** A row's severity in the hosted vocabulary, whichever vocabulary it is written in. */
export function policySeverity(severity: AnySeverity): PolicySeverity {
  return isPolicySeverity(severity) ? severity : TO_POLICY[severity];
}

/** Whether a severity is in the hosted vocabulary. */
export const isPolicySeverity = (severity: string): severity is PolicySeverity =>
  (POLICY_SEVERITIES as readonly string[]).includes(severity);

/** How a request's severity is stored in Assay's vocabulary: FROM_POLICY, with prohibited kept as critical (it blocks). */
export function storedSeverity(severity: AnySeverity): AssaySeverity {
  if (!isPolicySeverity(severity)) return severity;
  const stored = FROM_POLICY[severity];
  return stored === "prohibited" ? "critical" : stored;
}

/** Gravity, higher is graver: what a threshold compares. */
const RANK: Readonly<Record<AnySeverity, number>> = {
  prohibited: 4,
  critical: 3,
  major: 2,
  required: 2,
  minor: 1,
  recommended: 1,
  info: 0,
  optional: 0,
};

/** A parsed threshold: rows of rank `minRank` or graver block when failed; `errorsBlock`: error rows too. */
export interface Threshold {
  minRank: number;
  errorsBlock: boolean;
}

export const DEFAULT_THRESHOLD: Threshold = { minRank: RANK.required, errorsBlock: false };

/** Parses a `--fail-on` value (see the module comment); throws a RangeError naming an unknown word. */
export function parseThreshold(text: string): Threshold {
  const words = text
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== "");
  if (words.length === 0) throw new RangeError("The threshold is empty: use fail, error, or a severity name.");
  let minRank: number | undefined;
  let errorsBlock = false;
  for (const word of words) {
    if (word === "fail") continue;
    if (word === "error") errorsBlock = true;
    else if (word in RANK) {
      if (minRank !== undefined)
        throw new RangeError(`The threshold names two severities; give one (the lowest that should block).`);
      minRank = RANK[word as AnySeverity];
    } else
      throw new RangeError(
        `Unknown threshold word ${JSON.stringify(word)}: use fail, error, or one of ${[...POLICY_SEVERITIES, ...ASSAY_SEVERITIES].join(", ")}.`,
      );
  }
  return { minRank: minRank ?? DEFAULT_THRESHOLD.minRank, errorsBlock };
}

/** One result row as the policy reads it: its id, its verdict (`verdict` or `status`) and its severity. */
export type PolicyRow = { validationId: string; severity: AnySeverity } & (
  | { verdict: "pass" | "fail" | "error" }
  | { status: "pass" | "fail" | "error" }
);

export interface PassPolicy {
  /** Whether a row blocks whose severity is not prohibited (blockingRequired has an id). */
  blockedByRequired: boolean;
  /** Whether a row blocks whose severity is prohibited (blockingProhibited has an id). */
  blockedByProhibited: boolean;
  /** Blocking rows whose severity is not prohibited. */
  blockingRequired: string[];
  /** Blocking rows whose severity is prohibited. */
  blockingProhibited: string[];
  blocked: boolean;
  /** Error rows at a blocking severity, when the threshold does not count errors. */
  undecided: string[];
  /** Failed (or error) rows below the threshold: reported, never blocking. */
  warnings: string[];
  decision: "pass" | "blocked" | "undecided";
}

/** Decides a job from its result rows under a threshold (a `--fail-on` string or a parsed Threshold; default `fail`). */
export function passPolicy(
  results: readonly PolicyRow[],
  threshold: string | Threshold = DEFAULT_THRESHOLD,
): PassPolicy {
  const t = typeof threshold === "string" ? parseThreshold(threshold) : threshold;
  const blockingRequired: string[] = [];
  const blockingProhibited: string[] = [];
  const undecided: string[] = [];
  const warnings: string[] = [];
  for (const row of results) {
    const verdict = "verdict" in row ? row.verdict : row.status;
    if (verdict === "pass") continue;
    if (RANK[row.severity] < t.minRank) warnings.push(row.validationId);
    else if (verdict === "error" && !t.errorsBlock) undecided.push(row.validationId);
    else (row.severity === "prohibited" ? blockingProhibited : blockingRequired).push(row.validationId);
  }
  const blockedByRequired = blockingRequired.length > 0;
  const blockedByProhibited = blockingProhibited.length > 0;
  const blocked = blockedByRequired || blockedByProhibited;
  const decision = blocked ? "blocked" : undecided.length > 0 ? "undecided" : "pass";
  return {
    blockedByRequired,
    blockedByProhibited,
    blockingRequired,
    blockingProhibited,
    blocked,
    undecided,
    warnings,
    decision,
  };
}

/** A job as GET /api/jobs/{jobId} answers it, as much as deciding needs (older servers lack validationSets). */
export interface DecidableJob {
  status: string;
  results: ReadonlyArray<{
    validationId: string;
    severity: AssaySeverity;
    verdict: "pass" | "fail" | "error";
    policySeverity?: PolicySeverity;
  }>;
  validationSets?: ReadonlyArray<{
    validations: ReadonlyArray<{ validationId: string; severity: PolicySeverity; status: string }>;
  }>;
  interruption?: unknown;
}

export type JobDecision = Omit<PassPolicy, "decision"> & { decision: PassPolicy["decision"] | "pending" };

/**
 * Decides a job's JSON under a threshold, as the job's own overallPassPolicy does under `fail`: a result row is
 * read at its Assay severity (finer for thresholds) unless it is prohibited; a check without a row (an expired
 * email job's) at its hosted severity and status. `pending` until the job settles; an interrupted or expired job
 * that nothing blocks is undecided.
 */
export function decideJob(job: DecidableJob, threshold: string | Threshold = DEFAULT_THRESHOLD): JobDecision {
  const results = new Map(job.results.map((r) => [r.validationId, r]));
  const listed = job.validationSets?.flatMap((s) => s.validations) ?? [];
  const rows: PolicyRow[] = listed.length
    ? listed.flatMap((v): PolicyRow[] => {
        const r = results.get(v.validationId);
        if (r)
          return [
            {
              validationId: r.validationId,
              severity: r.policySeverity === "prohibited" ? "prohibited" : r.severity,
              verdict: r.verdict,
            },
          ];
        return v.status === "pass" || v.status === "fail" || v.status === "error"
          ? [{ validationId: v.validationId, severity: v.severity, status: v.status }]
          : [];
      })
    : job.results.map((r) => ({
        validationId: r.validationId,
        severity: r.policySeverity === "prohibited" ? "prohibited" : r.severity,
        verdict: r.verdict,
      }));
  const decided: JobDecision = passPolicy(rows, threshold);
  if (job.status === "pending" || job.status === "running") decided.decision = "pending";
  else if (
    decided.decision === "pass" &&
    (job.interruption || job.status === "expired" || job.status === "interrupted")
  )
    decided.decision = "undecided";
  return decided;
}
