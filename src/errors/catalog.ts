/**
 * The one error catalog. `/api/errors`, `docs/errors.md`, OpenAPI error lists and MCP's
 * `explain_error` are all generated from this table; add a code here and nowhere else.
 */
export interface ErrorEntry {
  code: string;
  status: number;
  title: string;
  /** What the caller should do about it. */
  guidance: string;
  /** True for codes this service added where the spec had none for a case. */
  addedBySpecGap?: boolean;
}

const entries = [
  // 400: refused before pricing; nothing charged, no job created.
  {
    code: "AI_MISTAKE_NOTES_REQUIRED",
    status: 400,
    title: "AI mistake notes required",
    guidance:
      "aiMistakeNotes is missing although humanVerdict differs from the stored AI status. Describe what the AI got wrong.",
  },
  {
    code: "CLIENT_SELECTION_NOT_IN_JOB",
    status: 400,
    title: "Client selection for a check not in the job",
    guidance:
      "clients was given for a validation the job will not run: not selected, or skipped for missing parameters (details.validationId). Give it its parameters or drop its clients.",
  },
  {
    code: "CLIENT_SELECTION_RENDERLESS_CHECK",
    status: 400,
    title: "Client selection on a functional check",
    guidance:
      "clients was given for a functional validation (details.validationId). Functional checks read the MIME and accept no client selection; remove clients from that entry.",
  },
  {
    code: "CONFLICTING_PARAMETERS",
    status: 400,
    title: "Conflicting parameters",
    guidance:
      "Two validations[] entries set one parameter name to different values (details.path is the second entry). A job carries one flat parameter map: use one value.",
  },
  {
    code: "CREDIT_AMOUNT_OUT_OF_RANGE",
    status: 400,
    title: "Credit amount out of range",
    guidance:
      "An amount of credits, or the balance it would leave, is not a whole number from 0 to 9007199254740991 (details.amount, details.balance, details.max): the ledger counts exactly only up to there. Move a smaller amount.",
    addedBySpecGap: true,
  },
  {
    code: "DEVICE_CODE_INVALID",
    status: 400,
    title: "Device code not valid",
    guidance:
      "No pending device request has this user code: it is mistyped, expired (10 minutes) or answered already. Start the sign-in again on the device for a new code.",
    addedBySpecGap: true,
  },
  {
    code: "DUPLICATE_VALIDATION",
    status: 400,
    title: "Duplicate validation",
    guidance:
      "The same validation id is repeated with a different configuration (details.path). Identical duplicates are collapsed; merge the entries.",
  },
  {
    code: "EMPTY_CLIENT_SELECTION",
    status: 400,
    title: "Empty client selection",
    guidance:
      "clients is an empty object (details.validationId). Omit clients, or key it by form factor with arrays of client ids; an empty array means the native default client.",
  },
  {
    code: "FEEDBACK_ANCHOR_REQUIRED",
    status: 400,
    title: "Feedback anchors required",
    guidance:
      "This feedback set needs anchors: validation-scope sets need jobId and validationId; a per-standard set needs the jobId of a job that ran it (details.needs).",
  },
  {
    code: "FEEDBACK_ANSWERS_INVALID",
    status: 400,
    title: "Feedback answers invalid",
    guidance:
      "Answers violate question shapes, or the set is not answered exactly once per question with nothing extra (details.problems).",
  },
  {
    code: "FEEDBACK_RATIONALE_REQUIRED",
    status: 400,
    title: "Feedback rationale required",
    guidance: "verdictComments or feedbackNotes is required when humanVerdict is fail or error.",
  },
  {
    code: "INVALID_CAPTURE_SIZE",
    status: 400,
    title: "Invalid capture size",
    guidance: "Capture size must be mobile-sm, tablet-portrait or desktop-md.",
  },
  {
    code: "INVALID_CLIENT_SELECTION",
    status: 400,
    title: "Invalid client selection",
    guidance:
      "clients must be an object keyed by a known form factor (mobile-sm, tablet-portrait, desktop-md) with arrays of client id strings (details.path); clients apply to email validations only, so a webpage check takes none (use captureSizes).",
  },
  {
    code: "INVALID_ENUM_VALUE",
    status: 400,
    title: "Invalid enum value",
    guidance: "A field holds a value outside details.allowedValues (details.field).",
  },
  {
    code: "INVALID_PARAMETER_VALUE",
    status: 400,
    title: "Invalid parameter value",
    guidance:
      "A parameter value violates its format (details.validationId, details.parameter, details.expected). See the validation's parameters in the catalog.",
  },
  {
    code: "INVALID_REQUEST_BODY",
    status: 400,
    title: "Invalid request body",
    guidance:
      "The body is not valid JSON, is not application/json, or does not match the request schema (details.problems).",
  },
  {
    code: "INVITATION_INVALID",
    status: 400,
    title: "Invitation not valid",
    guidance:
      "The invitation link is unknown, used already or expired (details.reason); an invitation works once, within 7 days by default (ASSAY_INVITATION_TTL_SECONDS). Ask an admin of the organization for a new one.",
    addedBySpecGap: true,
  },
  {
    code: "JOB_ACCEPTS_ONE_SUBJECT",
    status: 400,
    title: "A job accepts one subject",
    guidance: "Send exactly one subject per job (details.subjectCount); a batch is N jobs.",
  },
  {
    code: "JOB_SUBJECT_REQUIRED",
    status: 400,
    title: "Job subject required",
    guidance: "url is missing on a url job, or html/baseUrl on a static_html job (details.field).",
  },
  {
    code: "LEGACY_REQUEST_SHAPE",
    status: 400,
    title: "Legacy request shape",
    guidance:
      "The body lacks the top-level type or uses the old line-array shape. details.hint maps old fields to the unified ones.",
  },
  {
    code: "MISSING_REQUIRED_FIELD",
    status: 400,
    title: "Missing required field",
    guidance: "A required field is absent (details.field).",
  },
  {
    code: "NO_VALIDATIONS_SELECTED",
    status: 400,
    title: "No validations selected",
    guidance: "Send validations[] entries, a validationSetId, or both.",
  },
  {
    code: "ONE_VALIDATION_SET_PER_JOB",
    status: 400,
    title: "One validation set per job",
    guidance: "More than one validation set was requested; send one validationSetId string.",
  },
  {
    code: "PLAN_UNKNOWN",
    status: 400,
    title: "Unknown plan",
    guidance: "The plan code is not in this server's plan catalog (details.planCode, details.knownPlanCodes).",
  },
  {
    code: "PLAN_EXCLUDES_SELECTED_CHECKS",
    status: 400,
    title: "Plan excludes the selected checks",
    guidance: "After plan gating no selected validation can run (details.gatedValidationIds, details.missingFeatures).",
  },
  {
    code: "OIDC_SIGNIN_FAILED",
    status: 400,
    title: "OpenID sign-in failed",
    guidance:
      "The OpenID provider refused or failed the sign-in (details.reason provider, with its details.error: a denied consent, a code used already), or did not vouch for the email (details.reason email_unverified). No session was started; sign in again from GET /api/session/oidc/start.",
    addedBySpecGap: true,
  },
  {
    code: "OIDC_STATE_INVALID",
    status: 400,
    title: "OpenID sign-in state not valid",
    guidance:
      "The provider's answer does not belong to a sign-in this browser started (details.reason mismatch), or that sign-in was completed already or is over 10 minutes old (details.reason not_pending). No session was started; sign in again from GET /api/session/oidc/start.",
    addedBySpecGap: true,
  },
  {
    code: "PLAYGROUND_INVALID_URL",
    status: 400,
    title: "Not a public http(s) URL",
    guidance:
      "The URL must be a public http(s) URL; private, loopback, link-local and internal addresses are refused (details.reason).",
  },
  {
    code: "SIGNIN_LINK_INVALID",
    status: 400,
    title: "Sign-in link not valid",
    guidance:
      "The sign-in link is unknown, used already or expired (details.reason); a link works once, for 15 minutes. Ask for a new one with POST /api/session/email.",
    addedBySpecGap: true,
  },
  {
    code: "SIGNUP_INVALID_EMAIL",
    status: 400,
    title: "Invalid email",
    guidance: "email is not a syntactically valid address.",
  },
  {
    code: "UNKNOWN_EMAIL_CLIENT",
    status: 400,
    title: "Unknown email client",
    guidance:
      "A client id does not exist in the render catalog for that form factor (details.validationId, details.unknownClients). See GET /api/email-clients.",
  },
  {
    code: "UNKNOWN_FIELD",
    status: 400,
    title: "Unknown field",
    guidance: "The body has fields the request schema does not know (details.unknownFields). Remove them.",
  },
  {
    code: "VALIDATION_NOT_RUNNABLE",
    status: 400,
    title: "Validation not runnable",
    guidance:
      "The validation is not runnable (details.validationIds); use ids with runnable: true in GET /api/validations.",
  },
  {
    code: "VALIDATION_SET_CONFLICT",
    status: 400,
    title: "Validation set conflict",
    guidance:
      "validationSetId was combined with an internal validationSets array. Send one validationSetId and put extras in validations[].",
  },
  {
    code: "VALIDATION_SET_NOT_FOUND",
    status: 400,
    title: "Validation set not found",
    guidance: "Unknown validationSetId. See GET /api/validation-sets.",
  },
  {
    code: "VALIDATION_SET_SUBJECT_MISMATCH",
    status: 400,
    title: "Validation set does not fit the job type",
    guidance:
      "The set's subject type does not fit the job type (details.setSubjectType, details.jobSubjectType). url and static_html jobs take url sets; email jobs take email sets.",
  },
  {
    code: "VALIDATION_SUBJECT_MISMATCH",
    status: 400,
    title: "Validation does not fit the job type",
    guidance: "A named validation's subject type does not fit the job type (details.mismatches).",
  },
  {
    code: "VALIDATION_TYPE_UNSUPPORTED",
    status: 400,
    title: "Unsupported job type",
    guidance: "Use type url, static_html or email (details.allowedValues).",
  },
  {
    code: "WEBHOOK_URL_INVALID",
    status: 400,
    title: "Webhook URL not public",
    guidance:
      "A webhook endpoint must be a public http(s) URL: one that resolves, only to public addresses (details.reason: scheme, loopback, private, link-local, internal-name, unresolvable, ...). Nothing was registered. The same check is made again at every delivery, whose attempt records the refusal.",
    addedBySpecGap: true,
  },
  // 401
  {
    code: "AUTH_REQUIRED",
    status: 401,
    title: "Authentication required",
    guidance:
      "Send Authorization: Bearer <API_KEY>. The key is missing, malformed, unknown or revoked; key mint, rotate and revoke need a signed-in session (POST /api/session/email), not a key, and a session that ended or expired means signing in again.",
  },
  // 402
  {
    code: "INSUFFICIENT_CREDITS",
    status: 402,
    title: "Insufficient credits",
    guidance:
      "The balance is too low; nothing was charged (details.balance, details.required, details.shortfall). Top up; do not retry the same body expecting it to be free.",
  },
  // 403
  {
    code: "ADMIN_REQUIRED",
    status: 403,
    title: "Admin required",
    guidance:
      "This action needs an admin user: adding, inviting and removing members and changing roles, or rotating and revoking a key another person minted (details.keyId).",
  },
  {
    code: "CSRF_TOKEN_INVALID",
    status: 403,
    title: "CSRF token missing or wrong",
    guidance:
      "A state-changing request made with the session cookie must carry the session's csrfToken (GET /api/session) in the X-CSRF-Token header, or a _csrf form field. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "CUSTOMER_SCOPE_MISMATCH",
    status: 403,
    title: "Customer scope mismatch",
    guidance:
      "customerId names another organization than the credential's. Omit customerId to act as your own organization.",
  },
  {
    code: "INSUFFICIENT_SCOPE",
    status: 403,
    title: "Insufficient scope",
    guidance:
      "The key lacks a scope this route needs (details.requiredScope, details.keyScopes). Scopes are fixed at creation: mint a key with the scope.",
  },
  {
    code: "INVITATION_EMAIL_MISMATCH",
    status: 403,
    title: "Invitation for another email",
    guidance:
      "The invitation names another email than the signed-in person's. Sign in with the invited email, or open the invitation link signed out: it signs in as the invited email. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "PLAN_EXCLUDES_EMAIL_CHECKS",
    status: 403,
    title: "Plan excludes email checks",
    guidance: "The plan has no email checks (details.feature).",
  },
  {
    code: "PLAN_EXCLUDES_REQUESTED_CLIENTS",
    status: 403,
    title: "Plan excludes requested clients",
    guidance:
      "An explicitly named (formFactor, clientId) pair is outside the plan; it is never silently narrowed (details.validationId, details.refusedClients, details.missingFeatures).",
  },
  {
    code: "PLAN_EXCLUDES_WEBSITE_CHECKS",
    status: 403,
    title: "Plan excludes website checks",
    guidance: "The plan has no website checks (details.feature).",
  },
  {
    code: "SELF_REVOKE_ONLY",
    status: 403,
    title: "A key may revoke only itself",
    guidance:
      "With a Bearer key, DELETE /api/keys/{keyId} revokes that same key (a command-line logout). Revoke other keys from a signed-in session.",
    addedBySpecGap: true,
  },
  {
    code: "UNAUTHORIZED_DOMAIN",
    status: 403,
    title: "Unauthorized domain",
    guidance:
      "Sign-in, and signup (POST /api/signup, create_account), are restricted to the email domains ASSAY_SIGNIN_DOMAINS lists (details.domain is the one refused). Nothing was created or sent.",
  },
  // 404
  {
    code: "CUSTOMER_NOT_FOUND",
    status: 404,
    title: "Customer not found",
    guidance: "No organization has that customerId. Omit customerId to act as your own organization.",
  },
  {
    code: "FEEDBACK_CHECK_NOT_IN_JOB",
    status: 404,
    title: "Check not in job",
    guidance: "No result row for that validationId on that jobId.",
  },
  {
    code: "FEEDBACK_NOT_FOUND",
    status: 404,
    title: "Feedback not found",
    guidance: "No feedback recorded for this result; treat it as pending review.",
  },
  {
    code: "FEEDBACK_SET_UNKNOWN",
    status: 404,
    title: "Feedback set unknown",
    guidance: "No active feedback set has this id.",
  },
  {
    code: "JOB_NOT_FOUND",
    status: 404,
    title: "Job not found",
    guidance: "Unknown jobId, or the job belongs to another organization.",
  },
  {
    code: "MEMBER_NOT_FOUND",
    status: 404,
    title: "Member not found",
    guidance:
      "No member of the session's organization has this personId (details.personId); a person of another organization is answered the same. See GET /api/members.",
    addedBySpecGap: true,
  },
  {
    code: "PLAYGROUND_RUN_NOT_FOUND",
    status: 404,
    title: "Playground run not found",
    guidance: "Unknown or expired playground run id (runs live in memory for a limited time).",
  },
  {
    code: "ROUTE_NOT_FOUND",
    status: 404,
    title: "Route not found",
    guidance: "No route has this method and path. See GET /api/openapi.json or /llms.txt.",
    addedBySpecGap: true,
  },
  {
    code: "STORAGE_OBJECT_NOT_FOUND",
    status: 404,
    title: "Storage object not found",
    guidance: "No stored object for this customer, job and storage key.",
  },
  {
    code: "VALIDATION_NOT_FOUND",
    status: 404,
    title: "Validation not found",
    guidance: "Unknown validation id or slug. See GET /api/validations.",
  },
  {
    code: "WEBHOOK_DELIVERY_NOT_FOUND",
    status: 404,
    title: "Webhook delivery not found",
    guidance:
      "No delivery with this deliveryId to this endpoint (details.deliveryId). See GET /api/webhooks/{endpointId}/deliveries.",
    addedBySpecGap: true,
  },
  {
    code: "WEBHOOK_NOT_FOUND",
    status: 404,
    title: "Webhook endpoint not found",
    guidance:
      "No webhook endpoint with this endpointId in your organization (details.endpointId); another organization's is answered the same. See GET /api/webhooks.",
    addedBySpecGap: true,
  },
  // 409
  {
    code: "ACCOUNT_EXISTS",
    status: 409,
    title: "Account exists",
    guidance:
      "An account exists for this email; signup never returns a credential for an existing account. Sign in and mint a key instead.",
  },
  {
    code: "FEEDBACK_ALREADY_GIVEN",
    status: 409,
    title: "Feedback already given",
    guidance:
      "The set is already completed (or the looks-wrong set was already filed for this job and check); nothing to retry.",
  },
  {
    code: "FEEDBACK_NOT_DUE",
    status: 409,
    title: "Feedback not due",
    guidance: "The set is not currently due for this credential (details.expectedSetId when known).",
  },
  {
    code: "JOB_CHARGE_CONFLICT",
    status: 409,
    title: "Job charge conflict",
    guidance:
      "A ledger charge already exists for this job id under another tenant or amount. An invariant violation; nothing was charged.",
  },
  {
    code: "PLAN_MANAGED_BY_BILLING",
    status: 409,
    title: "Plan managed by the billing provider",
    guidance:
      "The organization's plan is its subscription with the billing provider (details.provider), not Assay's to change. Change the subscription in the billing provider; the new plan shows within ASSAY_PLAN_CACHE_SECONDS. Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "LAST_ADMIN",
    status: 409,
    title: "Last admin",
    guidance:
      "The organization's last admin cannot leave, be removed or be demoted (details.personId). Make another member admin first (POST /api/members/{personId}/role). Nothing was changed.",
    addedBySpecGap: true,
  },
  {
    code: "WEBHOOK_LIMIT_REACHED",
    status: 409,
    title: "Webhook endpoint limit reached",
    guidance:
      "The organization has as many webhook endpoints as it may (details.limit, ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION, 20 by default). One endpoint may subscribe to several event types; delete one you no longer use. Nothing was registered.",
    addedBySpecGap: true,
  },
  // 413
  {
    code: "REQUEST_TOO_LARGE",
    status: 413,
    title: "Request too large",
    guidance: "The request body exceeds the size cap (details.limitBytes).",
    addedBySpecGap: true,
  },
  // 429: each with details.retryAfterSeconds, also sent as the Retry-After header.
  {
    code: "DEVICE_CODE_RATE_LIMITED",
    status: 429,
    title: "Device sign-ins rate limited",
    guidance:
      "This client address started as many device sign-ins (POST /api/device/code) as it may within one code lifetime (ASSAY_DEVICE_CODES_PER_ADDRESS per ASSAY_DEVICE_CODE_TTL_SECONDS, 20 per 10 minutes by default). A catalogued error, not an OAuth one: OAuth has no code for it. Nothing was issued; finish a sign-in already started, or try again after details.retryAfterSeconds.",
    addedBySpecGap: true,
  },
  {
    code: "PLAYGROUND_LIMIT_REACHED",
    status: 429,
    title: "Playground limit reached",
    guidance: "This anonymous session used all its free playground runs.",
  },
  {
    code: "PLAYGROUND_RATE_LIMITED",
    status: 429,
    title: "Playground rate limited",
    guidance: "Too many playground runs from one IP in the window.",
  },
  {
    code: "SESSION_START_RATE_LIMITED",
    status: 429,
    title: "Sign-ins rate limited",
    guidance:
      "This client address started as many sessions without a credential as it may within the window: sign-in links used, OpenID Connect sign-ins, invitation links opened (ASSAY_SIGNINS_PER_CLIENT per ASSAY_SIGNIN_WINDOW_SECONDS, 60 per hour by default). Nothing was started, and the link was not used: it still works until it expires. Try again after details.retryAfterSeconds (also the Retry-After header).",
    addedBySpecGap: true,
  },
  {
    code: "SIGNUP_RATE_LIMITED",
    status: 429,
    title: "Signups rate limited",
    guidance:
      "This client address opened as many organizations as it may within the window (ASSAY_SIGNUPS_PER_ADDRESS per ASSAY_SIGNUP_WINDOW_SECONDS, 5 per hour by default), whichever way: POST /api/signup, create_account, or the first sign-in (by link or OpenID Connect) of an email with no organization; while none are left, a sign-in link for such an email is refused too. Nothing was created or sent; sign in to an account you have, or try again after details.retryAfterSeconds (also the Retry-After header).",
    addedBySpecGap: true,
  },
  {
    code: "SIGNIN_RATE_LIMITED",
    status: 429,
    title: "Sign-in links rate limited",
    guidance:
      "As many sign-in links were asked for as may be within one link lifetime: for this email (ASSAY_SIGNIN_LINKS_PER_ADDRESS, 5 per 15 minutes by default), or from this client address whatever the emails (ASSAY_SIGNIN_LINKS_PER_CLIENT, 20 by default). Use a link already sent, or ask again after details.retryAfterSeconds (also the Retry-After header). Nothing was sent.",
    addedBySpecGap: true,
  },
  // 5xx
  {
    code: "INTERNAL_ERROR",
    status: 500,
    title: "Internal error",
    guidance: "Retry; if it persists, contact support with the requestId.",
  },
  {
    code: "JOB_EXECUTION_FAILED",
    status: 500,
    title: "Job execution failed",
    guidance:
      "The job failed after acceptance and charge; undelivered captures and errored rows are refunded. Retry when retryable is true.",
  },
  {
    code: "BILLING_NOT_PROVISIONED",
    status: 503,
    title: "Billing not provisioned",
    guidance: "The organization has no billing customer or live agreement; no default plan is substituted.",
  },
  {
    code: "BILLING_PROVIDER_UNREACHABLE",
    status: 503,
    title: "Billing provider unreachable",
    guidance:
      "The billing provider or synced plan catalog is unreadable; a cached plan resolution of at most 5 minutes is still served.",
  },
  {
    code: "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
    status: 503,
    title: "Email client catalog unavailable",
    guidance:
      "The render catalog is unreachable and uncached; retry or resubmit without per-validation clients. Nothing was charged.",
  },
  {
    code: "PLAN_NOT_PUBLISHED",
    status: 503,
    title: "Plan not published",
    guidance:
      "The plan lacks a usable credits entitlement or the plan code is not granted; the free plan uses a configured monthly credit amount.",
  },
  {
    code: "SERVICE_UNAVAILABLE",
    status: 503,
    title: "Service unavailable",
    guidance:
      "A required dependency is unconfigured or unreachable; refused before work or billing. Retrying the same body is safe.",
  },
] as const satisfies readonly ErrorEntry[];

export type ErrorCode = (typeof entries)[number]["code"];

export const errorCatalog: readonly ErrorEntry[] = entries;

const byCode = new Map<string, ErrorEntry>(entries.map((e) => [e.code, e]));

export function errorEntry(code: ErrorCode): ErrorEntry {
  return byCode.get(code)!;
}

/** Retryable 5xx codes: the same body may succeed later. */
export const retryableCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "INTERNAL_ERROR",
  "BILLING_PROVIDER_UNREACHABLE",
  "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
  "SERVICE_UNAVAILABLE",
]);
