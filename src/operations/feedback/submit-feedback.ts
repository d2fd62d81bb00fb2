import { FeedbackSubmission, Answers, FeedbackSource } from "../../contracts/feedback";
import { Int, Obj, Opt, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";

/**
 * The dashboard's feedback form as a submission: setId, jobId and validationId as fields, and one field per question
 * named `answer.<questionId>` (text and choices as sent; a suffix says how to read the rest: `:number` a rating,
 * `:boolean` "true" or "false", `:list` every value sent under the name, empty ones dropped, so a hidden empty field
 * makes "no box ticked" an empty list). A question whose field is absent stays unanswered (FEEDBACK_ANSWERS_INVALID).
 */
function feedbackSubmissionFromForm(form: URLSearchParams): Record<string, unknown> {
  const answers = new Map<string, unknown>();
  for (const name of new Set(form.keys())) {
    const field = /^answer\.([^:]+)(?::(number|boolean|list))?$/.exec(name);
    if (!field) continue;
    const [, questionId, as] = field as unknown as [string, string, "number" | "boolean" | "list" | undefined];
    const raw = form.get(name)!;
    answers.set(
      questionId,
      as === "list"
        ? form.getAll(name).filter((v) => v !== "")
        : as === "number"
          ? raw.trim() === ""
            ? null
            : Number(raw)
          : as === "boolean"
            ? raw === "true"
            : raw,
    );
  }
  return {
    setId: form.get("setId") ?? "",
    ...(form.get("jobId") ? { jobId: form.get("jobId") } : {}),
    ...(form.get("validationId") ? { validationId: form.get("validationId") } : {}),
    answers: [...answers].map(([questionId, value]) => ({ questionId, value })),
  };
}

const FeedbackReceipt = Obj(
  {
    setId: Str(),
    jobId: Opt(Str()),
    validationId: Opt(Str()),
    answers: Answers,
    source: FeedbackSource,
    submittedAt: Str(),
    payout: Obj(
      { credits: Int(), balanceAfter: Int() },
      "Credits paid for this submission (0 for a set worth nothing) and the balance after.",
    ),
  },
  "The submission as filed, and its payout.",
);

export const submitFeedback = defineOperation({
  operationId: "submitFeedback",
  tag: "feedback",
  summary: "Answer a due feedback set (append-only)",
  http: { method: "post", path: "/api/feedback", returns: "The submission echoed with the payout." },
  mcp: {
    name: "submit_feedback_answers",
    title: "Submit feedback answers",
    description:
      "Answers a due feedback set, one answer per question matching its shape; earns its rewardCredits. Append-only: no edits, no second payout; the source is the channel's (mcp here, agent for a Bearer key over HTTP, dashboard for a session). Same as POST /api/feedback.",
    annotations: {
      title: "Submit feedback answers",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    summary: (data) =>
      `Feedback on ${data.setId} filed; ${data.payout.credits} credits paid, balance ${data.payout.balanceAfter}.`,
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { body: FeedbackSubmission, form: feedbackSubmissionFromForm },
  output: FeedbackReceipt,
  errors: [
    "FEEDBACK_NOT_DUE",
    "FEEDBACK_SET_UNKNOWN",
    "FEEDBACK_ALREADY_GIVEN",
    "FEEDBACK_ANSWERS_INVALID",
    "FEEDBACK_ANCHOR_REQUIRED",
    "FEEDBACK_RATIONALE_REQUIRED",
    "AI_MISTAKE_NOTES_REQUIRED",
    "FEEDBACK_CHECK_NOT_IN_JOB",
    "JOB_NOT_FOUND",
  ],
  example: { setId: "fs_example", answers: [{ questionId: "q1", value: "pass" }] },
  handle: (input, { services, customerId, meta }) => services.feedback.submit(customerId, input, meta),
});
