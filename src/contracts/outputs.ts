import { Type } from "@sinclair/typebox";
import { Bool, Dict, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";
import { ErrorBodySchema } from "./errors";
import { JobType } from "./catalog";
import { Job, PriceLine, Quote, SkippedCheck } from "./job";
import { keyFields } from "./account";
import { Invitation, Role, SessionView } from "./people";
import { Answers, FeedbackSource, VerdictValue } from "./feedback";
import { QuestionShape } from "../catalog/feedback-sets";
import { DEVICE_TOKEN_ERRORS } from "../domain/device";

// ------------------------------------------------------------------ catalog

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

export const KeyList = Obj({
  keys: Type.Array(Obj({ ...keyFields, lastUsedAt: Nullable(Str("Updated at most once a minute.")) })),
});

export const NewKey = Obj({ apiKey: Str(), ...keyFields }, "The key; apiKey is shown only here.");

export const RotatedKey = Obj(
  { apiKey: Str(), previousValidUntil: Str(), ...keyFields },
  "The key with its new secret, shown only here; the previous secret works until previousValidUntil.",
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

export const Plan = Obj(
  { type: JobType, validationSetId: Opt(Str()), lines: Type.Array(PriceLine), totalCredits: Int(), skipped_validations: Type.Array(SkippedCheck) },
  "What would run and its price, without a balance.",
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
