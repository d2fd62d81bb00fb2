import { ALL_SCOPES, streams, type Scope } from "../domain/accounts";
import {
  decideApproveDeviceCode,
  decideDenyDeviceCode,
  decideDeviceToken,
  decideIssueDeviceCode,
  DEVICE_GRANT_TYPE,
  DeviceTokenError,
  formatUserCode,
  normaliseUserCode,
} from "../domain/device";
import { findDeviceCodeByHash, findPendingDeviceCode, type DeviceCode } from "../../projections/device";
import { findPerson, membershipsOf } from "../../projections/people";
import { findOrganization } from "../../projections/organizations";
import { sha256Hex } from "../store/canonical";
import { newKey } from "./accounts";
import { newDeviceCodeId, newSecretToken, newUserCode } from "./ids";
import type { RequestMeta, ServiceContext } from "./context";
import type { SessionPrincipal } from "./sessions";

/** The least seconds between two token requests, at first (RFC 8628's default). */
const INTERVAL_SECONDS = 5;
/** What a device asks for when it names no scope: everything the signup key holds, within the approver's role. */
const DEFAULT_SCOPES: readonly Scope[] = ALL_SCOPES;

const iso = (ms: number) => new Date(ms).toISOString();

/** The scopes a device asks for: RFC 6749's space-separated list, each one of ours; none named is the default. */
function scopesAsked(scope: string | undefined): Scope[] {
  const named = (scope ?? "").split(/\s+/).filter(Boolean);
  const unknown = named.filter((s) => !ALL_SCOPES.includes(s as Scope));
  if (unknown.length)
    throw new DeviceTokenError(
      "invalid_scope",
      `Unknown scope(s): ${unknown.join(", ")}. Known: ${ALL_SCOPES.join(" ")}.`,
    );
  return named.length ? [...new Set(named as Scope[])] : [...DEFAULT_SCOPES];
}

/** Device authorization (RFC 8628): codes for the command-line client, approval on the /device page, keys by polling. */
export class DeviceService {
  /**
   * When each code was last polled and the interval slow_down has grown it to, to answer slow_down. Held in
   * memory, not on the log: a poll changes nothing but this, so a client polling in a loop appends nothing. A
   * restart forgets it (as does another node, on PostgreSQL), which costs at most one poll answered
   * authorization_pending early and the interval starting again from the code's. An entry goes once its code
   * has expired; codes are limited per address, so the map is too.
   */
  private readonly lastPolls = new Map<string, { polledAt: string; interval: number; expiresAt: string }>();

  constructor(private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "limits">) {}

  /**
   * A new device authorization: the device code is shown only here (the log keeps its hash). Each is an event,
   * so a client address may start only so many per code lifetime (DEVICE_CODE_RATE_LIMITED).
   */
  async issue(input: { client_id?: string; scope?: string }, meta: RequestMeta, clientAddress?: string) {
    const { config, log, limits } = this.ctx;
    const deviceCode = newSecretToken();
    const userCode = newUserCode();
    const writes = decideIssueDeviceCode({
      codeId: newDeviceCodeId(),
      deviceCodeHash: sha256Hex(deviceCode),
      userCode,
      ...(input.client_id ? { clientId: input.client_id } : {}),
      scopes: scopesAsked(input.scope),
      expiresAt: iso(Date.now() + config.deviceCodeTtlSeconds * 1000),
      interval: INTERVAL_SECONDS,
    });
    await limits.deviceCodes.spend(clientAddress);
    await log.append(writes, { ...meta, channel: "cli" });
    const verificationUri = `${config.publicBaseUrl}/device`;
    return {
      device_code: deviceCode,
      user_code: formatUserCode(userCode),
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${formatUserCode(userCode)}`,
      expires_in: config.deviceCodeTtlSeconds,
      interval: INTERVAL_SECONDS,
    };
  }

  /** One token request; an OAuth refusal is thrown as DeviceTokenError. Once approved, a fresh key for the approver's organization. */
  async token(input: { grant_type?: string; device_code?: string }, meta: RequestMeta) {
    if (!input.grant_type) throw new DeviceTokenError("invalid_request", "grant_type is required.");
    if (input.grant_type !== DEVICE_GRANT_TYPE)
      throw new DeviceTokenError("unsupported_grant_type", `Only ${DEVICE_GRANT_TYPE} is granted here.`);
    if (!input.device_code) throw new DeviceTokenError("invalid_request", "device_code is required.");
    const { log, readModels } = this.ctx;
    const now = iso(Date.now());
    const found = findDeviceCodeByHash(readModels, sha256Hex(input.device_code));
    const code = found && { ...found, version: log.streamVersion(streams.device(found.codeId)) };
    for (const [codeId, poll] of this.lastPolls) if (poll.expiresAt <= now) this.lastPolls.delete(codeId);
    const lastPoll = found ? (this.lastPolls.get(found.codeId) ?? null) : null;
    const { apiKey, key } = newKey(found?.clientId ?? "command line", found?.scopes ?? []);
    const { writes, refusal, interval } = decideDeviceToken({ code, now, lastPoll, key });
    if (found) this.lastPolls.set(found.codeId, { polledAt: now, interval, expiresAt: found.expiresAt });
    const approver = found?.personId ?? undefined;
    if (writes.length)
      await log.append(writes, {
        ...meta,
        channel: "cli",
        ...(approver ? { actor: { kind: "session", id: approver } } : {}),
      });
    if (refusal) throw refusal;
    this.lastPolls.delete(found!.codeId);
    const org = findOrganization(readModels, found!.customerId!)!;
    return {
      access_token: apiKey,
      token_type: "Bearer" as const,
      scope: key.scopes.join(" "),
      keyId: key.keyId,
      customerId: org.customerId,
      orgCode: org.orgCode,
      email: findPerson(readModels, approver!)!.email,
    };
  }

  /** The pending request a typed user code names, or null. */
  pending(typedUserCode: string): DeviceCode | null {
    return findPendingDeviceCode(this.ctx.readModels, normaliseUserCode(typedUserCode), iso(Date.now()));
  }

  /** Approves a pending request for one of the signed-in person's organizations. */
  async approve(
    session: SessionPrincipal,
    typedUserCode: string,
    customerId: string,
    meta: RequestMeta,
  ): Promise<DeviceCode> {
    const code = this.pending(typedUserCode);
    const role =
      membershipsOf(this.ctx.readModels, session.personId).find((m) => m.customerId === customerId)?.role ?? null;
    await this.ctx.log.append(
      decideApproveDeviceCode({ code, now: iso(Date.now()), personId: session.personId, customerId, role }),
      meta,
    );
    return code!;
  }

  async deny(session: SessionPrincipal, typedUserCode: string, meta: RequestMeta): Promise<DeviceCode> {
    const code = this.pending(typedUserCode);
    await this.ctx.log.append(decideDenyDeviceCode({ code, now: iso(Date.now()), personId: session.personId }), meta);
    return code!;
  }
}
