import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData, type EventUnion } from "./shared";
import { Verdict } from "./jobs";

/**
 * Stream `feedback-<customerId>-<setId>-…` (src/domain/feedback.ts names it): one submission per set and anchor
 * (a looks-wrong set: per job and check; a queued set: per credential), appended at version 0 in the same write as
 * its payout on the credit stream, so a second submission conflicts and nothing is paid twice.
 */
export const FeedbackSubmitted = eventType(
  "FeedbackSubmitted",
  Type.Object(
    {
      customerId: Id,
      setId: Id,
      scope: Type.Union([Type.Literal("validation"), Type.Literal("job"), Type.Literal("standard")]),
      jobId: Type.Optional(Id),
      validationId: Type.Optional(Id),
      /** Who answered: `key:<keyId>` or `person:<personId>`; queued sets are asked once per credential. */
      credential: Id,
      /** From the channel, never from the body: agent (a Bearer key over HTTP), dashboard (a session), mcp. */
      source: Type.Union([Type.Literal("agent"), Type.Literal("dashboard"), Type.Literal("mcp")]),
      answers: Type.Array(Type.Object({ questionId: Id, value: Type.Unknown() }, { additionalProperties: false })),
      /** The looks-wrong set: the verdict the check gave, as the answers were about it. */
      storedVerdict: Type.Optional(Verdict),
      rewardCredits: Credits,
    },
    { additionalProperties: false },
  ),
);
export type FeedbackSubmittedData = EventData<typeof FeedbackSubmitted>;

export const feedbackEvents = [FeedbackSubmitted] as const;
export type FeedbackEvent = EventUnion<typeof feedbackEvents>;
