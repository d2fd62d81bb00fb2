import { AppError } from "../errors/app-error";
import {
  ALL_SCOPES,
  decideMintKey,
  emailHashOf,
  decideOpenAccount,
  decideRevokeKey,
  decideRotateKey,
  normaliseEmail,
  streams,
  type MintedKey,
  type Scope,
} from "../domain/accounts";
import { refuseDomain, requireKeyAuthority, requireScopesOfRole, signInAllowed } from "../domain/people";
import { findOrganization } from "../../projections/organizations";
import { findKeyById, findKeyBySecretHash, listKeys, type KeyRecord } from "../../projections/keys";
import { creditState, recentLedger } from "../../projections/credits";
import { sha256Hex } from "../store/canonical";
import { grantClock } from "../config";
import { periodOf } from "../domain/credits";
import { displayPrefixOf, KEY_PREFIX } from "../domain/key-prefix";
import { newApiKey, newCustomerId, newKeyId, newOrgCode } from "./ids";
import type { RequestMeta, ServiceContext } from "./context";
import type { SessionPrincipal } from "./sessions";

export interface Principal {
  key: KeyRecord;
  customerId: string;
}

/** A fresh secret and the key record the log keeps of it: its hash and a prefix, never the secret. */
function newSecret(): { apiKey: string; secretHash: string; displayPrefix: string } {
  const apiKey = newApiKey();
  return { apiKey, secretHash: sha256Hex(apiKey), displayPrefix: displayPrefixOf(apiKey) };
}

/** A new key with its record for the log; also minted by a device authorization (./device.ts). */
export function newKey(name: string, scopes: Scope[], personId?: string): { apiKey: string; key: MintedKey } {
  const { apiKey, secretHash, displayPrefix } = newSecret();
  return {
    apiKey,
    key: { keyId: newKeyId(), secretHash, displayPrefix, name, scopes, ...(personId ? { personId } : {}) },
  };
}

export class AccountService {
  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "keyUsage" | "plans" | "limits">,
  ) {}

  /**
   * Opens a free account: one key (returned only here, stored only as a hash) and the signup grant. Outside
   * ASSAY_SIGNIN_DOMAINS it is refused as sign-in is (the email could never sign in to rotate or revoke its key).
   * It opens an organization with free credits, so it counts against the client address's budget for new
   * organizations (SIGNUP_RATE_LIMITED past it); only signups that would open an account count.
   */
  async signup(rawEmail: unknown, meta: RequestMeta, clientAddress?: string) {
    const email = normaliseEmail(rawEmail);
    if (!signInAllowed(email, this.ctx.config.signinDomains)) throw refuseDomain(email);
    const emailHash = emailHashOf(email);
    const exists = this.ctx.log.streamVersion(streams.email(emailHash)) > 0;
    if (!exists) await this.ctx.limits.newOrganizations.spend(clientAddress);
    const customerId = newCustomerId();
    const { apiKey, key } = newKey("signup key", [...ALL_SCOPES]);
    const writes = decideOpenAccount(
      {
        email,
        emailHash,
        customerId,
        orgCode: newOrgCode(),
        signupCredits: this.ctx.config.signupCredits,
        monthlyGrant: this.ctx.config.monthlyFreeCredits,
        period: periodOf(grantClock(this.ctx.config)),
        key,
      },
      exists,
    );
    await this.ctx.log.append(writes, meta);
    await this.ctx.plans.provisionOpened(customerId);
    const org = findOrganization(this.ctx.readModels, customerId)!;
    // Said with the key: under a remote provider the organization may open without a plan its key can use yet.
    return {
      apiKey,
      keyId: key.keyId,
      customerId,
      orgCode: org.orgCode,
      email,
      billing: await this.ctx.plans.standing(customerId),
    };
  }

  /** Mints a key with chosen scopes; for the operator CLI (HTTP key minting needs a session). */
  async mintKey(customerId: string, name: string, scopes: Scope[], meta: RequestMeta) {
    const { apiKey, key } = newKey(name, scopes);
    await this.ctx.log.append(
      decideMintKey(customerId, key, findOrganization(this.ctx.readModels, customerId) !== null),
      meta,
    );
    return { apiKey, keyId: key.keyId, customerId, scopes };
  }

  async revokeKey(customerId: string, keyId: string, meta: RequestMeta) {
    await this.ctx.log.append(decideRevokeKey(customerId, keyId, this.activeKey(customerId, keyId) !== null), meta);
    return { keyId, revokedAt: findKeyById(this.ctx.readModels, keyId)!.revokedAt! };
  }

  /** An active key of the organization, or null (unknown, another organization's, revoked: all the same 404 later). */
  private activeKey(customerId: string, keyId: string): KeyRecord | null {
    const key = findKeyById(this.ctx.readModels, keyId);
    return key && key.customerId === customerId && !key.revokedAt ? key : null;
  }

  /** Mints a key from a session, for the session's organization, never with a scope beyond the person's role. */
  async mintKeyAs(session: SessionPrincipal, name: string, scopes: Scope[], meta: RequestMeta) {
    requireScopesOfRole(session.role, scopes);
    const { apiKey, key } = newKey(name, scopes, session.personId);
    await this.ctx.log.append(decideMintKey(session.customerId, key, true), meta);
    return { apiKey, ...this.keyView(findKeyById(this.ctx.readModels, key.keyId)!) };
  }

  /** A new secret for the same key id; the old one works for the rotation overlap (ASSAY_KEY_ROTATION_OVERLAP_SECONDS), then gets 401. */
  async rotateKeyAs(session: SessionPrincipal, keyId: string, meta: RequestMeta) {
    const key = this.activeKey(session.customerId, keyId);
    if (key) requireKeyAuthority(session, key);
    const { apiKey, secretHash, displayPrefix } = newSecret();
    const previousValidUntil = new Date(Date.now() + this.ctx.config.keyRotationOverlapSeconds * 1000).toISOString();
    await this.ctx.log.append(
      decideRotateKey(session.customerId, { keyId, secretHash, displayPrefix, previousValidUntil }, key !== null),
      meta,
    );
    return { apiKey, previousValidUntil, ...this.keyView(findKeyById(this.ctx.readModels, keyId)!) };
  }

  /** Revokes a key from a session: an admin any of the organization's, a member only the keys they minted. */
  revokeKeyAs(session: SessionPrincipal, keyId: string, meta: RequestMeta) {
    const key = this.activeKey(session.customerId, keyId);
    if (key) requireKeyAuthority(session, key);
    return this.revokeKey(session.customerId, keyId, meta);
  }

  /** A key revoking itself with its own credential (a command-line logout); never another key. */
  revokeOwnKey(principal: Principal, keyId: string, meta: RequestMeta) {
    if (keyId !== principal.key.keyId) {
      throw new AppError(
        "SELF_REVOKE_ONLY",
        "A key may revoke only itself; revoke other keys from a signed-in session.",
        { keyId },
      );
    }
    return this.revokeKey(principal.customerId, keyId, meta);
  }

  /** The organization a key belongs to, revoked or not; null for a key id this server never minted. */
  organizationOfKey(keyId: string): string | null {
    return findKeyById(this.ctx.readModels, keyId)?.customerId ?? null;
  }

  /** Resolves an Authorization header to a live key. Any problem is AUTH_REQUIRED, without saying which. */
  authenticate(authorization: string | null | undefined): Principal {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) {
      throw new AppError("AUTH_REQUIRED", "Send Authorization: Bearer <API_KEY>.", {
        reason: authorization ? "malformed" : "missing",
      });
    }
    const now = new Date();
    const key = match[1]!.startsWith(KEY_PREFIX)
      ? findKeyBySecretHash(this.ctx.readModels, sha256Hex(match[1]!), now.toISOString())
      : null;
    if (!key || key.revokedAt) throw new AppError("AUTH_REQUIRED", "The API key is not valid.", { reason: "invalid" });
    this.ctx.keyUsage.touch(key.keyId, now);
    return { key, customerId: key.customerId };
  }

  requireScope(principal: Principal, scope: Scope): void {
    if (!principal.key.scopes.includes(scope)) {
      throw new AppError("INSUFFICIENT_SCOPE", `This key lacks the ${scope} scope.`, {
        requiredScope: scope,
        keyScopes: principal.key.scopes,
      });
    }
  }

  /**
   * The organization a request acts for. Existence is checked before ownership (CUSTOMER_NOT_FOUND
   * wins over CUSTOMER_SCOPE_MISMATCH); customer ids are unguessable, so this reveals nothing usable.
   */
  resolveCustomer(principal: Pick<Principal, "customerId">, customerId: unknown): string {
    if (customerId === undefined || customerId === null || customerId === "") return principal.customerId;
    if (typeof customerId !== "string" || !findOrganization(this.ctx.readModels, customerId)) {
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, {
        customerId,
      });
    }
    if (customerId !== principal.customerId) {
      throw new AppError("CUSTOMER_SCOPE_MISMATCH", "customerId names another organization than this key's.", {
        customerId,
      });
    }
    return customerId;
  }

  /** The organization, naming its resolved plan (after the period's monthly grant, as every plan-dependent read). */
  async org(customerId: string) {
    const { plan, monthlyCredits } = await this.ctx.plans.entitle(customerId);
    const org = findOrganization(this.ctx.readModels, customerId)!;
    return {
      customerId: org.customerId,
      orgCode: org.orgCode,
      email: org.email,
      plan: plan.code,
      planName: plan.name,
      monthlyCredits,
      createdAt: org.createdAt,
    };
  }

  /** The organization's keys; with `mintedBy`, only those that person minted. */
  keys(customerId: string, mintedBy?: string) {
    const keys = listKeys(this.ctx.readModels, customerId).filter(
      (k) => mintedBy === undefined || k.personId === mintedBy,
    );
    const lastUsed = this.ctx.keyUsage.lastUsed(keys.map((k) => k.keyId));
    return keys.map((k) => ({ ...this.keyView(k), lastUsedAt: lastUsed.get(k.keyId) ?? null }));
  }

  /**
   * The keys a session sees: an admin the organization's, a member only those they minted. `customerId`, when
   * named, must be the session's organization, as for a key.
   */
  keysOf(session: SessionPrincipal, customerId: unknown) {
    return this.keys(
      this.resolveCustomer(session, customerId),
      session.role === "admin" ? undefined : session.personId,
    );
  }

  private keyView(k: KeyRecord) {
    return {
      keyId: k.keyId,
      name: k.name,
      displayPrefix: k.displayPrefix,
      scopes: k.scopes as Scope[],
      createdAt: k.createdAt,
      rotatedAt: k.rotatedAt,
      revokedAt: k.revokedAt,
      status: k.revokedAt ? ("revoked" as const) : ("active" as const),
    };
  }

  /** The balance and ledger after the period's monthly grant, with the resolved plan and its monthly credits. */
  async credits(customerId: string, limit = 20) {
    const { plan, monthlyCredits } = await this.ctx.plans.entitle(customerId);
    const { balance } = creditState(this.ctx.readModels, customerId);
    return {
      customerId,
      balance,
      plan: plan.code,
      planName: plan.name,
      monthlyGrant: monthlyCredits,
      ledger: recentLedger(this.ctx.readModels, customerId, limit).map((e) => ({
        position: e.position,
        type: e.kind,
        amount: e.amount,
        ...(e.jobId ? { jobId: e.jobId } : {}),
        ...(e.reason ? { reason: e.reason } : {}),
        balanceAfter: e.balanceAfter,
        recordedAt: e.recordedAt,
      })),
    };
  }
}
