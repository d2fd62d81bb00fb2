import { CustomerQuery } from "../../contracts/request-parts";
import { Bool, Int, Nullable, Obj, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const FeedbackDue = Obj(
  { due: Bool(), setId: Nullable(Str()), questionCount: Int(), rewardCredits: Int() },
  "Exactly these four fields.",
);

export const getFeedbackDue = defineOperation({
  operationId: "getFeedbackDue",
  tag: "feedback",
  summary: "Whether a feedback set is due",
  http: {
    method: "get",
    path: "/api/feedback/due",
    returns: "{ due, setId, questionCount, rewardCredits } and nothing else.",
  },
  mcp: {
    name: "list_feedback_due",
    title: "Feedback due",
    description:
      "Whether a feedback set is due for this key (sets queue per key and are asked one at a time): { due, setId, questionCount, rewardCredits }. Answering it earns credits. Same as GET /api/feedback/due.",
    annotations: { title: "Feedback due", ...READ },
    summary: (data) =>
      data.due
        ? `Feedback set ${data.setId} is due: ${plural(data.questionCount, "question")} for ${data.rewardCredits} credits.`
        : "No feedback is due.",
  },
  auth: { kind: "key", scope: "feedback:write", session: true },
  input: { query: CustomerQuery },
  output: FeedbackDue,
  errors: [],
  example: {},
  handle: (_input, { services, customerId, meta }) => services.feedback.due(customerId, meta),
});
