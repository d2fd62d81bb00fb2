import { AppError } from "../errors/app-error";
import type { Static } from "@sinclair/typebox";
import type { FeedbackQuestionsQuery, FeedbackSubmission } from "../contracts/inputs";
import type { RequestMeta } from "./context";

/**
 * Feedback on verdicts. Not built yet: nothing is ever due, so every surface answers with the
 * interface's "nothing due" shapes and a submission is refused with FEEDBACK_NOT_DUE. The HTTP routes and
 * MCP tools already call this service with their final schemas, so building feedback changes only this file.
 */
export class FeedbackService {
  /** GET /api/feedback/due: exactly { due, setId, questionCount, rewardCredits }. */
  due(_customerId: string) {
    return { due: false, setId: null, questionCount: 0, rewardCredits: 0 };
  }

  /** GET /api/feedback/questions: the set currently asked, or { due: false } when nothing is. */
  questions(_customerId: string, _query: Static<typeof FeedbackQuestionsQuery>): { due: false } {
    return { due: false };
  }

  submit(_customerId: string, submission: Static<typeof FeedbackSubmission>, _meta: RequestMeta): never {
    throw new AppError("FEEDBACK_NOT_DUE", `Feedback set ${JSON.stringify(submission.setId)} is not due for this key: nothing is being asked right now.`, {
      setId: submission.setId,
    });
  }
}
