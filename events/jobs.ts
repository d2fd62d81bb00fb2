import { Type, type Static } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData } from "./shared";

export const Verdict = Type.Union([Type.Literal("pass"), Type.Literal("fail"), Type.Literal("error")]);
export const Severity = Type.Union([
  Type.Literal("critical"),
  Type.Literal("major"),
  Type.Literal("minor"),
  Type.Literal("info"),
]);

/** The hosted service's severity vocabulary, kept on a validation when the request named it (src/domain/pass-policy.ts maps it). */
export const PolicySeverity = Type.Union([
  Type.Literal("required"),
  Type.Literal("recommended"),
  Type.Literal("optional"),
  Type.Literal("prohibited"),
]);

/** How a finding was decided: from the DOM, by axe-core, from rendered pixels, by reading text in images, by a model. */
export const FindingMethod = Type.Union([
  Type.Literal("dom"),
  Type.Literal("axe"),
  Type.Literal("pixels"),
  Type.Literal("ocr"),
  Type.Literal("model"),
]);

export const Finding = Type.Object(
  {
    message: Type.String(),
    selector: Type.Optional(Type.String()),
    url: Type.Optional(Type.String()),
    viewport: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    measured: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    method: Type.Optional(FindingMethod),
  },
  { additionalProperties: false },
);

export const SelectedValidation = Type.Object(
  {
    id: Id,
    severity: Severity,
    /** The severity as the request named it in the hosted vocabulary (severity holds its Assay equivalent). */
    policySeverity: Type.Optional(PolicySeverity),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    credits: Credits,
    fromSet: Type.Boolean(),
    /** Email visual checks: the mail clients named per form factor (an empty array: that form factor's native client). */
    clients: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  },
  { additionalProperties: false },
);

/** A check not run because it needs parameters the request did not give: not a verdict, not charged. */
export const SkippedValidation = Type.Object(
  {
    validationId: Id,
    reason: Type.Union([Type.Literal("REQUIRES_CONFIGURATION"), Type.Literal("SKIPPED_NOT_IN_PLAN")]),
    message: Type.String(),
  },
  {
    additionalProperties: false,
    description: "A check not run (missing parameters, or not in the organization's plan): not a verdict, not charged.",
  },
);

/** Stream `job-<jobId>`. Appended in the same transaction as the charge. */
export const JobAccepted = eventType(
  "JobAccepted",
  Type.Object(
    {
      jobId: Id,
      customerId: Id,
      type: Type.Union([Type.Literal("url"), Type.Literal("static_html"), Type.Literal("email")]),
      /** The subject as a fingerprint: raw HTML is summarised by its hash and size, not copied into the log. */
      subject: Type.Object(
        {
          url: Type.Optional(Type.String()),
          baseUrl: Type.Optional(Type.String()),
          htmlSha256: Type.Optional(Type.String()),
          htmlBytes: Type.Optional(Type.Integer()),
          emailSubject: Type.Optional(Type.String()),
          /** Email jobs: the one-time address the message must be sent to, and until when it accepts. */
          testEmail: Type.Optional(Type.String()),
          expiresAt: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      validationSetId: Type.Optional(Id),
      validations: Type.Array(SelectedValidation),
      skipped: Type.Array(SkippedValidation),
      totalCredits: Credits,
      detail: Type.Union([Type.Literal("brief"), Type.Literal("verbose")]),
    },
    { additionalProperties: false },
  ),
);
export type JobAcceptedData = EventData<typeof JobAccepted>;

/**
 * Why a row is what it is when the verdict alone does not say: NEEDS_REVIEW is a model judge's fail that the
 * inspector's measurements contradict (an error row, refunded: a person should look, nothing is charged for it).
 */
export const ResultReasonCode = Type.Union([Type.Literal("NEEDS_REVIEW")]);

/**
 * How a model judged a visual row, so the verdict can be audited and replayed: the model, the prompt's version,
 * the SHA-256 of each image it saw, the inspector's measurements it was given, what it answered and what it cost.
 */
export const JudgeProvenance = Type.Object(
  {
    judge: Type.Literal("model"),
    model: Type.String(),
    promptVersion: Type.String(),
    images: Type.Array(
      Type.Object(
        { viewport: Type.String(), sha256: Type.String(), bytes: Type.Integer({ minimum: 0 }) },
        { additionalProperties: false },
      ),
    ),
    /** The inspector's outcome exactly as the prompt carried it (its findings cut to the first 20). */
    inspection: Type.Object(
      { verdict: Verdict, reasoning: Type.String(), findings: Type.Array(Finding) },
      { additionalProperties: false },
    ),
    /** What the model answered, when it answered in the schema (the row's verdict may differ: NEEDS_REVIEW). */
    answer: Type.Optional(Type.Union([Type.Literal("pass"), Type.Literal("fail")])),
    usage: Type.Optional(
      Type.Object(
        {
          promptTokens: Type.Integer({ minimum: 0 }),
          completionTokens: Type.Integer({ minimum: 0 }),
          totalTokens: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
    latencyMs: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);

/** Email renders: one render a result read, with what the client's profile did to the message (src/capture/mail-clients). */
export const RenderRecord = Type.Object(
  {
    captureKey: Type.String(),
    clientId: Type.String(),
    formFactor: Type.String(),
    darkMode: Type.Optional(
      Type.Object(
        {
          method: Type.Union([
            Type.Literal("forced-inversion"),
            Type.Literal("prefers-color-scheme"),
            Type.Literal("none"),
          ]),
          extent: Type.Optional(Type.Union([Type.Literal("full"), Type.Literal("partial")])),
          darkened: Type.Boolean(),
          how: Type.String(),
        },
        { additionalProperties: false },
      ),
    ),
    changes: Type.Array(
      Type.Object(
        {
          action: Type.String(),
          target: Type.String(),
          selector: Type.Optional(Type.String()),
          line: Type.Optional(Type.Integer({ minimum: 1 })),
          rule: Type.String(),
          source: Type.String(),
          count: Type.Integer({ minimum: 1 }),
        },
        { additionalProperties: false },
      ),
    ),
    /** Distinct changes not listed (past the render's limit). */
    changesOmitted: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type RenderRecordData = Static<typeof RenderRecord>;

export const ResultRecorded = eventType(
  "ResultRecorded",
  Type.Object(
    {
      jobId: Id,
      validationId: Id,
      verdict: Verdict,
      severity: Severity,
      reason: Type.Optional(Type.String()),
      reasoning: Type.String(),
      findings: Type.Array(Finding),
      captureKeys: Type.Array(Type.String()),
      /** Email renders the result read, each with what its client did to the message. */
      renders: Type.Optional(Type.Array(RenderRecord)),
      durationMs: Type.Number({ minimum: 0 }),
      reasonCode: Type.Optional(ResultReasonCode),
      /** Set when a vision model judged the row (src/judge/model.ts). */
      judge: Type.Optional(JudgeProvenance),
    },
    { additionalProperties: false },
  ),
);
export type ResultRecordedData = EventData<typeof ResultRecorded>;

/**
 * Closes a job: completed normally, interrupted (the subject could not be loaded at all, the run failed, or the
 * server restarted while the job ran: every row an error, refunded), or expired (an email job's message never came).
 */
export const JobSettled = eventType(
  "JobSettled",
  Type.Object(
    {
      jobId: Id,
      status: Type.Union([Type.Literal("completed"), Type.Literal("interrupted"), Type.Literal("expired")]),
      charged: Credits,
      refunded: Credits,
      interruption: Type.Optional(Type.String()),
      /** Email jobs: what arrived, and whether its subject is the one the request expected. */
      email: Type.Optional(
        Type.Object(
          {
            from: Type.String(),
            subject: Type.String(),
            expectedSubject: Type.Optional(Type.String()),
            subjectMatches: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
export type JobSettledData = EventData<typeof JobSettled>;

export const CaptureStored = eventType(
  "CaptureStored",
  Type.Object(
    {
      jobId: Id,
      customerId: Id,
      key: Type.String(),
      viewport: Type.String(),
      contentType: Type.String(),
      bytes: Type.Integer({ minimum: 0 }),
      sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
      /**
       * A run's page with visual mask selectors: where the elements they match were when this screenshot was taken, in
       * its pixels (the visual comparison leaves them out).
       */
      maskBoxes: Type.Optional(
        Type.Array(
          Type.Object(
            {
              selector: Type.String({ minLength: 1, maxLength: 1000 }),
              x: Type.Integer({ minimum: 0 }),
              y: Type.Integer({ minimum: 0 }),
              width: Type.Integer({ minimum: 1 }),
              height: Type.Integer({ minimum: 1 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 10_000 },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
export type CaptureStoredData = EventData<typeof CaptureStored>;

/** Stream `job-<jobId>`: the message an email job waited for arrived; the raw bytes are kept under DATA_DIR. */
export const EmailReceived = eventType(
  "EmailReceived",
  Type.Object(
    {
      jobId: Id,
      customerId: Id,
      storageKey: Type.String(),
      sha256: Type.String({ pattern: "^[0-9a-f]{64}$" }),
      bytes: Type.Integer({ minimum: 0 }),
      envelope: Type.Object(
        {
          mailFrom: Type.String(),
          rcptTo: Type.Array(Type.String()),
          remoteAddress: Type.Optional(Type.String()),
          /** The name the client gave in HELO/EHLO (SPF's HELO identity). */
          helo: Type.Optional(Type.String({ maxLength: 255 })),
        },
        { additionalProperties: false },
      ),
      from: Type.String(),
      subject: Type.String(),
    },
    { additionalProperties: false },
  ),
);
export type EmailReceivedData = EventData<typeof EmailReceived>;

export const jobEvents = [JobAccepted, ResultRecorded, JobSettled, CaptureStored, EmailReceived] as const;
