import { Type, type Static } from "@sinclair/typebox";
import { Job, JOB_STATUSES } from "./job";
import { JobRequest, JOB_TYPES } from "./job-request";
import { Bool, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";

/**
 * A run: N ordinary jobs checked and decided together (issue 26, the lead's runs contract). The request the
 * client builds (POST /api/runs) and the run view the server answers (GET /api/runs/{runId}), shared by the
 * runs operations, the client that builds runs and its reports.
 */

/** A project's name: unique within its organization, created by its first run. */
export const PROJECT_NAME = "^[a-z0-9][a-z0-9._-]{0,63}$";
export const MAX_RUN_PAGES = 1000;

/** A page of a run: a whole job request of the spec's shape, and the name that identifies it across runs. */
export const RunPage = Type.Object(
  {
    ...JobRequest.properties,
    name: Type.Optional(
      Type.String({ minLength: 1, description: "The page's identity across runs (its pageKey); else its URL." }),
    ),
  },
  { additionalProperties: false },
);

/** A known issue accepted without turning its check off: its findings stay visible, as accepted. */
export const Ignore = Type.Object(
  {
    check: Type.String({ minLength: 1, description: "The validation id." }),
    page: Type.Optional(Type.String({ minLength: 1, description: "A glob over the pageKey; every page when absent." })),
    selector: Type.Optional(Type.String({ minLength: 1, description: "Only findings at this selector." })),
    finding: Type.Optional(Type.String({ minLength: 1, description: "Only findings whose message holds this text." })),
    reason: Type.String({ minLength: 1, description: "Why it is accepted: shown wherever the finding is." }),
  },
  { additionalProperties: false },
);

export const VisualOptions = Type.Object(
  {
    threshold: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "Per-pixel colour tolerance (0-1, default 0.1)." }),
    ),
    maxChangedRatio: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "The share of pixels that may change before a page counts as changed (default 0.001).",
      }),
    ),
    masks: Type.Optional(
      Type.Array(
        Type.Object(
          {
            selector: Type.Optional(Type.String({ minLength: 1 })),
            page: Type.Optional(Type.String({ minLength: 1, description: "A glob over the pageKey." })),
            x: Type.Optional(Type.Number({ minimum: 0 })),
            y: Type.Optional(Type.Number({ minimum: 0 })),
            width: Type.Optional(Type.Number({ minimum: 0 })),
            height: Type.Optional(Type.Number({ minimum: 0 })),
          },
          { additionalProperties: false },
        ),
        { description: "Regions left out of the comparison: an element, or a rectangle, on every page or some." },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The body of POST /api/runs. */
export const RunRequest = Type.Object(
  {
    project: Type.String({ pattern: PROJECT_NAME }),
    branch: Type.Optional(Type.String({ minLength: 1 })),
    commit: Type.Optional(Type.String({ minLength: 1 })),
    pages: Type.Array(RunPage, { minItems: 1, maxItems: MAX_RUN_PAGES }),
    failOn: Type.Optional(
      Type.String({ description: "The --fail-on grammar (src/domain/pass-policy.ts) plus `new` and `visual`." }),
    ),
    ignores: Type.Optional(Type.Array(Ignore)),
    visual: Type.Optional(VisualOptions),
    wait: Type.Optional(Type.Boolean({ description: "Answer once every page is settled (200), not at once (202)." })),
  },
  { additionalProperties: false },
);

const Decision = literals(["pass", "blocked", "undecided"] as const);
const PageFailure = Obj({ pageKey: Str(), validationId: Str(), reason: Str() });

export const RunView = Obj(
  {
    runId: Str(),
    project: Str(),
    branch: Nullable(Str()),
    commit: Nullable(Str()),
    status: literals(["running", "completed", "interrupted"] as const),
    createdAt: Str(),
    completedAt: Nullable(Str()),
    failOn: Str(),
    decision: Decision,
    visual: Opt(
      Obj({
        status: literals(["off", "pending", "no-baseline", "compared"] as const),
        message: Str(),
        threshold: Type.Number(),
        maxChangedRatio: Type.Number(),
      }),
    ),
    totals: Obj({
      pages: Int(),
      settled: Int(),
      passed: Int(),
      blocked: Int(),
      undecided: Int(),
      credits: Obj({ charged: Int(), refunded: Int(), net: Int() }),
    }),
    pages: Type.Array(
      Obj({
        index: Int(),
        name: Opt(Str()),
        pageKey: Str(),
        type: literals(JOB_TYPES),
        jobId: Str(),
        status: literals(JOB_STATUSES),
        decision: literals(["pass", "blocked", "undecided", "pending"] as const),
        summary: Obj({ pass: Int(), fail: Int(), error: Int() }),
        failures: Type.Array(
          Obj({ validationId: Str(), severity: Str(), reason: Str(), accepted: Opt(Obj({ reason: Str() })) }),
        ),
        visual: Opt(
          Obj({
            sizes: Type.Array(
              Obj({
                size: Str(),
                changedRatio: Type.Number(),
                changed: Opt(Bool()),
                diffUrl: Opt(Str()),
                diffShareUrl: Opt(Str()),
                baselineUrl: Str(),
                currentUrl: Str(),
              }),
            ),
            changed: Bool(),
          }),
        ),
        job: Opt(Job),
      }),
    ),
    comparison: Nullable(
      Obj({
        baselineRunId: Str(),
        baseBranch: Str(),
        newFailures: Type.Array(PageFailure),
        fixed: Type.Array(PageFailure),
        stillFailing: Type.Array(PageFailure),
        newPages: Type.Array(Str()),
        pagesGone: Type.Array(Str()),
        visualChanges: Type.Array(
          Obj({
            pageKey: Str(),
            size: Str(),
            changedRatio: Type.Number(),
            diffUrl: Opt(Str()),
            diffShareUrl: Opt(Str()),
          }),
        ),
      }),
    ),
    ignored: Type.Array(
      Obj({ pageKey: Str(), validationId: Str(), selector: Opt(Str()), finding: Opt(Str()), reason: Str() }),
    ),
  },
  "A run: its pages' jobs decided together, and their comparison with the project's baseline.",
);

export type RunRequestBody = Static<typeof RunRequest>;
export type RunPageRequest = Static<typeof RunPage>;
export type RunViewBody = Static<typeof RunView>;
export type IgnoreRule = Static<typeof Ignore>;
