import type { TObject } from "@sinclair/typebox";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import type { Assay } from "../app";
import type { Scope } from "../domain/accounts";
import type { Principal } from "../services/accounts";
import type { RequestMeta } from "../services/context";
import { planJob } from "../domain/job-request";
import { emailClientCatalogView } from "../catalog/email-clients";
import { JobRequest } from "../contracts/job-request";
import {
  AWAIT_MAX_SECONDS,
  AwaitEmailJobInput,
  CaptureRef,
  CompareChecksInput,
  CreditsQuery,
  CustomerQuery,
  DescribeJobRequestInput,
  ExplainErrorInput,
  FeedbackQuestionsQuery,
  FeedbackSubmission,
  GetJobInput,
  RecommendChecksInput,
  SearchValidationsInput,
  SetListQuery,
  SetRef,
  SignupBody,
  ValidationListQuery,
  ValidationRef,
  readInput,
} from "../contracts/inputs";

/** Everything a tool call knows: the service graph, the HTTP request's id, and the key, when one was sent. */
export interface ToolCall {
  assay: Assay;
  requestId: string;
  principal?: Principal;
  signal?: AbortSignal;
  /** The called tool's declared scope: what keyed() requires of the key. */
  scope?: Scope;
}

export interface ToolOutput {
  /** One or two sentences for the model; the data goes in structuredContent (and, serialised, a second text block). */
  summary: string;
  data: Record<string, unknown>;
  /** Extra content blocks (fetch_capture's image). */
  content?: Array<{ type: "image"; data: string; mimeType: string }>;
}

/** none: public; key: a Bearer key is required (HTTP 401 without one); optional: more with a key. */
export type ToolAuth = "none" | "key" | "optional";

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** The TypeBox schema the arguments are validated against and published as inputSchema. */
  input: TObject;
  annotations: ToolAnnotations;
  auth: ToolAuth;
  /** The scope a key must hold (checked when the tool uses the key). */
  scope?: Scope;
  /** For mixed auth: whether these arguments need a key (fetch_capture without a share link). Defaults to auth === "key". */
  needsKey?(args: Record<string, unknown>): boolean;
  /**
   * false for the job tools: their arguments go to planJob as the body, which validates them against the same
   * JobRequest schema in its documented order, with the same codes as POST /api/jobs.
   */
  validate?: boolean;
  /** The codes a call may be refused with, besides AUTH_REQUIRED and INTERNAL_ERROR (documented in llms-full.txt). */
  errors?: ErrorCode[];
  run(args: any, call: ToolCall): Promise<ToolOutput> | ToolOutput;
}

/** A key-needing tool's principal, scope check and organization, in the HTTP routes' order; events are recorded with channel mcp. */
export function keyed(call: ToolCall, customerId?: unknown): { customerId: string; meta: RequestMeta } {
  const principal = call.principal;
  if (!principal) throw new AppError("AUTH_REQUIRED", "This tool needs an API key: send Authorization: Bearer <API_KEY> to /mcp.", { reason: "missing" });
  if (!call.scope) throw new Error("keyed() called by a tool that declares no scope");
  call.assay.accounts.requireScope(principal, call.scope);
  return {
    customerId: call.assay.accounts.resolveCustomer(principal, customerId),
    meta: { requestId: call.requestId, actor: { kind: "key", id: principal.key.keyId }, channel: "mcp" },
  };
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } satisfies ToolAnnotations;
const CUSTOMER_ERRORS: ErrorCode[] = ["INSUFFICIENT_SCOPE", "CUSTOMER_NOT_FOUND", "CUSTOMER_SCOPE_MISMATCH"];
const INPUT_ERRORS: ErrorCode[] = ["INVALID_REQUEST_BODY", "UNKNOWN_FIELD", "INVALID_ENUM_VALUE", "MISSING_REQUIRED_FIELD"];
/** Every refusal planJob can give, in its order. */
export const JOB_REQUEST_ERRORS: ErrorCode[] = [
  "INVALID_REQUEST_BODY",
  "LEGACY_REQUEST_SHAPE",
  "UNKNOWN_FIELD",
  "VALIDATION_TYPE_UNSUPPORTED",
  "ONE_VALIDATION_SET_PER_JOB",
  "VALIDATION_SET_CONFLICT",
  "JOB_ACCEPTS_ONE_SUBJECT",
  "INVALID_ENUM_VALUE",
  "MISSING_REQUIRED_FIELD",
  "INVALID_CAPTURE_SIZE",
  "JOB_SUBJECT_REQUIRED",
  "NO_VALIDATIONS_SELECTED",
  "VALIDATION_SET_NOT_FOUND",
  "VALIDATION_SET_SUBJECT_MISMATCH",
  "VALIDATION_SUBJECT_MISMATCH",
  "VALIDATION_NOT_RUNNABLE",
  "DUPLICATE_VALIDATION",
  "CONFLICTING_PARAMETERS",
  "INVALID_PARAMETER_VALUE",
  "EMPTY_CLIENT_SELECTION",
  "INVALID_CLIENT_SELECTION",
  "CLIENT_SELECTION_RENDERLESS_CHECK",
  "CLIENT_SELECTION_NOT_IN_JOB",
  "UNKNOWN_EMAIL_CLIENT",
  "PLAYGROUND_INVALID_URL",
];

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function jobSummary(job: any): string {
  if (job.status === "pending") {
    return `Email job ${job.jobId} is pending: send the real message to ${job.testEmail} before ${job.expiresAt}, then call await_email_job.`;
  }
  const s = job.summary ?? {};
  const verdicts = `${s.pass ?? 0} pass, ${s.fail ?? 0} fail, ${s.error ?? 0} error`;
  const skipped = job.skipped_validations?.length ? `; ${plural(job.skipped_validations.length, "check")} skipped (need parameters: ask the user)` : "";
  return `Job ${job.jobId} ${job.status}: ${verdicts}${skipped}; ${job.credits?.net ?? 0} credits net.${job.interruption ? ` Interrupted: ${job.interruption}` : ""}`;
}

const SHARE_PATH = /\/api\/captures\/([^/?#]+)\/shared$/;
const OWNER_PATH = /\/api\/captures\/([^/?#]+)$/;

function parseCaptureUrl(raw: string): { key: string; shared?: { expires: string; signature: string } } {
  let url: URL;
  try {
    url = new URL(raw, "http://assay.invalid");
  } catch {
    throw new AppError("INVALID_REQUEST_BODY", "url is not a URL.", { problems: [{ path: "url", message: "Expected a screenshotUrl or screenshotShareUrl" }] });
  }
  const shared = SHARE_PATH.exec(url.pathname);
  if (shared) return { key: decodeURIComponent(shared[1]!), shared: { expires: url.searchParams.get("expires") ?? "", signature: url.searchParams.get("signature") ?? "" } };
  const owned = OWNER_PATH.exec(url.pathname);
  if (owned) return { key: decodeURIComponent(owned[1]!) };
  throw new AppError("STORAGE_OBJECT_NOT_FOUND", "This is not a capture URL: expected a result's screenshotUrl or screenshotShareUrl.", { url: raw });
}

const isShareLink = (args: Record<string, unknown>) => typeof args.url === "string" && SHARE_PATH.test(new URL(args.url, "http://assay.invalid").pathname);

export const tools: ToolDefinition[] = [
  // ------------------------------------------------------------ discovery (no key)
  {
    name: "search_validations",
    title: "Search validations",
    description: "Finds validations (checks) whose id, name, category, summary or judgment match your words, best first. Use it to find the exact check ids to put in a job.",
    input: SearchValidationsInput,
    annotations: { title: "Search validations", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      const data = assay.catalog.search(args);
      return { summary: `${plural(data.matches.length, "validation")} match ${JSON.stringify(args.query)}${data.matches.length ? `: ${data.matches.map((m) => m.id).join(", ")}` : ""}.`, data };
    },
  },
  {
    name: "list_validations",
    title: "List validations",
    description: "The whole validation catalog: id, name, subject type, category, severity, execution kind (functional or visual), price in credits, and whether it needs parameters. include=parameters adds each check's parameters. Same as GET /api/validations.",
    input: ValidationListQuery,
    annotations: { title: "List validations", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      const data = assay.catalog.list(args);
      return { summary: `${plural(data.validations.length, "validation")}${args.subjectType ? ` for ${args.subjectType} subjects` : ""}.`, data };
    },
  },
  {
    name: "get_validation",
    title: "Get a validation",
    description: "One validation's full record: what pass and fail mean (judgment), parameters with formats and examples, sets it belongs to, references, capture sizes, price and a job snippet. Same as GET /api/validations/{idOrSlug}.",
    input: ValidationRef,
    annotations: { title: "Get a validation", ...READ },
    auth: "none",
    errors: [...INPUT_ERRORS, "VALIDATION_NOT_FOUND"],
    run(args, { assay }) {
      const data = assay.catalog.get(args.idOrSlug);
      return { summary: `${data.id}: ${data.summary}${data.requiresConfiguration ? " Needs parameters (ask the user for their values)." : ""}`, data };
    },
  },
  {
    name: "recommend_checks",
    title: "Recommend checks",
    description:
      "From a plain-language goal and a job type, the validation set and checks to run, each with why, the parameters to ask the user for, and a job body to start from. Deterministic keyword and category matching over the catalog.",
    input: RecommendChecksInput,
    annotations: { title: "Recommend checks", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      const data = assay.catalog.recommend(args);
      return {
        summary: `${data.validationSet ? `Set ${data.validationSet.id}` : "No set"} with ${plural(data.checks.length, "check")} (${data.estimatedCredits} credits). ${data.notes[0]}`,
        data,
      };
    },
  },
  {
    name: "compare_checks",
    title: "Compare checks",
    description: "Two to ten validations side by side: subject type, category, severity, kind, price, parameters, judgment and sets, with the fields that differ and whether they can run in one job.",
    input: CompareChecksInput,
    annotations: { title: "Compare checks", ...READ },
    auth: "none",
    errors: [...INPUT_ERRORS, "VALIDATION_NOT_FOUND"],
    run(args, { assay }) {
      const data = assay.catalog.compare(args.ids);
      return {
        summary: `${data.validations.map((v) => v.id).join(" vs ")}: ${data.differences.length ? `differ in ${data.differences.join(", ")}` : "same kind of check"}; ${data.canRunTogether ? "can" : "cannot"} run in one job.`,
        data,
      };
    },
  },
  {
    name: "list_validation_sets",
    title: "List validation sets",
    description: "Published validation sets: id, name, description, subject type, the job types they apply to, and their checks with severities. Same as GET /api/validation-sets.",
    input: SetListQuery,
    annotations: { title: "List validation sets", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      const data = assay.catalog.sets(args);
      return { summary: `${plural(data.validationSets.length, "set")}: ${data.validationSets.map((s) => s.id).join(", ") || "none"}.`, data };
    },
  },
  {
    name: "get_validation_set",
    title: "Get a validation set",
    description: "One validation set with its checks and their severities. Same as GET /api/validation-sets/{setId}.",
    input: SetRef,
    annotations: { title: "Get a validation set", ...READ },
    auth: "none",
    errors: [...INPUT_ERRORS, "VALIDATION_SET_NOT_FOUND"],
    run(args, { assay }) {
      const data = assay.catalog.set(args.setId);
      return { summary: `${data.id} (${data.subjectType}): ${plural(data.validationIds.length, "check")}. ${data.description}`, data };
    },
  },
  {
    name: "describe_job_request",
    title: "Describe the job request",
    description:
      "The job body that estimate_job, run_job, check_job_request and POST /api/jobs take: its JSON Schema, each field in words, the rules, and a valid example per job type (url, static_html, email).",
    input: DescribeJobRequestInput,
    annotations: { title: "Describe the job request", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      const data = assay.catalog.describeJobRequest(args.type);
      return { summary: `The job request${args.type ? ` for ${args.type} jobs` : ""}: set type, one subject, and validations and/or one validationSetId. Examples in examples.`, data };
    },
  },
  {
    name: "check_job_request",
    title: "Check a job request",
    description:
      "Runs the full pre-pricing validation of a job body and says whether it would be accepted, and if not the exact error (code, message, details) POST /api/jobs would answer. With an API key it also gives the quote (price, balance, sufficient). Creates nothing and charges nothing. A url job's host is resolved (DNS) to check it is public.",
    input: JobRequest,
    annotations: { title: "Check a job request", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    auth: "optional",
    scope: "jobs:write",
    validate: false,
    errors: ["INSUFFICIENT_SCOPE", "CUSTOMER_NOT_FOUND", "CUSTOMER_SCOPE_MISMATCH"],
    async run(args, call) {
      const body = args ?? {};
      try {
        if (call.principal) {
          const { customerId } = keyed(call, (body as { customerId?: unknown }).customerId);
          const quote = await call.assay.jobs.estimate(customerId, body);
          return {
            summary: `Accepted as sent: ${quote.totalCredits} credits; balance ${quote.balance}${quote.sufficient ? "" : ` (short by ${quote.shortfall}: run_job would be refused with INSUFFICIENT_CREDITS)`}.`,
            data: { ok: true, quote },
          };
        }
        const job = await planJob(body, call.assay.guard);
        return {
          summary: `Accepted as sent: ${plural(job.run.length, "check")} for ${job.totalCredits} credits${job.skipped.length ? `, ${job.skipped.length} skipped for missing parameters` : ""}. Send an API key for a quote against your balance.`,
          data: {
            ok: true,
            plan: {
              type: job.type,
              ...(job.validationSetId ? { validationSetId: job.validationSetId } : {}),
              lines: job.run.map((v) => ({ validationId: v.module.meta.id, credits: v.credits })),
              totalCredits: job.totalCredits,
              skipped_validations: job.skipped,
            },
          },
        };
      } catch (e) {
        if (!(e instanceof AppError) || e.code === "INSUFFICIENT_SCOPE" || e.code.startsWith("CUSTOMER_")) throw e;
        const error = e.toBody(call.requestId);
        return { summary: `Would be refused: ${e.code} (HTTP ${e.status}): ${e.message}`, data: { ok: false, httpStatus: e.status, error } };
      }
    },
  },
  {
    name: "explain_error",
    title: "Explain an error code",
    description: "The error table: each code's HTTP status, title and what to do. No arguments lists every code; with code, that one. Same table as GET /api/errors.",
    input: ExplainErrorInput,
    annotations: { title: "Explain an error code", ...READ },
    auth: "none",
    errors: INPUT_ERRORS,
    run(args, { assay }) {
      if (args.code) {
        const data = assay.catalog.error(args.code);
        return { summary: `${data.error.code} (HTTP ${data.error.httpStatus}): ${data.error.guidance}`, data };
      }
      const data = assay.catalog.errors();
      return { summary: `${plural(data.errors.length, "error code")}; branch on code, never on message.`, data };
    },
  },
  {
    name: "create_account",
    title: "Create an account",
    description:
      "Opens a free account for an email the user controls (signing in with it later claims the account) and returns its API key, shown only this once, with 1,000 free credits by default. Ask the user for the email; never invent one. An existing account is ACCOUNT_EXISTS. Same as POST /api/signup.",
    input: SignupBody,
    annotations: { title: "Create an account", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    auth: "none",
    errors: [...INPUT_ERRORS, "SIGNUP_INVALID_EMAIL", "ACCOUNT_EXISTS"],
    run(args, { assay, requestId }) {
      const data = assay.accounts.signup(args.email, { requestId, actor: { kind: "system" }, channel: "mcp" });
      return {
        summary: `Account ${data.customerId} opened for ${data.email}. Store apiKey now (it is not shown again) and send it as Authorization: Bearer <apiKey>.`,
        data,
      };
    },
  },
  // ------------------------------------------------------------ jobs (key)
  {
    name: "estimate_job",
    title: "Estimate a job",
    description: "The price of a job body in credits, one line per check, with your balance and whether it suffices. Validates exactly as run_job does; charges nothing and creates nothing. Same as POST /api/jobs/estimate.",
    input: JobRequest,
    annotations: { title: "Estimate a job", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    auth: "key",
    scope: "jobs:write",
    validate: false,
    errors: [...CUSTOMER_ERRORS, ...JOB_REQUEST_ERRORS],
    async run(args, call) {
      const { customerId } = keyed(call, args?.customerId);
      const data = await call.assay.jobs.estimate(customerId, args ?? {});
      return {
        summary: `${data.totalCredits} credits for ${plural(data.lines.length, "check")}; balance ${data.balance}${data.sufficient ? "" : `, short by ${data.shortfall}`}.`,
        data,
      };
    },
  },
  {
    name: "run_job",
    title: "Run a job",
    description:
      "Runs a job and spends credits (errored rows are refunded). url and static_html jobs answer with every result (pass, fail with the reason to fix, or error: the check could not run, not a verdict); email jobs answer pending with a one-time testEmail address: have the real message sent there, then call await_email_job. Same as POST /api/jobs.",
    input: JobRequest,
    annotations: { title: "Run a job", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    auth: "key",
    scope: "jobs:write",
    validate: false,
    errors: [...CUSTOMER_ERRORS, ...JOB_REQUEST_ERRORS, "INSUFFICIENT_CREDITS", "JOB_EXECUTION_FAILED"],
    async run(args, call) {
      const { customerId, meta } = keyed(call, args?.customerId);
      const data = await call.assay.jobs.run(customerId, args ?? {}, meta);
      return { summary: jobSummary(data), data };
    },
  },
  {
    name: "get_job",
    title: "Get a job",
    description: "One job with its status and results. Same as GET /api/jobs?jobId=….",
    input: GetJobInput,
    annotations: { title: "Get a job", ...READ },
    auth: "key",
    scope: "jobs:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS, "JOB_NOT_FOUND"],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const data = call.assay.jobs.get(customerId, args.jobId, args.detail);
      if (!data) throw new AppError("JOB_NOT_FOUND", `No job ${args.jobId} in this organization.`, { jobId: args.jobId });
      return { summary: jobSummary(data), data };
    },
  },
  {
    name: "await_email_job",
    title: "Wait for an email job",
    description: `Waits until an email job is no longer pending (the message arrived and was checked, or the window expired), at most timeoutSeconds (default 30, at most ${AWAIT_MAX_SECONDS}); answers the job either way, with stillPending true if it timed out: then call again. Reads only.`,
    input: AwaitEmailJobInput,
    annotations: { title: "Wait for an email job", ...READ },
    auth: "key",
    scope: "jobs:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS, "JOB_NOT_FOUND"],
    async run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const started = Date.now();
      const deadline = started + (args.timeoutSeconds ?? 30) * 1000;
      for (;;) {
        const job = call.assay.jobs.get(customerId, args.jobId, args.detail);
        if (!job) throw new AppError("JOB_NOT_FOUND", `No job ${args.jobId} in this organization.`, { jobId: args.jobId });
        const stillPending = job.status === "pending";
        if (!stillPending || Date.now() >= deadline || call.signal?.aborted) {
          const waitedMs = Date.now() - started;
          return {
            summary: stillPending
              ? `Job ${job.jobId} is still pending after ${Math.round(waitedMs / 1000)} s: has the message been sent to ${job.testEmail}? Call await_email_job again to keep waiting.`
              : jobSummary(job),
            data: { job, stillPending, waitedMs },
          };
        }
        await Bun.sleep(Math.min(200, Math.max(0, deadline - Date.now())));
      }
    },
  },
  {
    name: "fetch_capture",
    title: "Fetch a screenshot",
    description:
      "A captured screenshot as an image. Give a result's screenshotUrl (or a capture key) with your API key, or a screenshotShareUrl without one while the link is valid.",
    input: CaptureRef,
    annotations: { title: "Fetch a screenshot", ...READ },
    auth: "optional",
    scope: "jobs:read",
    needsKey: (args) => !isShareLink(args),
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS, "STORAGE_OBJECT_NOT_FOUND"],
    run(args, call) {
      if (args.url === undefined && args.key === undefined) {
        throw new AppError("MISSING_REQUIRED_FIELD", "Give url (a screenshotUrl or screenshotShareUrl) or key.", { field: "url", oneOf: ["url", "key"] });
      }
      if (args.url !== undefined && args.key !== undefined) {
        throw new AppError("INVALID_REQUEST_BODY", "Give url or key, not both.", { problems: [{ path: "key", message: "Not allowed together with url" }] });
      }
      const ref = args.url !== undefined ? parseCaptureUrl(args.url) : { key: args.key as string };
      const { row, data: bytes } = ref.shared
        ? call.assay.captures.readShared(ref.key, ref.shared.expires, ref.shared.signature)
        : call.assay.captures.read(keyed(call, args.customerId).customerId, ref.key);
      const data = { key: row.key, jobId: row.jobId, viewport: row.viewport, contentType: row.contentType, bytes: row.bytes, sha256: row.sha256 };
      return {
        summary: `Screenshot ${row.key} at ${row.viewport} (${row.contentType}, ${row.bytes} bytes).`,
        data,
        content: [{ type: "image", data: Buffer.from(bytes).toString("base64"), mimeType: row.contentType }],
      };
    },
  },
  {
    name: "list_email_clients",
    title: "List mail clients",
    description:
      "The mail clients a visual email check can be rendered in, per form factor (mobile-sm, tablet-portrait, desktop-md): id, name, engine, the native default, plan inclusion, extra-credit clients and credits per render. Use the ids in a validation entry's clients. Same as GET /api/email-clients.",
    input: CustomerQuery,
    annotations: { title: "List mail clients", ...READ },
    auth: "key",
    scope: "jobs:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS],
    run(args, call) {
      keyed(call, args.customerId);
      const data = emailClientCatalogView();
      const counts = Object.entries(data.formFactors).map(([ff, v]) => `${Object.keys(v.clients).length} at ${ff}`);
      return { summary: `Mail clients: ${counts.join(", ")}; native defaults: ${Object.values(data.formFactors).map((v) => v.nativeDefault).join(", ")}.`, data };
    },
  },
  // ------------------------------------------------------------ account (key)
  {
    name: "get_credits",
    title: "Get credits",
    description: "Your credit balance, plan, monthly grant and recent ledger entries (charges, refunds, grants). Same as GET /api/credits.",
    input: CreditsQuery,
    annotations: { title: "Get credits", ...READ },
    auth: "key",
    scope: "account:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const data = call.assay.accounts.credits(customerId, args.limit ?? 20);
      return { summary: `Balance ${data.balance} credits on the ${data.plan} plan.`, data };
    },
  },
  {
    name: "list_keys",
    title: "List API keys",
    description: "Your organization's API keys: id, name, display prefix, scopes, status. Never a secret. Minting, rotating and revoking need a signed-in dashboard session. Same as GET /api/keys.",
    input: CustomerQuery,
    annotations: { title: "List API keys", ...READ },
    auth: "key",
    scope: "account:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const keys = call.assay.accounts.keys(customerId);
      return { summary: `${plural(keys.length, "key")}, ${keys.filter((k) => k.status === "active").length} active.`, data: { keys } };
    },
  },
  {
    name: "get_org",
    title: "Get the organization",
    description: "Your organization: customerId, orgCode, email, plan, creation time. Same as GET /api/org.",
    input: CustomerQuery,
    annotations: { title: "Get the organization", ...READ },
    auth: "key",
    scope: "account:read",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const data = call.assay.accounts.org(customerId);
      return { summary: `Organization ${data.customerId} (${data.orgCode}), ${data.plan} plan.`, data };
    },
  },
  // ------------------------------------------------------------ feedback (key)
  {
    name: "list_feedback_due",
    title: "Feedback due",
    description: "Whether a feedback set is due for this key: { due, setId, questionCount, rewardCredits }. Answering it earns credits. Same as GET /api/feedback/due.",
    input: CustomerQuery,
    annotations: { title: "Feedback due", ...READ },
    auth: "key",
    scope: "feedback:write",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const data = call.assay.feedback.due(customerId);
      return { summary: data.due ? `Feedback set ${data.setId} is due: ${plural(data.questionCount, "question")} for ${data.rewardCredits} credits.` : "No feedback is due.", data };
    },
  },
  {
    name: "list_feedback_questions",
    title: "Feedback questions",
    description:
      "The feedback set currently asked, with its questions (id, text, shape) and reward; { due: false } when nothing is. With jobId and validationId: the looks-wrong set for one check on one job. Same as GET /api/feedback/questions.",
    input: FeedbackQuestionsQuery,
    annotations: { title: "Feedback questions", ...READ },
    auth: "key",
    scope: "feedback:write",
    errors: [...INPUT_ERRORS, ...CUSTOMER_ERRORS, "FEEDBACK_SET_UNKNOWN", "FEEDBACK_ANCHOR_REQUIRED", "FEEDBACK_CHECK_NOT_IN_JOB", "JOB_NOT_FOUND"],
    run(args, call) {
      const { customerId } = keyed(call, args.customerId);
      const data: Record<string, unknown> = call.assay.feedback.questions(customerId, args);
      return { summary: data.due ? `Feedback set ${data.setId} is asked.` : "No feedback is being asked.", data };
    },
  },
  {
    name: "submit_feedback_answers",
    title: "Submit feedback answers",
    description:
      "Answers a due feedback set, one answer per question matching its shape; earns its rewardCredits. Append-only: no edits, no second payout; filed as source agent. Same as POST /api/feedback.",
    input: FeedbackSubmission,
    annotations: { title: "Submit feedback answers", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    auth: "key",
    scope: "feedback:write",
    errors: [
      ...INPUT_ERRORS,
      ...CUSTOMER_ERRORS,
      "FEEDBACK_NOT_DUE",
      "FEEDBACK_SET_UNKNOWN",
      "FEEDBACK_ALREADY_GIVEN",
      "FEEDBACK_ANSWERS_INVALID",
      "FEEDBACK_ANCHOR_REQUIRED",
      "FEEDBACK_RATIONALE_REQUIRED",
      "AI_MISTAKE_NOTES_REQUIRED",
      "FEEDBACK_CHECK_NOT_IN_JOB",
    ],
    run(args, call) {
      const { customerId, meta } = keyed(call, args.customerId);
      const data = call.assay.feedback.submit(customerId, args, meta) as Record<string, unknown>;
      return { summary: "Feedback filed.", data };
    },
  },
];

export const toolsByName = new Map(tools.map((t) => [t.name, t]));

/** Whether this call needs a Bearer key before it can run (answered with HTTP 401 and WWW-Authenticate when absent). */
export function callNeedsKey(tool: ToolDefinition, args: unknown): boolean {
  const a = args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  if (tool.needsKey) {
    try {
      return tool.needsKey(a);
    } catch {
      return true;
    }
  }
  return tool.auth === "key";
}

/** Validates arguments with the tool's schema (the job tools' bodies are validated by planJob instead). */
export function toolArguments(tool: ToolDefinition, args: unknown): any {
  return tool.validate === false ? (args ?? {}) : readInput(tool.input, args);
}

