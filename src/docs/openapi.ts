import { Type, type TSchema } from "@sinclair/typebox";
import { errorEntry, type ErrorCode } from "../errors/catalog";
import { JobRequest, SEVERITIES } from "../contracts/job-request";
import {
  CaptureKeyParams,
  CaptureShareQuery,
  CreditsQuery,
  CustomerQuery,
  ErrorBodySchema,
  FeedbackQuestionsQuery,
  FeedbackSubmission,
  JOB_STATUSES,
  JobListQuery,
  SetListQuery,
  SetRef,
  SignupBody,
  ValidationListQuery,
  ValidationRef,
  jsonSchemaOf,
} from "../contracts/inputs";
import { JOB_REQUEST_ERRORS } from "../mcp/tools";
import { MAX_BODY_BYTES } from "../http/app";
import pkg from "../../package.json";

/**
 * /api/openapi.json: OpenAPI 3.1 for every /api route, from the schemas the routes validate with, and
 * for each route the catalogued error codes it can answer (grouped by HTTP status, as an enum on `code`).
 */

type Auth = "none" | "key" | "session";

export interface ApiRoute {
  method: "get" | "post" | "delete";
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  auth: Auth;
  scope?: string;
  query?: TSchema & { properties: Record<string, TSchema> };
  params?: TSchema & { properties: Record<string, TSchema> };
  body?: TSchema;
  success: { status: number; description: string; schema?: TSchema; contentType?: string };
  errors: ErrorCode[];
}

const KEY: ErrorCode[] = ["AUTH_REQUIRED", "INSUFFICIENT_SCOPE", "CUSTOMER_NOT_FOUND", "CUSTOMER_SCOPE_MISMATCH"];
const QUERY: ErrorCode[] = ["INVALID_REQUEST_BODY", "INVALID_ENUM_VALUE"];
const BODY: ErrorCode[] = ["INVALID_REQUEST_BODY", "REQUEST_TOO_LARGE", "UNKNOWN_FIELD", "MISSING_REQUIRED_FIELD"];

const loose = (description: string, properties: Record<string, TSchema> = {}) => Type.Object(properties, { description, additionalProperties: true });

const CatalogEntry = loose("A validation catalog entry.", {
  id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  summary: Type.String(),
  subjectType: Type.Union([Type.Literal("url"), Type.Literal("email")]),
  category: Type.String(),
  severity: Type.Union(SEVERITIES.map((s) => Type.Literal(s))),
  executionKind: Type.Union([Type.Literal("functional"), Type.Literal("visual")]),
  runnable: Type.Boolean(),
  requiresConfiguration: Type.Boolean(),
  price: Type.Object({ credits: Type.Integer() }),
  parameters: Type.Optional(Type.Array(loose("A parameter: name, description, format, schema, default, example."))),
});

const SetViewSchema = loose("A validation set.", {
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  subjectType: Type.Union([Type.Literal("url"), Type.Literal("email")]),
  jobTypes: Type.Array(Type.String()),
  validationIds: Type.Array(Type.String()),
  severities: Type.Record(Type.String(), Type.String()),
});

const Result = loose("One check's result.", {
  validationId: Type.String(),
  name: Type.String(),
  verdict: Type.Union([Type.Literal("pass"), Type.Literal("fail"), Type.Literal("error")], { description: "error: the check could not run (not a verdict; refunded)." }),
  severity: Type.String(),
  reason: Type.Optional(Type.String({ description: "On fail: what to fix and where. On error: the cause." })),
  reasoning: Type.String(),
  findings: Type.Array(loose("A finding: message, selector, url, text.")),
  screenshotUrl: Type.Optional(Type.String({ description: "Fetch with the same Bearer key; does not expire." })),
  screenshotShareUrl: Type.Optional(Type.String({ description: "Short-lived link usable without a key." })),
  references: Type.Optional(Type.Array(loose("A reference: title, url."))),
  note: Type.Optional(Type.String()),
});

const JobResponse = loose("A job.", {
  jobId: Type.String(),
  type: Type.String(),
  status: Type.Union(JOB_STATUSES.map((s) => Type.Literal(s))),
  subject: loose("The subject (for HTML, its SHA-256 and size)."),
  validationSets: Type.Optional(Type.Array(Type.String())),
  overallPassPolicy: Type.String(),
  summary: loose("Verdict counts and passed.", { pass: Type.Integer(), fail: Type.Integer(), error: Type.Integer(), passed: Type.Boolean() }),
  results: Type.Array(Result),
  skipped_validations: Type.Array(loose("A check not run: validationId, reason, message.")),
  credits: Type.Object({ charged: Type.Integer(), refunded: Type.Integer(), net: Type.Integer() }),
  testEmail: Type.Optional(Type.String({ description: "Email jobs: the one-time address to send the message to." })),
  expiresAt: Type.Optional(Type.String()),
  createdAt: Type.String(),
  completedAt: Type.Union([Type.String(), Type.Null()]),
});

const Quote = loose("A price quote.", {
  type: Type.String(),
  lines: Type.Array(Type.Object({ validationId: Type.String(), credits: Type.Integer() })),
  totalCredits: Type.Integer(),
  balance: Type.Integer(),
  sufficient: Type.Boolean(),
  shortfall: Type.Optional(Type.Integer()),
  skipped_validations: Type.Array(loose("A check not run.")),
});

const FeedbackDue = Type.Object(
  { due: Type.Boolean(), setId: Type.Union([Type.String(), Type.Null()]), questionCount: Type.Integer(), rewardCredits: Type.Integer() },
  { additionalProperties: false, description: "Exactly these four fields." },
);

const sessionOnly = (method: "post" | "delete", path: string, operationId: string, summary: string): ApiRoute => ({
  method,
  path,
  operationId,
  summary,
  description: "Needs a signed-in dashboard session; an API key is always refused with AUTH_REQUIRED.",
  tag: "account",
  auth: "session",
  success: { status: 200, description: "Not available to API keys." },
  errors: ["AUTH_REQUIRED", "REQUEST_TOO_LARGE"],
});

export const API_ROUTES: ApiRoute[] = [
  {
    method: "get", path: "/api/validations", operationId: "listValidations", tag: "catalog", auth: "none",
    summary: "List validations", query: ValidationListQuery,
    success: { status: 200, description: "The catalog.", schema: Type.Object({ validations: Type.Array(CatalogEntry) }) },
    errors: QUERY,
  },
  {
    method: "get", path: "/api/validations/{idOrSlug}", operationId: "getValidation", tag: "catalog", auth: "none",
    summary: "Get a validation (judgment, parameters, sets, references, job snippet)", params: ValidationRef,
    success: { status: 200, description: "The validation's detail record.", schema: CatalogEntry },
    errors: ["VALIDATION_NOT_FOUND"],
  },
  {
    method: "get", path: "/api/validation-sets", operationId: "listValidationSets", tag: "catalog", auth: "none",
    summary: "List validation sets", query: SetListQuery,
    success: { status: 200, description: "The sets.", schema: Type.Object({ validationSets: Type.Array(SetViewSchema) }) },
    errors: QUERY,
  },
  {
    method: "get", path: "/api/validation-sets/{setId}", operationId: "getValidationSet", tag: "catalog", auth: "none",
    summary: "Get a validation set", params: SetRef,
    success: { status: 200, description: "The set.", schema: SetViewSchema },
    errors: ["VALIDATION_SET_NOT_FOUND"],
  },
  {
    method: "get", path: "/api/errors", operationId: "listErrors", tag: "catalog", auth: "none",
    summary: "Every error code with its HTTP status and guidance",
    success: {
      status: 200,
      description: "The error table.",
      schema: Type.Object({ errors: Type.Array(Type.Object({ code: Type.String(), httpStatus: Type.Integer(), title: Type.String(), guidance: Type.String() })) }),
    },
    errors: [],
  },
  {
    method: "get", path: "/api/openapi.json", operationId: "getOpenApi", tag: "catalog", auth: "none",
    summary: "This document",
    success: { status: 200, description: "OpenAPI 3.1.", schema: loose("An OpenAPI document.") },
    errors: [],
  },
  {
    method: "post", path: "/api/signup", operationId: "signup", tag: "account", auth: "none",
    summary: "Open a free account; returns its API key once", body: SignupBody,
    success: {
      status: 201,
      description: "The account. apiKey is shown only here: store it.",
      schema: Type.Object({ apiKey: Type.String(), keyId: Type.String(), customerId: Type.String(), orgCode: Type.String(), email: Type.String() }),
    },
    errors: [...BODY, "SIGNUP_INVALID_EMAIL", "ACCOUNT_EXISTS"],
  },
  {
    method: "get", path: "/api/org", operationId: "getOrg", tag: "account", auth: "key", scope: "account:read",
    summary: "Your organization", query: CustomerQuery,
    success: { status: 200, description: "The organization.", schema: loose("customerId, orgCode, email, plan, createdAt.") },
    errors: KEY,
  },
  {
    method: "get", path: "/api/keys", operationId: "listKeys", tag: "account", auth: "key", scope: "account:read",
    summary: "Your API keys (never a secret)", query: CustomerQuery,
    success: { status: 200, description: "The keys.", schema: Type.Object({ keys: Type.Array(loose("keyId, name, displayPrefix, scopes, createdAt, revokedAt, status.")) }) },
    errors: KEY,
  },
  sessionOnly("post", "/api/keys", "mintKey", "Mint a key (session only)"),
  sessionOnly("post", "/api/keys/{keyId}/rotate", "rotateKey", "Rotate a key (session only)"),
  sessionOnly("post", "/api/keys/{keyId}/revoke", "revokeKey", "Revoke a key (session only)"),
  sessionOnly("delete", "/api/keys/{keyId}", "deleteKey", "Revoke a key (session only)"),
  {
    method: "get", path: "/api/credits", operationId: "getCredits", tag: "account", auth: "key", scope: "account:read",
    summary: "Balance, plan, monthly grant and recent ledger entries", query: CreditsQuery,
    success: { status: 200, description: "The credits.", schema: loose("customerId, balance, plan, monthlyGrant, ledger[].", { balance: Type.Integer() }) },
    errors: [...KEY, ...QUERY],
  },
  {
    method: "post", path: "/api/jobs/estimate", operationId: "estimateJob", tag: "jobs", auth: "key", scope: "jobs:write",
    summary: "Price a job body; validates like a run, charges nothing", body: JobRequest,
    success: { status: 200, description: "The quote.", schema: Quote },
    errors: [...KEY, "REQUEST_TOO_LARGE", ...JOB_REQUEST_ERRORS],
  },
  {
    method: "post", path: "/api/jobs", operationId: "runJob", tag: "jobs", auth: "key", scope: "jobs:write",
    summary: "Run a job",
    description: "url and static_html jobs answer with their results; email jobs answer pending with testEmail. Poll GET /api/jobs?jobId=… until status is no longer pending.",
    body: JobRequest,
    success: { status: 200, description: "The job.", schema: JobResponse },
    errors: [...KEY, "REQUEST_TOO_LARGE", ...JOB_REQUEST_ERRORS, "INSUFFICIENT_CREDITS", "JOB_EXECUTION_FAILED"],
  },
  {
    method: "get", path: "/api/jobs", operationId: "listJobs", tag: "jobs", auth: "key", scope: "jobs:read",
    summary: "Your jobs, newest first, with results; poll email jobs here", query: JobListQuery,
    success: { status: 200, description: "A page of jobs.", schema: Type.Object({ jobs: Type.Array(JobResponse), nextCursor: Type.Union([Type.String(), Type.Null()]) }) },
    errors: [...KEY, ...QUERY, "JOB_NOT_FOUND"],
  },
  {
    method: "get", path: "/api/captures/{key}", operationId: "getCapture", tag: "jobs", auth: "key", scope: "jobs:read",
    summary: "A screenshot (a result's screenshotUrl)", params: CaptureKeyParams, query: CustomerQuery,
    success: { status: 200, description: "The image.", contentType: "image/jpeg" },
    errors: [...KEY, "STORAGE_OBJECT_NOT_FOUND"],
  },
  {
    method: "get", path: "/api/captures/{key}/shared", operationId: "getSharedCapture", tag: "jobs", auth: "none",
    summary: "A screenshot through its short-lived share link (screenshotShareUrl)", params: CaptureKeyParams, query: CaptureShareQuery,
    success: { status: 200, description: "The image.", contentType: "image/jpeg" },
    errors: ["STORAGE_OBJECT_NOT_FOUND"],
  },
  {
    method: "get", path: "/api/email-clients", operationId: "listEmailClients", tag: "jobs", auth: "key", scope: "jobs:read",
    summary: "Mail clients visual email checks render in, per form factor, with plan inclusion and extra-credit flags", query: CustomerQuery,
    success: { status: 200, description: "The render catalog, keyed by form factor, then client id.", schema: loose("plan, pricing, formFactors.", { formFactors: loose("By form factor: viewport, nativeDefault, clients.") }) },
    errors: KEY,
  },
  {
    method: "get", path: "/api/feedback/due", operationId: "getFeedbackDue", tag: "feedback", auth: "key", scope: "feedback:write",
    summary: "Whether a feedback set is due", query: CustomerQuery,
    success: { status: 200, description: "{ due, setId, questionCount, rewardCredits } and nothing else.", schema: FeedbackDue },
    errors: KEY,
  },
  {
    method: "get", path: "/api/feedback/questions", operationId: "getFeedbackQuestions", tag: "feedback", auth: "key", scope: "feedback:write",
    summary: "The feedback set currently asked, or { due: false }", query: FeedbackQuestionsQuery,
    success: { status: 200, description: "due, setId, questions (id, text, shape), rewardCredits; or { due: false }.", schema: loose("A feedback set.", { due: Type.Boolean() }) },
    errors: [...KEY, "FEEDBACK_SET_UNKNOWN", "FEEDBACK_ANCHOR_REQUIRED", "FEEDBACK_CHECK_NOT_IN_JOB", "JOB_NOT_FOUND"],
  },
  {
    method: "post", path: "/api/feedback", operationId: "submitFeedback", tag: "feedback", auth: "key", scope: "feedback:write",
    summary: "Answer a due feedback set (append-only)", body: FeedbackSubmission,
    success: { status: 200, description: "The submission echoed with the payout.", schema: loose("The submission and payout.") },
    errors: [
      ...KEY, ...BODY,
      "FEEDBACK_NOT_DUE", "FEEDBACK_SET_UNKNOWN", "FEEDBACK_ALREADY_GIVEN", "FEEDBACK_ANSWERS_INVALID", "FEEDBACK_ANCHOR_REQUIRED",
      "FEEDBACK_RATIONALE_REQUIRED", "AI_MISTAKE_NOTES_REQUIRED", "FEEDBACK_CHECK_NOT_IN_JOB",
    ],
  },
];

/** Routes added by other modules register here (method, path, and the rest of the entry), so the document stays complete. */
export function registerApiRoute(route: ApiRoute): void {
  if (!API_ROUTES.some((r) => r.method === route.method && r.path === route.path)) API_ROUTES.push(route);
}

function parametersOf(route: ApiRoute) {
  const out: Record<string, unknown>[] = [];
  for (const [where, schema] of [["path", route.params], ["query", route.query]] as const) {
    if (!schema) continue;
    const required = new Set((schema as { required?: string[] }).required ?? []);
    for (const [name, prop] of Object.entries(schema.properties)) {
      const json = jsonSchemaOf(prop);
      const description = json.description;
      delete json.description;
      out.push({ name, in: where, required: where === "path" || required.has(name), ...(description ? { description } : {}), schema: json });
    }
  }
  return out;
}

function errorResponses(route: ApiRoute) {
  const codes = [...new Set<ErrorCode>([...route.errors, "INTERNAL_ERROR"])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorEntry(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((c) => `\`${c}\`: ${errorEntry(c).guidance}`).join("\n\n"),
          content: {
            "application/json": {
              schema: {
                allOf: [{ $ref: "#/components/schemas/Error" }, { type: "object", properties: { code: { type: "string", enum: list } } }],
              },
            },
          },
        },
      ]),
  );
}

export function openApiDocument(baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) {
    const op: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: [route.tag],
      security: route.auth === "key" ? [{ bearer: [route.scope!] }] : route.auth === "session" ? [{ session: [] }] : [],
      ...(route.scope ? { "x-scope": route.scope } : {}),
      "x-error-codes": [...new Set([...route.errors, "INTERNAL_ERROR"])],
    };
    const parameters = parametersOf(route);
    if (parameters.length) op.parameters = parameters;
    if (route.body) {
      op.requestBody = {
        required: true,
        description: `JSON, at most ${MAX_BODY_BYTES} bytes.`,
        content: { "application/json": { schema: route.body === JobRequest ? { $ref: "#/components/schemas/JobRequest" } : jsonSchemaOf(route.body) } },
      };
    }
    const success = route.success;
    op.responses = {
      [String(success.status)]: {
        description: success.description,
        ...(success.contentType
          ? { content: { [success.contentType]: { schema: { type: "string", contentMediaType: success.contentType } } } }
          : { content: { "application/json": { schema: success.schema ? jsonSchemaOf(success.schema) : { type: "object" } } } }),
      },
      ...errorResponses(route),
    };
    (paths[route.path] ??= {})[route.method] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Assay API",
      version: pkg.version,
      summary: "Headless QA for webpages and emails.",
      description:
        "One subject per job, one verdict per check: pass, fail (with the reason to fix) or error (the check could not run; refunded). Errors are { code, title, message, developerMessage, details?, requestId } (5xx add retryable); branch on code. The same capabilities are MCP tools at /mcp.",
    },
    servers: [{ url: baseUrl }],
    externalDocs: { description: "llms-full.txt: the whole service for agents", url: `${baseUrl}/llms-full.txt` },
    tags: [
      { name: "catalog", description: "Validations, sets and error codes; no key needed." },
      { name: "account", description: "Signup, organization, keys and credits." },
      { name: "jobs", description: "Estimate, run and read jobs; screenshots." },
      { name: "feedback", description: "Feedback on verdicts, which earns credits." },
    ],
    paths,
    components: {
      schemas: { JobRequest: jsonSchemaOf(JobRequest), Error: jsonSchemaOf(ErrorBodySchema) },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API_KEY> (assay_sk_…). Scopes are fixed when a key is minted." },
        session: { type: "apiKey", in: "cookie", name: "session", description: "A signed-in dashboard session (not available through the API)." },
      },
    },
  };
}
