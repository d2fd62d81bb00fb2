import { Type, type TRecord, type TString, type TUnknown } from "@sinclair/typebox";
import { AnyJson, Bool, Dict, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";
import { Finding, PolicySeverity, Severity, SkippedValidation } from "../../events/jobs";
import { Scope } from "../../events/account";
import { JOB_TYPES, JobRequest } from "./job-request";
import { ErrorBodySchema, JOB_STATUSES, SUBJECT_TYPES } from "./inputs";
import { CAPTURE_SIZES } from "../capture/vocabulary";
import { QuestionShape } from "../catalog/feedback-sets";
import { DEVICE_TOKEN_ERRORS } from "../domain/device";

/**
 * A job body the catalog offers as an example: checked as the JobRequest it is, typed as the plain record the
 * catalog builds it as.
 */
const JobBody = JobRequest as unknown as TRecord<TString, TUnknown>;

const SubjectType = literals(SUBJECT_TYPES);
const JobType = literals(JOB_TYPES);
const CaptureSize = literals(CAPTURE_SIZES);
const Kind = literals(["functional", "visual"] as const);

// ------------------------------------------------------------------ catalog

const ParameterView = Obj(
  { name: Str(), description: Str(), format: Str(), schema: AnyJson(), default: Opt(AnyJson()), example: AnyJson() },
  "A parameter: name, description, format, its JSON Schema, default and example.",
);

const catalogEntryFields = {
  id: Str(),
  slug: Str(),
  name: Str(),
  summary: Str(),
  subjectType: SubjectType,
  category: Str(),
  severity: Severity,
  executionKind: Kind,
  runnable: Bool(),
  requiresConfiguration: Bool(),
  price: Obj({ credits: Int() }),
  parameters: Opt(Type.Array(ParameterView)),
};

const CatalogEntry = Obj(catalogEntryFields, "A validation catalog entry.");

const Reference = Obj({ title: Str(), url: Str() });

export const ValidationDetail = Obj(
  {
    ...catalogEntryFields,
    judgment: Str(),
    validationSets: Type.Array(Str()),
    references: Type.Array(Reference),
    capture: Obj({ offered: Type.Array(CaptureSize), standard: Type.Array(CaptureSize) }),
    agentJobSnippet: JobBody,
    links: Obj({ self: Str(), standard: Str(), custom: Opt(Str()) }),
  },
  "A validation's detail record.",
);

export const ValidationList = Obj({ validations: Type.Array(CatalogEntry) });

export const SetView = Obj(
  {
    id: Str(),
    name: Str(),
    description: Str(),
    subjectType: SubjectType,
    jobTypes: Type.Array(JobType),
    validationIds: Type.Array(Str()),
    severities: Dict(Severity),
    parameters: Type.Array(ParameterView),
    policySeverities: Type.Record(Type.String(), PolicySeverity, { description: "Each check's severity in the hosted vocabulary." }),
    blockingValidationIds: Type.Array(Str(), { description: "The checks whose failure blocks (required, prohibited)." }),
    warningValidationIds: Type.Array(Str(), { description: "The checks whose failure only warns (recommended, optional)." }),
    severityMapping: Type.Array(
      Obj({ assay: Nullable(Severity), policy: PolicySeverity, blocks: Bool() }),
      { description: "Assay's severities against the hosted vocabulary: critical and major are required, minor recommended, info optional; prohibited has no Assay severity (assay null)." },
    ),
  },
  "A validation set.",
);

export const SetList = Obj({ validationSets: Type.Array(SetView) });

export const SearchResult = Obj({
  query: Str(),
  matches: Type.Array(Obj({ ...catalogEntryFields, score: Type.Number(), matchedOn: Type.Array(Str()) })),
});

export const Recommendation = Obj({
  goal: Str(),
  jobType: JobType,
  subjectType: SubjectType,
  validationSet: Nullable(Obj({ id: Str(), name: Str(), why: Str() })),
  checks: Type.Array(
    Obj({
      id: Str(),
      name: Str(),
      category: Str(),
      executionKind: Kind,
      credits: Int(),
      inSet: Bool(),
      requiresConfiguration: Bool(),
      why: Str(),
      askUserFor: Opt(Type.Array(Obj({ parameter: Str(), description: Str(), format: Str() }))),
    }),
  ),
  estimatedCredits: Int(),
  jobRequest: JobBody,
  notes: Type.Array(Str()),
});

export const Comparison = Obj({
  validations: Type.Array(
    Obj({ ...catalogEntryFields, judgment: Str(), validationSets: Type.Array(Str()), captureSizes: Type.Array(CaptureSize) }),
  ),
  differences: Type.Array(Str()),
  sharedSets: Type.Array(Str()),
  canRunTogether: Bool(),
  totalCredits: Int(),
});

const JobExamples = Obj({ minimal: JobBody, withParameters: Opt(JobBody), parametersNote: Opt(Str()) });

export const JobRequestDescription = Obj({
  schema: Type.Unknown({ description: "The job request's JSON Schema." }),
  fields: Type.Array(Obj({ field: Str(), required: Str(), description: Str() })),
  examples: Dict(JobExamples),
  rules: Type.Array(Str()),
  captureSizes: Type.Array(CaptureSize),
  emailJobs: Str(),
});

const ErrorView = Obj({ code: Str(), httpStatus: Int(), title: Str(), guidance: Str(), retryable: Opt(Bool()) });
export const ErrorTable = Obj({ errors: Type.Array(ErrorView) });
export const OneError = Obj({ error: ErrorView });

export const OpenApiDocument = Obj(
  {
    openapi: Type.Literal("3.1.0"),
    info: Obj({ title: Str(), version: Str(), summary: Str(), description: Str() }),
    servers: Type.Array(Obj({ url: Str() })),
    externalDocs: Obj({ description: Str(), url: Str() }),
    tags: Type.Array(Obj({ name: Str(), description: Str() })),
    paths: Dict(Dict(AnyJson())),
    components: Obj({ schemas: Dict(AnyJson()), securitySchemes: Dict(AnyJson()) }),
  },
  "An OpenAPI 3.1 document.",
);

// ------------------------------------------------------------------ account

const BillingStanding = Obj(
  {
    provider: Str("Where the organization's plan comes from: local (this server's log) or stripe."),
    ready: Type.Boolean({ description: "Whether plan-dependent calls (jobs, estimates, GET /api/credits, GET /api/org) are answered now." }),
    plan: Nullable(Type.String({ description: "The plan they are answered under; null when not ready." })),
    code: Nullable(
      Type.String({
        description:
          "The error code they answer instead until billing is set up (BILLING_NOT_PROVISIONED: no customer or live subscription with the provider; PLAN_NOT_PUBLISHED, BILLING_PROVIDER_UNREACHABLE, SERVICE_UNAVAILABLE); null when ready.",
      }),
    ),
    message: Str("In words: the plan, or why not and what to do."),
  },
  "The organization's billing as its key will meet it.",
);

export const NewAccount = Obj(
  { apiKey: Str(), keyId: Str(), customerId: Str(), orgCode: Str(), email: Str(), billing: BillingStanding },
  "The account; apiKey is shown only here. billing says whether the key's plan-dependent calls are answered yet.",
);

export const Organization = Obj({
  customerId: Str(),
  orgCode: Str(),
  email: Str(),
  plan: Str("The plan code, as the billing provider resolves it."),
  planName: Str(),
  monthlyCredits: Type.Integer({ description: "The credits a month the plan grants." }),
  createdAt: Str(),
});

export const PlanList = Obj(
  {
    current: Str(),
    billingProvider: Type.String({ description: "Where the plan comes from (ASSAY_BILLING_PROVIDER): local, the plan the log records, or a billing provider such as stripe." }),
    planChangeable: Type.Boolean({
      description: "Whether POST /api/org/plan may change the plan: false under a billing provider, whose subscription is the plan (PLAN_MANAGED_BY_BILLING).",
    }),
    plans: Type.Array(
      Obj({
        code: Str(),
        name: Str(),
        paid: Bool(),
        monthlyCredits: Nullable(Int()),
        features: Obj({ website_checks: Bool(), email_checks: Bool(), custom_parameters: Bool(), extra_credit_clients: Bool() }),
        mailClients: Type.Union([Type.Literal("all"), Type.Array(Str())]),
      }),
    ),
  },
  "The plan catalog, the plan the organization is on (current), and whether it can be changed here.",
);

const keyFields = {
  keyId: Str(),
  name: Str(),
  displayPrefix: Str(),
  scopes: Type.Array(Scope),
  createdAt: Str(),
  rotatedAt: Nullable(Str()),
  revokedAt: Nullable(Str()),
  status: literals(["active", "revoked"] as const),
};

export const KeyList = Obj({
  keys: Type.Array(Obj({ ...keyFields, lastUsedAt: Nullable(Str("Updated at most once a minute.")) })),
});

export const NewKey = Obj({ apiKey: Str(), ...keyFields }, "The key; apiKey is shown only here.");

export const RotatedKey = Obj(
  { apiKey: Str(), previousValidUntil: Str(), ...keyFields },
  "The key with its new secret, shown only here; the previous secret works until previousValidUntil.",
);

export const RevokedKey = Obj({ keyId: Str(), revokedAt: Str() });

const Role = literals(["admin", "member"] as const);

export const SessionView = Obj(
  {
    email: Str(),
    personId: Str(),
    customerId: Str("The organization the session acts for now."),
    role: Role,
    organizations: Type.Array(Obj({ customerId: Str(), orgCode: Str(), role: Role })),
    csrfToken: Str("Send it as X-CSRF-Token (or a _csrf form field) with every state-changing request of this session."),
    expiresAt: Str("When the session ends if unused; each use moves it forward, up to 30 days after sign-in by default."),
  },
  "Who is signed in.",
);

export const Member = Obj({ customerId: Str(), personId: Str(), email: Str(), role: Role }, "The membership.");

export const Invitation = Obj(
  { invitationId: Str(), customerId: Str(), email: Str(), role: Role, invitedAt: Str(), expiresAt: Str("The link works once, until then.") },
  "The invitation; its link went to the email (or, with no mail relay, to the server's log).",
);

export const MemberList = Obj({
  customerId: Str(),
  members: Type.Array(Obj({ personId: Str(), email: Str(), role: Role, joinedAt: Str() })),
  invitations: Type.Array(Invitation, { description: "Pending: neither accepted nor expired." }),
});

export const RemovedMember = Obj(
  { customerId: Str(), personId: Str(), revokedKeyIds: Type.Array(Str(), { description: "The keys they had minted for the organization, revoked with them." }) },
  "The member is gone.",
);

export const LeftOrganization = Obj(
  {
    customerId: Str("The organization left."),
    revokedKeyIds: Type.Array(Str(), { description: "The keys you had minted for it, revoked." }),
    session: Nullable(SessionView),
  },
  "You left; the session now acts for your next organization (session), or, with none left, is over (null).",
);

export const SignInLinkSent = Obj(
  { status: Type.Literal("sent"), message: Str() },
  "The same answer whether or not the email has an account.",
);

export const SignedOut = Obj({ signedOut: Type.Literal(true) });

export const Credits = Obj({
  customerId: Str(),
  balance: Int(),
  plan: Str(),
  planName: Str(),
  monthlyGrant: Int(),
  ledger: Type.Array(
    Obj({
      position: Int(),
      type: Str(),
      amount: Int(),
      jobId: Opt(Str()),
      reason: Opt(Str()),
      balanceAfter: Int(),
      recordedAt: Str(),
    }),
  ),
});

// ------------------------------------------------------------------ jobs

const Line = Obj({ validationId: Str(), credits: Int() });

/** One shape wherever a skipped check is listed: the job, its estimate, check_job_request's plan and quote. */
const SkippedCheck = Obj(
  { ...SkippedValidation.properties, reasonCode: SkippedValidation.properties.reason },
  "A check not run (missing parameters, or not in the organization's plan): not a verdict, not charged. reasonCode is reason under the hosted service's name.",
);

export const Quote = Obj(
  {
    type: JobType,
    validationSetId: Opt(Str()),
    lines: Type.Array(Line),
    totalCredits: Int(),
    balance: Int(),
    sufficient: Bool(),
    shortfall: Opt(Int()),
    skipped_validations: Type.Array(SkippedCheck),
  },
  "A price quote.",
);

export const Plan = Obj(
  { type: JobType, validationSetId: Opt(Str()), lines: Type.Array(Line), totalCredits: Int(), skipped_validations: Type.Array(SkippedCheck) },
  "What would run and its price, without a balance.",
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
    screenshotUrl: Opt(Type.String({ description: "Fetch with the same Bearer key; does not expire." })),
    screenshotShareUrl: Opt(Type.String({ description: "Short-lived link usable without a key." })),
    captures: Opt(Type.Array(Obj({ viewport: Str(), screenshotUrl: Str() }))),
    references: Opt(Type.Array(Reference)),
    note: Opt(Str()),
    status: literals(["pass", "fail", "error"] as const),
    policySeverity: PolicySeverity,
    captureSizeId: Opt(Type.String({ description: "The capture size (a webpage's viewport, an email render's form factor) of the render this row refers to." })),
    captureClientId: Opt(Type.String({ description: "Email renders: the mail client of the render this row refers to." })),
  },
  "One check's result. verdict error: the check could not run (not a verdict; refunded). status is verdict under the hosted service's name, policySeverity the severity in its vocabulary.",
);

const Ids = (description: string) => Type.Array(Str(), { description });

/** The job's decision under the default threshold (`fail`), from src/domain/pass-policy.ts. */
const OverallPassPolicy = Obj(
  {
    threshold: Type.Literal("fail"),
    blockedByRequired: Type.Boolean({ description: "Whether a failed check of severity required (critical or major) blocks: blockingRequired has an id." }),
    blockedByProhibited: Type.Boolean({ description: "Whether a prohibited thing was found: blockingProhibited has an id." }),
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
    validationSetId: Nullable(Type.String({ description: "The set these checks came from; null: checks the request named one by one." })),
    validations: Type.Array(
      Obj({ validationId: Str(), severity: PolicySeverity, status: literals(["pass", "fail", "error", "pending"] as const) }),
    ),
    failuresBySeverity: Obj(
      { required: Type.Array(Str()), recommended: Type.Array(Str()), optional: Type.Array(Str()), prohibited: Type.Array(Str()) },
      "The ids of the failed checks, by severity (hosted vocabulary).",
    ),
  },
  "The checks of one source (a set, or the request's own list) with their hosted severity and status.",
);

const EmailCapture = Obj(
  {
    testEmail: Str(),
    captureMode: Type.Literal("inbox", { description: "The message is sent to the one-time address of Assay's SMTP inbox." }),
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
        passed: Type.Boolean({ description: "overallPassPolicy.decision is pass: decided by the same rule, so a failed recommended or optional check still passes." }),
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

export const PlaygroundRun = Obj(
  {
    runId: Str(),
    type: literals(["url", "static_html"] as const),
    subject: Obj({ url: Opt(Str()), baseUrl: Opt(Str()), htmlBytes: Opt(Int()) }, "The subject: the URL, or the pasted HTML's address and size."),
    viewport: CaptureSize,
    status: literals(["completed", "interrupted"] as const),
    interruption: Opt(Type.String({ description: "Why no check could read the subject (it could not be captured)." })),
    summary: Obj({ pass: Int(), fail: Int(), error: Int() }),
    results: Type.Array(
      Obj({
        validationId: Str(),
        name: Str(),
        verdict: literals(["pass", "fail", "error"] as const),
        severity: Severity,
        reason: Opt(Type.String({ description: "On fail: what to fix and where. On error: the cause." })),
        findings: Type.Array(Finding),
      }),
    ),
    screenshotUrl: Nullable(Type.String({ description: "The page as captured at viewport; kept as long as the run. null when the capture failed." })),
    createdAt: Str(),
    expiresAt: Type.String({ description: "After this the run and its screenshot are gone (PLAYGROUND_RUN_NOT_FOUND)." }),
  },
  "An anonymous playground run: kept in memory until expiresAt, spending no credits.",
);

export const JobPage = Obj({ jobs: Type.Array(Job), nextCursor: Nullable(Str()) });

export const AwaitedJob = Obj({ job: Job, stillPending: Bool(), waitedMs: Int() });

export const JobRequestCheck = Type.Union([
  Obj({ ok: Type.Literal(true), quote: Quote }),
  Obj({ ok: Type.Literal(true), plan: Plan }),
  Obj({ ok: Type.Literal(false), httpStatus: Int(), error: ErrorBodySchema }),
]);

export const CaptureInfo = Obj({ key: Str(), jobId: Str(), viewport: Str(), contentType: Str(), bytes: Int(), sha256: Str() });

const EmailClientView = Obj({
  id: Str(),
  name: Str(),
  engine: Str(),
  nativeDefault: Bool(),
  planIncluded: Bool(),
  extraCredits: Bool(),
  creditsPerRender: Int(),
  colorScheme: literals(["light", "dark"] as const),
  darkMode: literals(["none", "color-scheme", "partial-invert", "full-invert"] as const),
  darkVariant: Opt(Str()),
  lightVariant: Opt(Str()),
  renderWidth: Int(),
  caniemail: Type.Array(Str()),
});

export const EmailClientCatalog = Obj({
  plan: Obj({ code: Str(), name: Str() }),
  pricing: Obj({ creditsPerRender: Int(), extraCreditsPerRender: Int(), note: Str() }),
  formFactors: Dict(Obj({ viewport: Obj({ width: Int(), height: Int() }), nativeDefault: Str(), clients: Dict(EmailClientView) })),
  docs: Str(),
});

// ------------------------------------------------------------------ feedback

export const FeedbackDue = Obj(
  { due: Bool(), setId: Nullable(Str()), questionCount: Int(), rewardCredits: Int() },
  "Exactly these four fields.",
);

const Answers = Type.Array(Obj({ questionId: Str(), value: AnyJson() }), { description: "One answer per question, as submitted." });
const VerdictValue = literals(["pass", "fail", "error"] as const);
const FeedbackSource = literals(["agent", "dashboard", "mcp"] as const);

export const FeedbackQuestions = Type.Union([
  Obj(
    {
      due: Type.Literal(true),
      setId: Str(),
      scope: literals(["validation", "job", "standard"] as const),
      title: Str(),
      jobId: Str("The job the set is about: the looks-wrong set's, or the newest job that fits a queued set."),
      validationId: Opt(Str("The looks-wrong set: the check it is about.")),
      storedVerdict: Opt(VerdictValue),
      validationSetId: Opt(Str("A per-standard set: the validation set it is about.")),
      questionCount: Int(),
      rewardCredits: Int(),
      questions: Type.Array(Obj({ id: Str(), text: Str(), shape: QuestionShape })),
    },
    "The set asked: answer every question once, each value fitting its shape.",
  ),
  Obj({ due: Type.Literal(false) }, "Nothing is asked (or the looks-wrong set was already filed for this result)."),
]);

export const FeedbackReceipt = Obj(
  {
    setId: Str(),
    jobId: Opt(Str()),
    validationId: Opt(Str()),
    answers: Answers,
    source: FeedbackSource,
    submittedAt: Str(),
    payout: Obj({ credits: Int(), balanceAfter: Int() }, "Credits paid for this submission (0 for a set worth nothing) and the balance after."),
  },
  "The submission as filed, and its payout.",
);

export const FeedbackRecord = Obj(
  {
    setId: Str(),
    jobId: Str(),
    validationId: Str(),
    storedVerdict: VerdictValue,
    humanVerdict: VerdictValue,
    disputed: Bool(),
    answers: Answers,
    source: FeedbackSource,
    submittedAt: Str(),
    rewardCredits: Int(),
  },
  "The looks-wrong feedback filed about one result.",
);

export const DeviceAuthorization = Obj(
  {
    device_code: Str(),
    user_code: Str(),
    verification_uri: Str(),
    verification_uri_complete: Str(),
    expires_in: Type.Integer(),
    interval: Type.Integer(),
  },
  "RFC 8628 §3.2: show user_code and verification_uri to the person, then poll POST /api/device/token every interval seconds.",
);

export const OAuthErrorBody = Obj(
  { error: literals(DEVICE_TOKEN_ERRORS), error_description: Str() },
  "An OAuth refusal (RFC 6749 §5.2): the RFC fixes this shape instead of the catalogued error body.",
);

export const DeviceToken = Obj(
  {
    access_token: Str(),
    token_type: Type.Literal("Bearer"),
    scope: Str(),
    keyId: Str(),
    customerId: Str(),
    orgCode: Str(),
    email: Str(),
  },
  "The new key (access_token, shown only here) of the organization the person approved for, and that person's email.",
);
