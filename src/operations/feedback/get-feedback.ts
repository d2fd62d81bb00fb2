import { FeedbackResultQuery } from "../../contracts/inputs";
import { FeedbackRecord } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ } from "../words";

export const getFeedback = defineOperation({
  operationId: "getFeedback",
  tag: "feedback",
  summary: "The feedback filed about one result",
  http: { method: "get", path: "/api/feedback", returns: "The looks-wrong feedback filed for jobId and validationId: answers, verdicts, source, when." },
  mcp: {
    name: "get_feedback",
    title: "Feedback on a result",
    description:
      "The looks-wrong feedback filed about one check on one job: the stored and the human verdict, the answers, the source and when. FEEDBACK_NOT_FOUND when none was filed (treat the result as pending review). Same as GET /api/feedback.",
    annotations: { title: "Feedback on a result", ...READ },
    summary: (data) => `Feedback on ${data.validationId}: the check said ${data.storedVerdict}, the person says ${data.humanVerdict}.`,
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { query: FeedbackResultQuery },
  output: FeedbackRecord,
  errors: ["FEEDBACK_NOT_FOUND", "FEEDBACK_CHECK_NOT_IN_JOB", "JOB_NOT_FOUND"],
  example: { jobId: "job_example", validationId: "page-title" },
  handle: (input, { services, customerId }) => services.feedback.forResult(customerId, input.jobId, input.validationId),
});
