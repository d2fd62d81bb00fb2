import { Type } from "@sinclair/typebox";
import { enumOf } from "./job-request";
import { detail, JOB_STATUSES } from "./job";
import { RoleField } from "./people";
import { customerId, sameOriginPath } from "./request-parts";
import { Scope } from "../../events/account";

/**
 * The small request schemas beside the job request: HTTP query strings and bodies, and the arguments of
 * the MCP tools. One TypeBox schema per shape, used to validate on both surfaces (readInput) and to
 * publish them (MCP inputSchema, OpenAPI). The job request itself lives in ./job-request.ts.
 */

// ------------------------------------------------------------------ catalog

// ------------------------------------------------------------------ accounts

export const SignupBody = Type.Object(
  {
    email: Type.String({
      description: "An address the user controls: signing in with it later claims the account. Ask the user; never invent one.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
  },
  { additionalProperties: false },
);

export const SignInLinkBody = Type.Object(
  {
    email: Type.String({
      description: "The address to send the sign-in link to. The answer is the same whether or not it has an account.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
    next: sameOriginPath("Where the link lands once signed in: a path on this site (default /dashboard)."),
  },
  { additionalProperties: false },
);

export const SignInCallbackQuery = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: "The token of the sign-in link." }),
    next: sameOriginPath("Where to go once signed in: a path on this site (default /dashboard)."),
  },
  { additionalProperties: false },
);

export const OidcStartQuery = Type.Object(
  { next: sameOriginPath("Where to go once signed in: a path on this site (default /dashboard).") },
  { additionalProperties: false },
);

/** What the OpenID provider sends back (RFC 6749 §4.1.2, RFC 9207's iss); other parameters are ignored. */
export const OidcCallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 200, description: "The state this server sent the provider." })),
    code: Type.Optional(Type.String({ maxLength: 2000, description: "The authorization code, on success." })),
    iss: Type.Optional(Type.String({ maxLength: 2000, description: "The provider's issuer identifier." })),
    error: Type.Optional(Type.String({ maxLength: 200, description: "The provider's error code, on failure." })),
    error_description: Type.Optional(Type.String({ maxLength: 2000, description: "The provider's words on the error." })),
  },
  { additionalProperties: false },
);

export const SwitchOrganizationBody = Type.Object(
  { customerId: Type.String({ minLength: 1, description: "One of your organizations (GET /api/session lists them)." }) },
  { additionalProperties: false },
);

export const MintKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: "A name to tell the key apart, e.g. ci or laptop." }),
    scopes: Type.Array(enumOf(Scope.anyOf.map((s) => s.const), "A scope: jobs:read, jobs:write, account:read or feedback:write."), {
      minItems: 1,
      uniqueItems: true,
      description: "The key's scopes, fixed for its life; never beyond your role's (a member's: jobs:read, jobs:write, feedback:write, account:read).",
    }),
  },
  { additionalProperties: false },
);

export const AddMemberBody = Type.Object(
  {
    email: Type.String({ description: "The person's email; they sign in with it.", "x-invalid-code": "SIGNUP_INVALID_EMAIL" }),
    role: RoleField,
  },
  { additionalProperties: false },
);

export const InviteMemberBody = Type.Object(
  {
    email: Type.String({ description: "The email to invite; the invitation link goes there.", "x-invalid-code": "SIGNUP_INVALID_EMAIL" }),
    role: RoleField,
  },
  { additionalProperties: false },
);

export const InvitationCallbackQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: "The token of the invitation link." }) },
  { additionalProperties: false },
);

export const InvitationTokenBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: "The token of the invitation link (its token query parameter)." }) },
  { additionalProperties: false },
);

export const MemberRoleBody = Type.Object({ role: RoleField }, { additionalProperties: false });

export const CreditsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20, description: "Most recent ledger entries to include (1-200, default 20)." })),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

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

export const ChangePlanBody = Type.Object(
  { planCode: Type.String({ minLength: 1, maxLength: 40, description: "A plan code of this server's plan catalog (the built-in one: free, web, email, team)." }) },
  { additionalProperties: false },
);
