import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits } from "./shared";

/** Every movement of credits lives on stream `credits-<customerId>`; a balance is a fold of it. */
export const CreditsGranted = eventType(
  "CreditsGranted",
  Type.Object(
    {
      customerId: Id,
      amount: Type.Integer({ minimum: 1 }),
      reason: Type.Union([Type.Literal("signup"), Type.Literal("monthly"), Type.Literal("feedback"), Type.Literal("operator")]),
    },
    { additionalProperties: false },
  ),
);

export const CreditsCharged = eventType(
  "CreditsCharged",
  Type.Object(
    {
      customerId: Id,
      jobId: Id,
      amount: Credits,
      lines: Type.Array(Type.Object({ validationId: Id, credits: Credits }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
);

export const CreditsRefunded = eventType(
  "CreditsRefunded",
  Type.Object(
    {
      customerId: Id,
      jobId: Id,
      amount: Type.Integer({ minimum: 1 }),
      lines: Type.Array(
        Type.Object({ validationId: Id, credits: Credits, reason: Type.String() }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  ),
);

export const creditEvents = [CreditsGranted, CreditsCharged, CreditsRefunded] as const;
