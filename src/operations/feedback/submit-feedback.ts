import { feedbackSubmissionFromForm } from "../../contracts/inputs";
import { FeedbackSubmission } from "../../contracts/feedback";
import { FeedbackReceipt } from "../../contracts/outputs";
import { defineOperation } from "../operation";

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
    annotations: { title: "Submit feedback answers", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    summary: (data) => `Feedback on ${data.setId} filed; ${data.payout.credits} credits paid, balance ${data.payout.balanceAfter}.`,
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
