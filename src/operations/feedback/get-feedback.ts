import { Type } from "@sinclair/typebox";
import { Bool, Int, Obj, Str } from "../../contracts/schema-kit";
import { Answers, FeedbackSource, VerdictValue } from "../../contracts/feedback";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { READ } from "../words";

const FeedbackResultQuery = Type.Object(
  {
    jobId: Type.String({ minLength: 1, description: "The job the result belongs to." }),
    validationId: Type.String({ minLength: 1, description: "The check whose result the feedback is about." }),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const FeedbackRecord = Obj(
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

export const getFeedback = defineOperation({
  operationId: "getFeedback",
  tag: "feedback",
  summary: "The feedback filed about one result",
  http: {
    method: "get",
    path: "/api/feedback",
    returns: "The looks-wrong feedback filed for jobId and validationId: answers, verdicts, source, when.",
  },
  mcp: {
    name: "get_feedback",
    title: "Feedback on a result",
    description:
      "The looks-wrong feedback filed about one check on one job: the stored and the human verdict, the answers, the source and when. FEEDBACK_NOT_FOUND when none was filed (treat the result as pending review). Same as GET /api/feedback.",
    annotations: { title: "Feedback on a result", ...READ },
    summary: (data) =>
      `Feedback on ${data.validationId}: the check said ${data.storedVerdict}, the person says ${data.humanVerdict}.`,
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { query: FeedbackResultQuery },
  output: FeedbackRecord,
  errors: ["FEEDBACK_NOT_FOUND", "FEEDBACK_CHECK_NOT_IN_JOB", "JOB_NOT_FOUND"],
  example: { jobId: "job_example", validationId: "page-title" },
  handle: (input, { services, customerId }) => services.feedback.forResult(customerId, input.jobId, input.validationId),
});
