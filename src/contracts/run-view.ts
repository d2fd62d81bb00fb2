import { Type, type Static } from "@sinclair/typebox";
import { ASSAY_SEVERITIES } from "./job-request";
import { Job, JOB_STATUSES } from "./job";
import { JobType } from "./catalog";
import { Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";

/** A run as the run operations answer it, its brief form in lists, and a project. */

export const RUN_STATUSES = ["running", "completed", "interrupted"] as const;

const Decision = literals(["pass", "blocked", "undecided", "pending"] as const);

const PageFailure = Obj(
  {
    validationId: Str(),
    severity: literals([...ASSAY_SEVERITIES, "prohibited"] as const),
    reason: Str(),
    accepted: Opt(Obj({ reason: Str() }, "Accepted by the run's ignores: shown, never blocking.")),
  },
  "A failed check of the page.",
);

const Ratio = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

/** The visual comparison of one page: its screenshot at each size against its baseline page's (the same pageKey). */
const PageVisual = Obj(
  {
    sizes: Type.Array(
      Obj({
        size: Str("The capture size (desktop-md, tablet-portrait, mobile-sm)."),
        changedRatio: Ratio(
          "The share of the pixels that changed (masks left out, a part only one screenshot has counted changed).",
        ),
        changed: Type.Boolean({ description: "Beyond the run's maxChangedRatio: blocks under failOn visual." }),
        diffUrl: Opt(
          Str(
            "The diff image (PNG: changes red over a faded copy of this page, masks blue), when any pixel changed; your key fetches it.",
          ),
        ),
        diffShareUrl: Opt(Str("The diff image for anyone with this link, until it expires (no key).")),
        baselineUrl: Str("The baseline page's screenshot at this size."),
        currentUrl: Str("This page's screenshot at this size."),
      }),
    ),
    changed: Type.Boolean({ description: "A size changed beyond the run's maxChangedRatio." }),
  },
  "The page's screenshots against its baseline page's, per size both have; absent when it has no baseline counterpart or the run made no visual comparison.",
);

/** The run's visual comparison as a whole: whether it was made, and with what tolerance. */
const RunVisual = Obj(
  {
    status: literals(["off", "pending", "no-baseline", "compared"] as const),
    message: Str("What the status means for this run."),
    threshold: Ratio("pixelmatch's per-pixel colour threshold (0: any difference; default 0.1)."),
    maxChangedRatio: Ratio("The changed share beyond which a page's size counts as changed (default 0.001)."),
  },
  "The visual comparison: off (the run asked for none: give visual settings or failOn visual), pending (made when the run completes), no-baseline (the project had none to compare with), compared.",
);

export const RunPage = Obj(
  {
    index: Int(),
    name: Opt(Str()),
    pageKey: Type.String({ description: "The page's identity across runs." }),
    type: JobType,
    jobId: Str(),
    status: literals(JOB_STATUSES),
    decision: Decision,
    summary: Obj({ pass: Int(), fail: Int(), error: Int() }),
    failures: Type.Array(PageFailure),
    testEmail: Opt(Type.String({ description: "Email pages: the one-time address to send the page's message to." })),
    visual: Opt(PageVisual),
    job: Opt(Job),
  },
  "One page of the run: its job, how it ended, its decision and failures (job: the whole job, verbose only).",
);

const Compared = Obj({ pageKey: Str(), validationId: Str(), reason: Str() });

export const RunComparisonView = Obj(
  {
    baselineRunId: Str(),
    baseBranch: Str(),
    newFailures: Type.Array(Compared),
    fixed: Type.Array(Compared),
    stillFailing: Type.Array(Compared),
    newPages: Type.Array(Str()),
    pagesGone: Type.Array(Str()),
    visualChanges: Type.Array(
      Obj(
        {
          pageKey: Str(),
          size: Str(),
          changedRatio: Type.Number(),
          diffUrl: Opt(Str("The diff image; your key fetches it.")),
          diffShareUrl: Opt(Str("The diff image for anyone with this link, until it expires.")),
        },
        "A page whose screenshot at this size changed beyond the run's maxChangedRatio.",
      ),
    ),
  },
  "The run against its baseline run, per page and check.",
);

const Totals = Obj(
  {
    pages: Int(),
    settled: Int(),
    passed: Int(),
    blocked: Int(),
    undecided: Int(),
    credits: Obj({ charged: Int(), refunded: Int(), net: Int() }),
  },
  "The pages counted by how they ended and were decided, and the credits of their jobs.",
);

const runHead = {
  runId: Str(),
  project: Str(),
  branch: Nullable(Str()),
  commit: Nullable(Str()),
  status: literals(RUN_STATUSES),
  createdAt: Str(),
  completedAt: Nullable(Str()),
  failOn: Str(),
  decision: Decision,
  totals: Totals,
  visual: RunVisual,
};

export const RunView = Obj(
  {
    ...runHead,
    pages: Type.Array(RunPage),
    comparison: Nullable(RunComparisonView),
    ignored: Type.Array(
      Obj({
        pageKey: Str(),
        validationId: Str(),
        selector: Opt(Str()),
        finding: Opt(Str()),
        reason: Str(),
      }),
    ),
  },
  "A run: its pages (each a job), its decision, and its comparison with the baseline (null until it completes, or without a baseline).",
);

export const RunBrief = Obj(
  {
    ...runHead,
    comparedWith: Nullable(Type.String({ description: "The baseline run it was compared with, once completed." })),
    counts: Nullable(
      Obj(
        {
          pages: Int(),
          passed: Int(),
          blocked: Int(),
          undecided: Int(),
          newFailures: Int(),
          fixed: Int(),
          stillFailing: Int(),
          newPages: Int(),
          pagesGone: Int(),
          ignored: Int(),
          visualChanges: Int(),
        },
        "The run's judgement counted, once completed.",
      ),
    ),
  },
  "A run in a list: its head, totals and counts, without pages.",
);

export const ProjectView = Obj(
  {
    project: Str(),
    baseBranch: Str(),
    baselineRunId: Nullable(Type.String({ description: "The run the next run is compared with." })),
    baselineBy: Nullable(literals(["explicit", "latest"] as const)),
    latestRunId: Nullable(Str()),
    runs: Int(),
    createdAt: Str(),
  },
  "A project: its base branch and its baseline (set explicitly, or the latest completed run on the base branch).",
);

export type RunViewBody = Static<typeof RunView>;
