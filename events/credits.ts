import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData, type EventUnion } from "./shared";

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
export type CreditsGrantedData = EventData<typeof CreditsGranted>;

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
export type CreditsChargedData = EventData<typeof CreditsCharged>;

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
export type CreditsRefundedData = EventData<typeof CreditsRefunded>;

export const creditEvents = [CreditsGranted, CreditsCharged, CreditsRefunded] as const;
export type CreditEvent = EventUnion<typeof creditEvents>;

const creditEventNames: ReadonlySet<string> = new Set(creditEvents.map((t) => t.name));

export function isCreditEvent<E extends { type: string }>(e: E): e is Extract<E, CreditEvent> {
  return creditEventNames.has(e.type);
}

/** What an event does to its organization's balance: a fact of the event, shared by the ledger decider and the balance read model. */
export function creditDelta(e: CreditEvent): number {
  switch (e.type) {
    case "CreditsGranted":
      return e.data.amount;
    case "CreditsCharged":
      return -e.data.amount;
    case "CreditsRefunded":
      return e.data.amount;
  }
}
