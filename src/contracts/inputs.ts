import { Type } from "@sinclair/typebox";
import { enumOf } from "./job-request";
import { detail, JOB_STATUSES } from "./job";
import { customerId } from "./request-parts";

/**
 * The small request schemas beside the job request: HTTP query strings and bodies, and the arguments of
 * the MCP tools. One TypeBox schema per shape, used to validate on both surfaces (readInput) and to
 * publish them (MCP inputSchema, OpenAPI). The job request itself lives in ./job-request.ts.
 */

// ------------------------------------------------------------------ catalog

// ------------------------------------------------------------------ accounts

// ------------------------------------------------------------------ jobs

export const JobListQuery = Type.Object(
  {
    jobId: Type.Optional(Type.String({ description: "Only this job (an unknown id, or another organization's, is JOB_NOT_FOUND)." })),
    status: Type.Optional(enumOf(JOB_STATUSES, "Only jobs in this status.")),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "Page size (1-100, default 20)." })),
    cursor: Type.Optional(Type.String({ description: "nextCursor of the previous page." })),
    detail: detail(),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

/** GET /api/jobs/{jobId}'s query (with the path's jobId, get_job's arguments). */
export const GetJobQuery = Type.Object({ detail: detail(), customerId: customerId() }, { additionalProperties: false });

export const AWAIT_MAX_SECONDS = 120;

export const AwaitEmailJobInput = Type.Object(
  {
    jobId: Type.String({ minLength: 1, description: "The email job's jobId." }),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AWAIT_MAX_SECONDS,
        default: 30,
        description: `How long to wait for the job to leave pending (1-${AWAIT_MAX_SECONDS}, default 30). Keep it under your client's request timeout; call again to keep waiting.`,
      }),
    ),
    detail: detail(),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

// ------------------------------------------------------------------ captures

export const CaptureRef = Type.Object(
  {
    url: Type.Optional(
      Type.String({
        description:
          "A result's screenshotUrl (needs your key) or screenshotShareUrl (no key needed while it is valid), or any captures[].screenshotUrl.",
      }),
    ),
    key: Type.Optional(Type.String({ description: "A capture key (the last path segment of a screenshotUrl); needs your key." })),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

// ------------------------------------------------------------------ playground

export const PlaygroundRunRef = Type.Object({ runId: Type.String({ minLength: 1, description: "The run's id (pgr_…)." }) });

export const PlaygroundScreenshotRef = Type.Object({
  runId: Type.String({ minLength: 1, description: "The run's id (pgr_…)." }),
  size: Type.String({ description: "The capture size the run was shown at (its screenshotUrl names it)." }),
});

export const CaptureShareQuery = Type.Object(
  {
    // Optional in the schema: a link without them is refused like any invalid link (STORAGE_OBJECT_NOT_FOUND).
    expires: Type.Optional(Type.String({ description: "Expiry, Unix seconds, as signed." })),
    signature: Type.Optional(Type.String({ description: "The link's HMAC signature." })),
  },
  { additionalProperties: false },
);

// ------------------------------------------------------------------ feedback

/**
 * The dashboard's feedback form as a submission: setId, jobId and validationId as fields, and one field per question
 * named `answer.<questionId>` (text and choices as sent; a suffix says how to read the rest: `:number` a rating,
 * `:boolean` "true" or "false", `:list` every value sent under the name, empty ones dropped, so a hidden empty field
 * makes "no box ticked" an empty list). A question whose field is absent stays unanswered (FEEDBACK_ANSWERS_INVALID).
 */
export function feedbackSubmissionFromForm(form: URLSearchParams): Record<string, unknown> {
  const answers = new Map<string, unknown>();
  for (const name of new Set(form.keys())) {
    const field = /^answer\.([^:]+)(?::(number|boolean|list))?$/.exec(name);
    if (!field) continue;
    const [, questionId, as] = field as unknown as [string, string, "number" | "boolean" | "list" | undefined];
    const raw = form.get(name)!;
    answers.set(
      questionId,
      as === "list" ? form.getAll(name).filter((v) => v !== "") : as === "number" ? (raw.trim() === "" ? null : Number(raw)) : as === "boolean" ? raw === "true" : raw,
    );
  }
  return {
    setId: form.get("setId") ?? "",
    ...(form.get("jobId") ? { jobId: form.get("jobId") } : {}),
    ...(form.get("validationId") ? { validationId: form.get("validationId") } : {}),
    answers: [...answers].map(([questionId, value]) => ({ questionId, value })),
  };
}

export const FeedbackResultQuery = Type.Object(
  {
    jobId: Type.String({ minLength: 1, description: "The job the result belongs to." }),
    validationId: Type.String({ minLength: 1, description: "The check whose result the feedback is about." }),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

// ------------------------------------------------------------------ errors

// ------------------------------------------------------------------ device authorization (RFC 8628)

export const DeviceCodeBody = Type.Object(
  {
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "The client asking, e.g. assay-cli; it names the key minted." })),
    scope: Type.Optional(
      Type.String({ description: "Space-separated scopes the key should hold (jobs:read jobs:write account:read feedback:write); default all four." }),
    ),
  },
  { additionalProperties: false },
);

export const DeviceTokenBody = Type.Object(
  {
    grant_type: Type.Optional(Type.String({ description: "urn:ietf:params:oauth:grant-type:device_code" })),
    device_code: Type.Optional(Type.String({ description: "The device_code POST /api/device/code answered." })),
    client_id: Type.Optional(Type.String({ description: "The client asking, as in the code request." })),
  },
  { additionalProperties: false },
);
