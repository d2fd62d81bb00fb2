import { Elysia } from "elysia";
import type { Assay } from "../app";
import { CustomerQuery, FeedbackQuestionsQuery, FeedbackSubmission, readInput } from "../contracts/inputs";
import { authenticate, jsonBody } from "./request";

/** Feedback on verdicts (FeedbackService; the MCP feedback tools call the same service with the same schemas). */
export function feedbackRoutes(assay: Assay) {
  return new Elysia()
    .get("/api/feedback/due", ({ request, query }) => {
      const auth = authenticate(assay, request, "feedback:write");
      const q = readInput(CustomerQuery, query, { query: true });
      return assay.feedback.due(auth.customer(q.customerId));
    })
    .get("/api/feedback/questions", ({ request, query }) => {
      const auth = authenticate(assay, request, "feedback:write");
      const q = readInput(FeedbackQuestionsQuery, query, { query: true });
      return assay.feedback.questions(auth.customer(q.customerId), q);
    })
    .post("/api/feedback", ({ request, body }) => {
      const auth = authenticate(assay, request, "feedback:write");
      const submission = readInput(FeedbackSubmission, jsonBody(request, body));
      return assay.feedback.submit(auth.customer(submission.customerId), submission, auth.meta);
    });
}
