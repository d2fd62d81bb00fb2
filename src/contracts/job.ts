import { type Static, Type } from "@sinclair/typebox";
import {
  Finding,
  JudgeProvenance,
  PolicySeverity,
  ResultReasonCode,
  Severity,
  SkippedValidation,
} from "../../events/jobs";
import { DETAILS, enumOf } from "./job-request";
import { JobType, Reference } from "./catalog";
import { Bool, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";

/**
 * The job as the job operations answer it (its results, skipped checks and pass policy), its price quote, and the
 * request parts that name a job and its detail.
 */

export const JOB_STATUSES = ["pending", "running", "completed", "interrupted", "expired"] as const;

export const detail = () =>
  Type.Optional(
    enumOf(
      DETAILS,
      "brief (default) or verbose (adds references and a note to each result, and to a row a vision model judged its provenance, `judge`).",
    ),
  );

export const JobRef = Type.Object({ jobId: Type.String({ minLength: 1, description: "The job's id (job_…)." }) });

/** A priced check: a line of a quote or of a plan. */
export const PriceLine = Obj({ validationId: Str(), credits: Int() });

/** One shape wherever a skipped check is listed: the job, its estimate, check_job_request's plan and quote. */
export const SkippedCheck = Obj(
  { ...SkippedValidation.properties, reasonCode: SkippedValidation.properties.reason },
  "A check not run (missing parameters, or not in the organization's plan): not a verdict, not charged. reasonCode is reason under the hosted service's name.",
);

export const Quote = Obj(
  {
    type: JobType,
    validationSetId: Opt(Str()),
    lines: Type.Array(PriceLine),
    totalCredits: Int(),
    balance: Int(),
    sufficient: Bool(),
    shortfall: Opt(Int()),
    skipped_validations: Type.Array(SkippedCheck),
  },
  "A price quote.",
);

/** One change a mail client's profile made to a message, as a render's view lists it. */
export const RenderChangeView = Obj(
  {
    action: Str(),
    target: Type.String({
      description: "What was removed or rewritten (a declaration, an at-rule, an element).",
    }),
    selector: Opt(Type.String({ description: "The rule's selector, or the element as the message wrote it." })),
    line: Opt(Type.Integer({ description: "The line in the message's HTML part." })),
    rule: Type.String({ description: "The client's rule that caused it, as its source states it." }),
    source: Type.String({ description: "The id of the rule's source, in sources." }),
    count: Int(),
  },
  "One change the client's profile made to the message (identical ones counted together).",
);
export type RenderChangeView = Static<typeof RenderChangeView>;

const RenderView = Obj(
  {
    clientId: Str(),
    formFactor: Str(),
    engine: Opt(
      Type.String({
        description:
          "The browser engine the render was laid out in: webkit for Apple Mail where this server has WebKit, gecko for Thunderbird where it has Gecko, else chromium.",
      }),
    ),
    engineNote: Opt(
      Type.String({ description: "Why the render is in Chromium though its client renders in another engine." }),
    ),
    screenshotUrl: Type.String({ description: "The render's screenshot; fetch with the same Bearer key." }),
    darkMode: Opt(
      Obj(
        {
          method: literals(["forced-inversion", "prefers-color-scheme", "none"] as const),
          extent: Opt(literals(["full", "partial"] as const)),
          darkened: Bool(),
          how: Str(),
        },
        "How the client darkened the message: a forced inversion of its colours (full or partial), or the message's own prefers-color-scheme styles.",
      ),
    ),
    changes: Type.Array(RenderChangeView),
    changesOmitted: Type.Integer({ description: "Distinct changes past the listed ones, counted only." }),
    sources: Type.Record(
      Str(),
      Obj(
        { name: Str(), title: Str(), url: Str(), checked: Str() },
        "Where a rule comes from, and the day it was last checked.",
      ),
    ),
  },
  "An email render the result read (verbose), with what the mail client's profile did to the message.",
);

const Result = Obj(
  {
    validationId: Str(),
    name: Str(),
    verdict: literals(["pass", "fail", "error"] as const),
    severity: Severity,
    reason: Opt(Type.String({ description: "On fail: what to fix and where. On error: the cause." })),
    reasoning: Str(),
    findings: Type.Array(Finding),
    reasonCode: Opt({
      ...ResultReasonCode,
      description:
        "NEEDS_REVIEW: a vision model failed the row but the inspector's measurements found nothing, so it is an error (refunded) for a person to look at, not a fail (docs/judges.md).",
    }),
    judge: Opt(
      Type.Object(JudgeProvenance.properties, {
        additionalProperties: false,
        description:
          "Verbose detail, rows a vision model judged: the model, the prompt version, the SHA-256 of each image it saw, the inspector's measurements it was given, its answer, tokens and latency (docs/judges.md).",
      }),
    ),
    screenshotUrl: Opt(Type.String({ description: "Fetch with the same Bearer key; does not expire." })),
    screenshotShareUrl: Opt(Type.String({ description: "Short-lived link usable without a key." })),
    captures: Opt(
      Type.Array(
        Obj({
          viewport: Str(),
          engine: Type.String({
            description: "The browser engine the capture was rendered in: chromium, webkit or gecko.",
          }),
          screenshotUrl: Str(),
        }),
      ),
    ),
    references: Opt(Type.Array(Reference)),
    note: Opt(Str()),
    renders: Opt(Type.Array(RenderView)),
    status: literals(["pass", "fail", "error"] as const),
    policySeverity: PolicySeverity,
    captureSizeId: Opt(
      Type.String({
        description:
          "The capture size (a webpage's viewport, an email render's form factor) of the render this row refers to.",
      }),
    ),
    captureClientId: Opt(
      Type.String({ description: "Email renders: the mail client of the render this row refers to." }),
    ),
  },
  "One check's result. verdict error: the check could not run (not a verdict; refunded). status is verdict under the hosted service's name, policySeverity the severity in its vocabulary.",
);

const Ids = (description: string) => Type.Array(Str(), { description });

/** The job's decision under the default threshold (`fail`), from src/domain/pass-policy.ts. */
const OverallPassPolicy = Obj(
  {
    threshold: Type.Literal("fail"),
    blockedByRequired: Type.Boolean({
      description:
        "Whether a failed check of severity required (critical or major) blocks: blockingRequired has an id.",
    }),
    blockedByProhibited: Type.Boolean({
      description: "Whether a prohibited thing was found: blockingProhibited has an id.",
    }),
    blockingRequired: Ids("Failed checks whose severity is required (critical or major): any one blocks."),
    blockingProhibited: Ids("Failed checks of severity prohibited (the prohibited thing was found): any one blocks."),
    undecided: Ids("Checks of a blocking severity that could not run (error): no verdict either way."),
    warnings: Ids("Failed or errored checks of severity recommended or optional: reported, never blocking."),
    decision: literals(["pass", "blocked", "undecided", "pending"] as const),
  },
  "blocked when blockedByRequired or blockedByProhibited is true (either blocking list has an id); else undecided when undecided has one (or the job was interrupted or expired); else pass. pending until the job settles.",
);

const JobValidationSet = Obj(
  {
    validationSetId: Nullable(
      Type.String({ description: "The set these checks came from; null: checks the request named one by one." }),
    ),
    validations: Type.Array(
      Obj({
        validationId: Str(),
        severity: PolicySeverity,
        status: literals(["pass", "fail", "error", "pending"] as const),
      }),
    ),
    failuresBySeverity: Obj(
      {
        required: Type.Array(Str()),
        recommended: Type.Array(Str()),
        optional: Type.Array(Str()),
        prohibited: Type.Array(Str()),
      },
      "The ids of the failed checks, by severity (hosted vocabulary).",
    ),
  },
  "The checks of one source (a set, or the request's own list) with their hosted severity and status.",
);

const EmailCapture = Obj(
  {
    testEmail: Str(),
    captureMode: Type.Literal("inbox", {
      description: "The message is sent to the one-time address of Assay's SMTP inbox.",
    }),
    captureStatus: literals(["awaiting_email", "received", "expired"] as const),
    expiresAt: Str(),
  },
  "An email job's capture: the address, and whether the message came.",
);

const Interruption = Obj(
  {
    cause: literals(["capture_failed", "execution_failed", "email_expired"] as const),
    message: Str(),
    affectedValidationIds: Type.Array(Str()),
    refund: Obj({ settled: Bool(), refundedCredits: Int() }),
  },
  "Why the job stopped short (the subject could not be captured, the job could not run, or no message came) and what was refunded.",
);

export const Job = Obj(
  {
    jobId: Str(),
    type: JobType,
    status: literals(JOB_STATUSES),
    subject: Obj(
      {
        url: Opt(Str()),
        baseUrl: Opt(Str()),
        htmlSha256: Opt(Str()),
        htmlBytes: Opt(Int()),
        emailSubject: Opt(Str()),
        testEmail: Opt(Str()),
        expiresAt: Opt(Str()),
      },
      "The subject as a fingerprint: HTML by its SHA-256 and size; an email job's test address and window.",
    ),
    validationSetId: Opt(Type.String({ description: "The set the request named." })),
    validationSets: Type.Array(JobValidationSet),
    overallPassPolicy: OverallPassPolicy,
    summary: Obj(
      {
        pass: Int(),
        fail: Int(),
        error: Int(),
        passed: Type.Boolean({
          description:
            "overallPassPolicy.decision is pass: decided by the same rule, so a failed recommended or optional check still passes.",
        }),
      },
      "The results counted by verdict, and whether the job passed.",
    ),
    results: Type.Array(Result),
    skipped_validations: Type.Array(SkippedCheck),
    credits: Obj({ charged: Int(), refunded: Int(), net: Int() }),
    emailCapture: Opt(EmailCapture),
    testEmail: Opt(Type.String({ description: "Email jobs: the one-time address to send the message to." })),
    expiresAt: Opt(Str()),
    email: Opt(Obj({ from: Str(), subject: Str(), expectedSubject: Opt(Str()), subjectMatches: Opt(Bool()) })),
    warnings: Opt(Type.Array(Str())),
    interruption: Opt(Interruption),
    createdAt: Str(),
    completedAt: Nullable(Str()),
  },
  "A job.",
);
