import { Type } from "@sinclair/typebox";
import { FeedbackQuestionsQuery, VerdictValue } from "../../contracts/feedback";
import { Int, literals, Obj, Opt, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";
import { QuestionShape } from "../../catalog/feedback-sets";

const FeedbackQuestions = Type.Union([
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

export const getFeedbackQuestions = defineOperation({
  operationId: "getFeedbackQuestions",
  tag: "feedback",
  summary: "The feedback set currently asked, or { due: false }",
  http: {
    method: "get",
    path: "/api/feedback/questions",
    returns: "due, setId, questions (id, text, shape), rewardCredits; or { due: false }.",
  },
  mcp: {
    name: "list_feedback_questions",
    title: "Feedback questions",
    description:
      "The feedback set currently asked, with its questions (id, text, shape) and reward; { due: false } when nothing is. With jobId and validationId: the looks-wrong set for one check on one job, worded after its verdict and paying what the check cost (net of refunds). Same as GET /api/feedback/questions.",
    annotations: { title: "Feedback questions", ...READ },
    summary: (data) =>
      data.due
        ? `Feedback set ${data.setId}: ${plural(data.questionCount, "question")} for ${data.rewardCredits} credits.`
        : "No feedback is being asked.",
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { query: FeedbackQuestionsQuery },
  output: FeedbackQuestions,
  errors: [
    "FEEDBACK_SET_UNKNOWN",
    "FEEDBACK_NOT_DUE",
    "FEEDBACK_ANCHOR_REQUIRED",
    "FEEDBACK_CHECK_NOT_IN_JOB",
    "JOB_NOT_FOUND",
  ],
  example: {},
  handle: (input, { services, customerId, meta }) => services.feedback.questions(customerId, input, meta),
});
