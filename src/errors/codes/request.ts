import type { ErrorEntry } from "../error-entry";

// The request as sent: malformed, invalid or too large.

/** 400: refused before pricing; nothing charged, no job created. */
export const badRequest = [
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
    code: "DISCOVERY_ONE_SOURCE",
    status: 400,
    title: "One discovery source",
    guidance:
      "Site discovery takes exactly one source: sitemap (a sitemap's URL) or crawl (a page to crawl from); maxDepth belongs to a crawl (details.given). Nothing was fetched.",
    addedBySpecGap: true,
  },
  {
    code: "DISCOVERY_URL_REFUSED",
    status: 400,
    title: "Discovery URL refused",
    guidance:
      "The sitemap or crawl URL, or a redirect it answered with, is not a public http(s) URL: the network guard refuses loopback, private, link-local and other non-public addresses, other schemes and blocked ports (details.url is the URL refused, details.reason the guard's reason). Nothing further was fetched.",
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
    code: "ENGINE_SELECTION_UNSUPPORTED",
    status: 400,
    title: "Engine selection on a check that takes none",
    guidance:
      "engines was given for a validation that is not judged in engines of your choice, or names an engine it does not offer (details.validationId, details.refusedEngines, details.offeredEngines). Only webpage checks whose catalog record lists capture.engines take it (layout-not-broken, no-horizontal-overflow); remove engines from that entry, or name engines from details.offeredEngines.",
    addedBySpecGap: true,
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
    code: "RUN_DUPLICATE_PAGE",
    status: 400,
    title: "Two pages of a run are the same page",
    guidance:
      "Two pages of the run have the same identity across runs (details.pageKey: the name, or the normalized URL, base URL or subject) at details.pageIndex and details.firstIndex. Give one a distinct name, or drop the duplicate; nothing was charged.",
    addedBySpecGap: true,
  },
  {
    code: "RUN_TOO_MANY_PAGES",
    status: 400,
    title: "Too many pages in one run",
    guidance:
      "A run takes at most details.maxPages pages (ASSAY_RUN_MAX_PAGES); details.pages were sent. Split the site into several projects or runs; nothing was charged.",
    addedBySpecGap: true,
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
      "The validation is not runnable (details.validationIds); use ids with runnable: true in GET /api/validations. details.suggestions maps each unknown id to the nearest ids (a slug to its id).",
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
    guidance:
      "Unknown validationSetId; details.suggestions maps it to the nearest set ids when any are close. See GET /api/validation-sets.",
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
] as const satisfies readonly ErrorEntry[];

/** 413: the body is over the size cap. */
export const contentTooLarge = [
  {
    code: "REQUEST_TOO_LARGE",
    status: 413,
    title: "Request too large",
    guidance: "The request body exceeds the size cap (details.limitBytes).",
    addedBySpecGap: true,
  },
] as const satisfies readonly ErrorEntry[];
