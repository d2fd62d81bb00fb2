/**
 * A compile-time proof, checked by `tsc -p .` and never run: the log takes only events of the union derived
 * from events/, and a fold narrows an event's data by its type. Each `@ts-expect-error` fails the compile
 * if the line under it ever type-checks, that is, if the typing of events is lost somewhere on the way.
 */
import type { EventOf } from "../../events";
import type { EventLog } from "../../src/store/event-log";
import type { EventMetadata } from "../../events/metadata";
import type { Projection } from "../../projections/projection";

declare const log: EventLog;
declare const meta: EventMetadata;

export function appends(): void {
  void log.append(
    [
      {
        streamId: "credits-cus_a",
        expectedVersion: 0,
        events: [
          { type: "CreditsGranted", data: { customerId: "cus_a", amount: 5, reason: "signup" } },
          // @ts-expect-error a misspelt field: CreditsGranted has `amount`, not `amuont`
          { type: "CreditsGranted", data: { customerId: "cus_a", amuont: 5, reason: "signup" } },
          // @ts-expect-error a type name that is not in events/
          { type: "CreditsConjured", data: { customerId: "cus_a", amount: 5, reason: "signup" } },
          // @ts-expect-error a missing field: CreditsGranted needs a reason
          { type: "CreditsGranted", data: { customerId: "cus_a", amount: 5 } },
          // @ts-expect-error a value outside the schema: "gift" is not a grant reason
          { type: "CreditsGranted", data: { customerId: "cus_a", amount: 5, reason: "gift" } },
          // @ts-expect-error the data of another event type: KeyRevoked has no amount
          { type: "KeyRevoked", data: { customerId: "cus_a", amount: 5, reason: "signup" } },
        ],
      },
    ],
    meta,
  );
}

export const folds: Projection["apply"] = (_db, e) => {
  // @ts-expect-error before narrowing, data is the union of every event's data: not every event has an amount
  void e.data.amount;
  switch (e.type) {
    case "CreditsCharged": {
      const charged: EventOf<"CreditsCharged"> = e;
      void charged.data.lines[0]?.validationId;
      // @ts-expect-error CreditsCharged has no reason (a grant does)
      void e.data.reason;
      break;
    }
    case "KeyMinted":
      void e.data.scopes;
      // @ts-expect-error a misspelt field read in a fold
      void e.data.secretHsah;
      break;
  }
};

export function reads(): void {
  for (const e of log.readStream("credits-cus_a")) {
    if (e.type === "CreditsGranted") void e.data.reason;
    // @ts-expect-error readStream hands out typed events: a type name outside events/ never matches
    if (e.type === "CreditsConjured") void e;
  }
}
