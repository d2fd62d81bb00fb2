import { Type } from "@sinclair/typebox";
import { Scope } from "./account";
import { eventType, Id, Instant, Sha256Hex, type EventData } from "./shared";

/**
 * Stream `device-<codeId>`: one device authorization (RFC 8628). The device code is stored only as its SHA-256;
 * the user code is short and shown to the person, so it is kept as is (it works only while the request is pending).
 */
export const DeviceCodeIssued = eventType(
  "DeviceCodeIssued",
  Type.Object(
    {
      codeId: Id,
      deviceCodeHash: Sha256Hex,
      userCode: Type.String({ pattern: "^[A-Z]{8}$" }),
      clientId: Type.Optional(Id),
      scopes: Type.Array(Scope, { minItems: 1 }),
      expiresAt: Instant,
      /** The least number of seconds between two token requests. */
      interval: Type.Integer({ minimum: 1 }),
    },
    { additionalProperties: false },
  ),
);
export type DeviceCodeIssuedData = EventData<typeof DeviceCodeIssued>;

/**
 * The client polled faster than the interval: the interval grows (RFC 8628 §3.5, by 5 seconds). No longer
 * appended (one per too-fast poll grew the log without bound): the grown interval lives in the polling node's
 * memory (src/services/device.ts). Kept so that logs holding it still replay.
 */
export const DeviceCodeSlowedDown = eventType(
  "DeviceCodeSlowedDown",
  Type.Object({ codeId: Id, interval: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
);
/** A signed-in person approved the request for one of their organizations. */
export const DeviceCodeApproved = eventType(
  "DeviceCodeApproved",
  Type.Object({ codeId: Id, personId: Id, customerId: Id }, { additionalProperties: false }),
);
export const DeviceCodeDenied = eventType(
  "DeviceCodeDenied",
  Type.Object({ codeId: Id, personId: Id }, { additionalProperties: false }),
);
/** The approved code was exchanged for a key (KeyMinted in the same append); it is never exchanged again. */
export const DeviceCodeRedeemed = eventType(
  "DeviceCodeRedeemed",
  Type.Object({ codeId: Id, keyId: Id }, { additionalProperties: false }),
);

export const deviceEvents = [
  DeviceCodeIssued,
  DeviceCodeSlowedDown,
  DeviceCodeApproved,
  DeviceCodeDenied,
  DeviceCodeRedeemed,
] as const;
