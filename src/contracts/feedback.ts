import { Type } from "@sinclair/typebox";
import { customerId } from "./request-parts";
import { AnyJson, literals, Obj, Str } from "./schema-kit";

/** Feedback's shared shapes: answers, verdicts and sources in the bodies, and the two requests the feedback service reads. */

export const Answers = Type.Array(Obj({ questionId: Str(), value: AnyJson() }), {
  description: "One answer per question, as submitted.",
});

export const VerdictValue = literals(["pass", "fail", "error"] as const);

export const FeedbackSource = literals(["agent", "dashboard", "mcp"] as const);

export const FeedbackQuestionsQuery = Type.Object(
  {
    setId: Type.Optional(
      Type.String({ description: "A feedback set id from list_feedback_due / GET /api/feedback/due." }),
    ),
    jobId: Type.Optional(
      Type.String({ description: "With validationId: the looks-wrong set for one check on one job." }),
    ),
    validationId: Type.Optional(Type.String({ description: "With jobId: the check the looks-wrong set is about." })),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

export const FeedbackSubmission = Type.Object(
  {
    setId: Type.String({ minLength: 1, description: "The set being answered." }),
    answers: Type.Array(
      Type.Object(
        {
          questionId: Type.String({ minLength: 1 }),
          value: Type.Unknown({ description: "An answer matching the question's shape." }),
        },
        { additionalProperties: false },
      ),
      { description: "Exactly one answer per question of the set, nothing extra." },
    ),
    jobId: Type.Optional(
      Type.String({ description: "The job the answers are about (job- and validation-scope sets)." }),
    ),
    validationId: Type.Optional(
      Type.String({ description: "The check the answers are about (validation-scope sets)." }),
    ),
    customerId: customerId(),
  },
  { additionalProperties: false },
);
