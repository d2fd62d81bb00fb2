import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData, type EventUnion } from "./shared";

/**
 * Every movement of credits lives on stream `credits-<customerId>`; a balance is a fold of it.
 * A grant says why: the signup grant and the monthly grant name the period (UTC calendar month, `YYYY-MM`) they
 * cover, so one grant per organization per period is a fact the ledger decider can check; a feedback payout names
 * the set and the anchor it pays for (one payout per set and anchor); an operator grant carries the operator's note.
 * A monthly grant may be 0 credits (a top-up when the balance already holds the monthly amount): it still closes the period.
 */
export const CreditsGranted = eventType(
  "CreditsGranted",
  Type.Object(
    {
      customerId: Id,
      amount: Credits,
      reason: Type.Union([
        Type.Literal("signup"),
        Type.Literal("monthly"),
        Type.Literal("feedback"),
        Type.Literal("operator"),
      ]),
      period: Type.Optional(Type.String({ pattern: "^\\d{4}-\\d{2}$" })),
      planCode: Type.Optional(Id),
      feedback: Type.Optional(
        Type.Object(
          { setId: Id, jobId: Type.Optional(Id), validationId: Type.Optional(Id) },
          { additionalProperties: false },
        ),
      ),
      note: Type.Optional(Type.String({ maxLength: 500 })),
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

/** Credits the operator takes back (a correction), with the reason; never below zero. */
export const CreditsDeducted = eventType(
  "CreditsDeducted",
  Type.Object(
    {
      customerId: Id,
      amount: Type.Integer({ minimum: 1 }),
      reason: Type.Literal("operator"),
      note: Type.String({ minLength: 1, maxLength: 500 }),
    },
    { additionalProperties: false },
  ),
);
export type CreditsDeductedData = EventData<typeof CreditsDeducted>;

export const creditEvents = [CreditsGranted, CreditsCharged, CreditsRefunded, CreditsDeducted] as const;
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
    case "CreditsDeducted":
      return -e.data.amount;
    case "CreditsRefunded":
      return e.data.amount;
  }
}
