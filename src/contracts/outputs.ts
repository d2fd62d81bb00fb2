import { Type } from "@sinclair/typebox";
import { Bool, Dict, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";
import { ErrorBodySchema } from "./errors";
import { JobType } from "./catalog";
import { Job, PriceLine, Quote, SkippedCheck } from "./job";
import { Answers, FeedbackSource, VerdictValue } from "./feedback";
import { QuestionShape } from "../catalog/feedback-sets";
import { DEVICE_TOKEN_ERRORS } from "../domain/device";

// ------------------------------------------------------------------ catalog

// ------------------------------------------------------------------ account

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
