import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits, type EventData } from "./shared";

/** Stream `email-<sha256 of the lowercased address>`: makes one account per email an invariant of the log. */
export const EmailClaimed = eventType("EmailClaimed", Type.Object({ emailHash: Id, customerId: Id }, { additionalProperties: false }));
export type EmailClaimedData = EventData<typeof EmailClaimed>;

/** Stream `account-<customerId>`. */
export const AccountOpened = eventType(
  "AccountOpened",
  Type.Object(
    {
      customerId: Id,
      orgCode: Id,
      email: Type.String(),
      plan: Type.Literal("free"),
      monthlyGrant: Credits,
    },
    { additionalProperties: false },
  ),
);
export type AccountOpenedData = EventData<typeof AccountOpened>;

export const Scope = Type.Union([
  Type.Literal("jobs:read"),
  Type.Literal("jobs:write"),
  Type.Literal("account:read"),
  Type.Literal("feedback:write"),
]);

export const KeyMinted = eventType(
  "KeyMinted",
  Type.Object(
    {
      keyId: Id,
      customerId: Id,
      name: Type.String(),
      /** Non-secret leading characters shown in key lists so a person can tell keys apart. */
      displayPrefix: Type.String(),
      /** SHA-256 hex of the whole key; the key itself is never stored. */
      secretHash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
      scopes: Type.Array(Scope, { minItems: 1 }),
    },
    { additionalProperties: false },
  ),
);
export type KeyMintedData = EventData<typeof KeyMinted>;

export const KeyRevoked = eventType("KeyRevoked", Type.Object({ keyId: Id, customerId: Id }, { additionalProperties: false }));
export type KeyRevokedData = EventData<typeof KeyRevoked>;

export const accountEvents = [EmailClaimed, AccountOpened, KeyMinted, KeyRevoked] as const;
