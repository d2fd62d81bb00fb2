import { FeedbackQuestionsQuery } from "../../contracts/feedback";
import { FeedbackQuestions } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

export const getFeedbackQuestions = defineOperation({
  operationId: "getFeedbackQuestions",
  tag: "feedback",
  summary: "The feedback set currently asked, or { due: false }",
  http: { method: "get", path: "/api/feedback/questions", returns: "due, setId, questions (id, text, shape), rewardCredits; or { due: false }." },
  mcp: {
    name: "list_feedback_questions",
    title: "Feedback questions",
    description:
      "The feedback set currently asked, with its questions (id, text, shape) and reward; { due: false } when nothing is. With jobId and validationId: the looks-wrong set for one check on one job, worded after its verdict and paying what the check cost (net of refunds). Same as GET /api/feedback/questions.",
    annotations: { title: "Feedback questions", ...READ },
    summary: (data) => (data.due ? `Feedback set ${data.setId}: ${plural(data.questionCount, "question")} for ${data.rewardCredits} credits.` : "No feedback is being asked."),
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { query: FeedbackQuestionsQuery },
  output: FeedbackQuestions,
  errors: ["FEEDBACK_SET_UNKNOWN", "FEEDBACK_NOT_DUE", "FEEDBACK_ANCHOR_REQUIRED", "FEEDBACK_CHECK_NOT_IN_JOB", "JOB_NOT_FOUND"],
  example: {},
  handle: (input, { services, customerId, meta }) => services.feedback.questions(customerId, input, meta),
});
