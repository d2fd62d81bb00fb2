import { AppError } from "../errors/app-error";
import type { StreamWrite } from "../store/event-log";
import type { DeviceCodeIssuedData } from "../../events";
import type { DeviceCode } from "../../projections/device";
import { decideMintKey, streams, type MintedKey } from "./accounts";
import { requireScopesOfRole, type Role } from "./people";

/**
 * Device authorization (RFC 8628) for the command-line client: the device asks for a code, a signed-in person
 * approves or denies it on the /device page, and the device polls the token endpoint until it gets a key.
 */

/** The token grant the device polls with. */
export const DEVICE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";
/** By how much slow_down grows the interval (RFC 8628 §3.5). */
const SLOW_DOWN_SECONDS = 5;
/** slow_down grows the interval up to here: a client that keeps polling too fast is told a minute, not more. */
export const MAX_INTERVAL_SECONDS = 60;

/** The OAuth refusals of the device token endpoint (RFC 8628 §3.5, RFC 6749 §5.2), the one list of them. */
export const DEVICE_TOKEN_ERRORS = [
  "authorization_pending",
  "slow_down",
  "access_denied",
  "expired_token",
  "invalid_grant",
  "invalid_request",
  "unsupported_grant_type",
  "invalid_scope",
] as const;

/** The error a token request answers, with RFC 8628 §3.5 and RFC 6749 §5.2 names. */
export type DeviceTokenErrorCode = (typeof DEVICE_TOKEN_ERRORS)[number];

/** An OAuth refusal: HTTP 400 with `{ error, error_description }`, not the catalogued error body (the RFC fixes the shape). */
export class DeviceTokenError extends Error {
  constructor(
    readonly error: DeviceTokenErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/** A user code shown as XXXX-XXXX, read back in any case, with or without the dash or spaces. */
export const formatUserCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;
export const normaliseUserCode = (typed: string) => typed.toUpperCase().replace(/[^A-Z]/g, "");

const isLive = (code: DeviceCode, now: string) => code.expiresAt > now;

export function decideIssueDeviceCode(code: DeviceCodeIssuedData): StreamWrite[] {
  return [
    { streamId: streams.device(code.codeId), expectedVersion: 0, events: [{ type: "DeviceCodeIssued", data: code }] },
  ];
}

/** A code the page may decide on: pending and unexpired; anything else reads as unknown, whatever it was. */
function requirePending(code: DeviceCode | null, now: string): DeviceCode {
  if (code?.status !== "pending" || !isLive(code, now)) {
    throw new AppError(
      "DEVICE_CODE_INVALID",
      "No pending request has this code; it may have expired or been answered. Start again on the device.",
    );
  }
  return code;
}

/**
 * Decides approving a device request for one of the person's organizations (isMember: that organization is
 * theirs, else the same 404 as a missing one), never with scopes beyond the person's role there.
 */
export function decideApproveDeviceCode(cmd: {
  code: DeviceCode | null;
  now: string;
  personId: string;
  customerId: string;
  role: Role | null;
}): StreamWrite[] {
  const code = requirePending(cmd.code, cmd.now);
  if (!cmd.role)
    throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(cmd.customerId)}.`, {
      customerId: cmd.customerId,
    });
  requireScopesOfRole(cmd.role, code.scopes);
  return [
    {
      streamId: streams.device(code.codeId),
      expectedVersion: "any",
      events: [
        {
          type: "DeviceCodeApproved",
          data: { codeId: code.codeId, personId: cmd.personId, customerId: cmd.customerId },
        },
      ],
    },
  ];
}

export function decideDenyDeviceCode(cmd: { code: DeviceCode | null; now: string; personId: string }): StreamWrite[] {
  const code = requirePending(cmd.code, cmd.now);
  return [
    {
      streamId: streams.device(code.codeId),
      expectedVersion: "any",
      events: [{ type: "DeviceCodeDenied", data: { codeId: code.codeId, personId: cmd.personId } }],
    },
  ];
}

/**
 * Decides one token request. The answer is either a refusal or, for an approved code, the key minted for the
 * approver's organization and the code redeemed, in one append whose expected version makes a second exchange
 * of the same code fail. A refusal appends nothing: slow_down too answers with the grown interval (`interval`,
 * which the caller keeps with `polledAt`), never an event per poll.
 * `lastPoll` is when this code was last polled and the interval then in force (null: never, or not since the
 * server started); without one, the interval is the code's as the log has it.
 */
export function decideDeviceToken(cmd: {
  code: (DeviceCode & { version: number }) | null;
  now: string;
  lastPoll: { polledAt: string; interval: number } | null;
  key: MintedKey;
}): { writes: StreamWrite[]; refusal: DeviceTokenError | null; interval: number } {
  const { code, now } = cmd;
  const interval = cmd.lastPoll?.interval ?? Math.min(code?.interval ?? 0, MAX_INTERVAL_SECONDS);
  const refuse = (error: DeviceTokenErrorCode, description: string, grown = interval) => ({
    writes: [],
    refusal: new DeviceTokenError(error, description),
    interval: grown,
  });
  if (!code) return refuse("invalid_grant", "The device code is not known.");
  if (code.status === "redeemed") return refuse("invalid_grant", "The device code was used already.");
  if (!isLive(code, now)) return refuse("expired_token", "The device code has expired; start again.");
  if (code.status === "denied") return refuse("access_denied", "The request was denied.");
  if (code.status === "pending") {
    if (cmd.lastPoll && Date.parse(now) - Date.parse(cmd.lastPoll.polledAt) < interval * 1000) {
      const grown = Math.min(interval + SLOW_DOWN_SECONDS, MAX_INTERVAL_SECONDS);
      return refuse("slow_down", `Polled faster than the interval; wait ${grown} seconds between requests.`, grown);
    }
    return refuse("authorization_pending", "The request is not approved yet.");
  }
  const customerId = code.customerId!;
  return {
    writes: [
      ...decideMintKey(customerId, { ...cmd.key, personId: code.personId! }, true),
      {
        streamId: streams.device(code.codeId),
        expectedVersion: code.version,
        events: [{ type: "DeviceCodeRedeemed", data: { codeId: code.codeId, keyId: cmd.key.keyId } }],
      },
    ],
    refusal: null,
    interval,
  };
}
