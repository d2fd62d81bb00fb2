import { Type, type Static } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData } from "./shared";

/** What a run's page, a comparison's entry or a project is named by: bounded, since each lands in the log. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
/** A page's identity across runs (src/domain/runs.ts, pageKeyOf): its name, or its normalized URL or subject. */
const PageKey = Type.String({ minLength: 1, maxLength: 8192 });
/** A project's name: unique within its organization. */
export const PROJECT_PATTERN = "^[a-z0-9][a-z0-9._-]{0,63}$";
const ProjectName = Type.String({ pattern: PROJECT_PATTERN });
const Branch = Text(255);
const RunDecision = Type.Union([Type.Literal("pass"), Type.Literal("blocked"), Type.Literal("undecided")]);

/**
 * A known failure accepted without turning its check off: a failure of `check` (on the pages whose pageKey the glob
 * `page` matches, when given), every finding of which has a selector containing `selector` (when given) and a message or
 * text containing `finding` (when given), is shown as accepted with the reason and does not block.
 */
export const Ignore = Type.Object(
  {
    check: Id,
    page: Type.Optional(Text(1000)),
    selector: Type.Optional(Text(1000)),
    finding: Type.Optional(Text(1000)),
    reason: Text(1000),
  },
  { additionalProperties: false },
);
export type IgnoreData = Static<typeof Ignore>;

/** The visual comparison's settings, recorded with the run (the pixel diff reads them). */
export const VisualSettings = Type.Object(
  {
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    maxChangedRatio: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    masks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            selector: Type.Optional(Text(1000)),
            page: Type.Optional(Text(1000)),
            x: Type.Optional(Type.Integer({ minimum: 0 })),
            y: Type.Optional(Type.Integer({ minimum: 0 })),
            width: Type.Optional(Type.Integer({ minimum: 1 })),
            height: Type.Optional(Type.Integer({ minimum: 1 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 100 },
      ),
    ),
  },
  { additionalProperties: false },
);

/** Stream `run-<runId>`: the run admitted whole, in the transaction that accepts and charges every page's job. */
export const RunStarted = eventType(
  "RunStarted",
  Type.Object(
    {
      runId: Id,
      customerId: Id,
      project: ProjectName,
      branch: Type.Optional(Branch),
      commit: Type.Optional(Text(255)),
      /** The run's threshold: the pass policy's words, plus `new` and `visual` (src/domain/run-comparison.ts). */
      failOn: Text(200),
      /** Each page's job, in the request's order: the run's totals are its jobs'. */
      pages: Type.Array(
        Type.Object(
          {
            index: Type.Integer({ minimum: 0 }),
            pageKey: PageKey,
            name: Type.Optional(Text(500)),
            jobId: Id,
            type: Type.Union([Type.Literal("url"), Type.Literal("static_html"), Type.Literal("email")]),
          },
          { additionalProperties: false },
        ),
        { minItems: 1 },
      ),
      totalCredits: Credits,
      ignores: Type.Array(Ignore),
      visual: Type.Optional(VisualSettings),
    },
    { additionalProperties: false },
  ),
);
export type RunStartedData = EventData<typeof RunStarted>;

/** A failure named by the comparison: the page, the check, and the failure's reason (cut to 500 characters). */
const ComparedFailure = Type.Object(
  { pageKey: PageKey, validationId: Id, reason: Type.String({ maxLength: 500 }) },
  { additionalProperties: false },
);

/** A failure accepted by an ignore: the page, the check, and the ignore that accepted it. */
const IgnoredFailure = Type.Object(
  {
    pageKey: PageKey,
    validationId: Id,
    selector: Type.Optional(Text(1000)),
    finding: Type.Optional(Text(1000)),
    reason: Text(1000),
  },
  { additionalProperties: false },
);

/** The run against its baseline run (src/domain/run-comparison.ts), recorded once every page settled. */
export const RunComparison = Type.Object(
  {
    newFailures: Type.Array(ComparedFailure),
    fixed: Type.Array(ComparedFailure),
    stillFailing: Type.Array(ComparedFailure),
    newPages: Type.Array(PageKey),
    pagesGone: Type.Array(PageKey),
    visualChanges: Type.Array(
      Type.Object(
        { pageKey: PageKey, size: Text(50), changedRatio: Type.Number({ minimum: 0, maximum: 1 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });

/**
 * One page's screenshot at one size against its baseline page's (src/domain/visual-diff.ts), as compared when the run
 * completed: the two screenshots' capture keys, the share of pixels that changed, whether that is beyond the run's
 * maxChangedRatio, and the diff image when any pixel changed (stored under the page's job like its screenshots, and
 * served as a capture).
 */
export const VisualDiff = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    jobId: Id,
    size: Text(50),
    changedRatio: Type.Number({ minimum: 0, maximum: 1 }),
    changed: Type.Boolean(),
    baselineKey: Text(500),
    currentKey: Text(500),
    diff: Type.Optional(
      Type.Object(
        {
          key: Text(500),
          viewport: Text(50),
          contentType: Text(100),
          bytes: Type.Integer({ minimum: 0 }),
          sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type VisualDiffData = Static<typeof VisualDiff>;

/**
 * Stream `run-<runId>`: every page's job settled (completed, interrupted or expired). `interrupted` when a page could
 * not be checked (its job interrupted or expired). The decision, the comparison with the baseline run it was compared
 * with (none when the project had no baseline), and what was accepted, as decided then.
 */
export const RunCompleted = eventType(
  "RunCompleted",
  Type.Object(
    {
      runId: Id,
      customerId: Id,
      project: ProjectName,
      status: Type.Union([Type.Literal("completed"), Type.Literal("interrupted")]),
      decision: RunDecision,
      /** The project's base branch when the run completed, and the baseline run it was compared with then. */
      baseBranch: Branch,
      comparedWith: Type.Optional(Id),
      counts: Type.Object(
        {
          pages: Count,
          passed: Count,
          blocked: Count,
          undecided: Count,
          newFailures: Count,
          fixed: Count,
          stillFailing: Count,
          newPages: Count,
          pagesGone: Count,
          ignored: Count,
          visualChanges: Count,
        },
        { additionalProperties: false },
      ),
      /** Each page's decision, by the page's index in RunStarted. */
      pages: Type.Array(
        Type.Object({ index: Type.Integer({ minimum: 0 }), decision: RunDecision }, { additionalProperties: false }),
      ),
      comparison: Type.Optional(RunComparison),
      ignored: Type.Array(IgnoredFailure),
      /** The visual comparison with the baseline run, per page and size, when the run asked for it and had one. */
      visual: Type.Optional(Type.Array(VisualDiff)),
    },
    { additionalProperties: false },
  ),
);
export type RunCompletedData = EventData<typeof RunCompleted>;

/**
 * Stream `project-<customerId>-<project>`: a run named the project's baseline. It stays the baseline until a run on the
 * base branch completes after it (the later of the two is the baseline: src/domain/runs.ts, baselineOf).
 */
export const BaselineSet = eventType(
  "BaselineSet",
  Type.Object(
    { customerId: Id, project: ProjectName, runId: Id, by: Type.Literal("explicit") },
    { additionalProperties: false },
  ),
);
export type BaselineSetData = EventData<typeof BaselineSet>;

/** Stream `project-<customerId>-<project>`: the branch whose latest completed run is the project's baseline. */
export const ProjectConfigured = eventType(
  "ProjectConfigured",
  Type.Object({ customerId: Id, project: ProjectName, baseBranch: Branch }, { additionalProperties: false }),
);
export type ProjectConfiguredData = EventData<typeof ProjectConfigured>;

export const runEvents = [RunStarted, RunCompleted, BaselineSet, ProjectConfigured] as const;
