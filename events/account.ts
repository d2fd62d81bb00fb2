import { Type } from "@sinclair/typebox";
import { eventType, Id, Credits, Instant, Sha256Hex, type EventData } from "./shared";

/** Stream `email-<sha256 of the lowercased address>`: makes one account per email an invariant of the log. */
export const EmailClaimed = eventType(
  "EmailClaimed",
  Type.Object({ emailHash: Id, customerId: Id }, { additionalProperties: false }),
);
export type EmailClaimedData = EventData<typeof EmailClaimed>;

/** Stream `account-<customerId>`. */
export const AccountOpened = eventType(
  "AccountOpened",
  Type.Object(
    {
      customerId: Id,
      orgCode: Id,
      email: Type.String(),
      /** The plan code (src/catalog/plans.ts) the organization opens on; logs before plans were catalogued say "free". */
      plan: Id,
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
  Type.Literal("webhooks:write"),
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
      secretHash: Sha256Hex,
      scopes: Type.Array(Scope, { minItems: 1 }),
      /** The person who minted it from a session; absent for signup and operator keys (the organization's). */
      personId: Type.Optional(Id),
    },
    { additionalProperties: false },
  ),
);
export type KeyMintedData = EventData<typeof KeyMinted>;

export const KeyRevoked = eventType(
  "KeyRevoked",
  Type.Object({ keyId: Id, customerId: Id }, { additionalProperties: false }),
);
export type KeyRevokedData = EventData<typeof KeyRevoked>;

/**
 * A new secret for the same key id. The previous secret keeps working until `previousValidUntil` (the rotation
 * overlap; a later rotation ends it), then gets 401.
 */
export const KeyRotated = eventType(
  "KeyRotated",
  Type.Object(
    {
      keyId: Id,
      customerId: Id,
      displayPrefix: Type.String(),
      secretHash: Sha256Hex,
      previousValidUntil: Instant,
    },
    { additionalProperties: false },
  ),
);

/** Stream `account-<customerId>`: the organization's plan changed (by an admin or the operator). */
export const PlanChanged = eventType(
  "PlanChanged",
  Type.Object({ customerId: Id, planCode: Id, previousPlanCode: Id }, { additionalProperties: false }),
);
export type PlanChangedData = EventData<typeof PlanChanged>;

/**
 * Stream `account-<customerId>`: provisioning created or found the organization's customer with the billing
 * provider. Plan resolution then retrieves that customer by id rather than searching the provider for it (a
 * provider's search may lag behind a customer it just created).
 */
export const BillingCustomerLinked = eventType(
  "BillingCustomerLinked",
  Type.Object({ customerId: Id, provider: Id, billingCustomerId: Id }, { additionalProperties: false }),
);
export type BillingCustomerLinkedData = EventData<typeof BillingCustomerLinked>;

export const accountEvents = [
  EmailClaimed,
  AccountOpened,
  KeyMinted,
  KeyRotated,
  KeyRevoked,
  PlanChanged,
  BillingCustomerLinked,
] as const;
