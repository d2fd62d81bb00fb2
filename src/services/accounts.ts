import { AppError } from "../errors/app-error";
import { ALL_SCOPES, decideMintKey, decideOpenAccount, decideRevokeKey, normaliseEmail, streams, type MintedKey, type Scope } from "../domain/accounts";
import { findOrganization } from "../../projections/organizations";
import { findKeyById, findKeyBySecretHash, listKeys, type KeyRecord } from "../../projections/keys";
import { creditState, recentLedger } from "../../projections/credits";
import { sha256Hex } from "../store/canonical";
import { KEY_PREFIX, newApiKey, newCustomerId, newKeyId, newOrgCode } from "./ids";
import type { RequestMeta, ServiceContext } from "./context";

export interface Principal {
  key: KeyRecord;
  customerId: string;
}

/** A fresh secret and the key record the log keeps of it: its hash and a prefix, never the secret. */
function newKey(name: string, scopes: Scope[]): { apiKey: string; key: MintedKey } {
  const apiKey = newApiKey();
  return { apiKey, key: { keyId: newKeyId(), secretHash: sha256Hex(apiKey), displayPrefix: apiKey.slice(0, KEY_PREFIX.length + 4), name, scopes } };
}

export class AccountService {
  constructor(private readonly ctx: Pick<ServiceContext, "config" | "store">) {}

  /** Opens a free account: one key (returned only here, stored only as a hash) and the signup grant. */
  signup(rawEmail: unknown, meta: RequestMeta) {
    const email = normaliseEmail(rawEmail);
    const emailHash = sha256Hex(email.toLowerCase());
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
        key,
      },
      this.ctx.store.streamVersion(streams.email(emailHash)) > 0,
    );
    this.ctx.store.append(writes, meta);
    const org = findOrganization(this.ctx.store.db, customerId)!;
    return { apiKey, keyId: key.keyId, customerId, orgCode: org.orgCode, email };
  }

  /** Mints a key with chosen scopes; for the operator CLI (HTTP key minting needs a session). */
  mintKey(customerId: string, name: string, scopes: Scope[], meta: RequestMeta) {
    const { apiKey, key } = newKey(name, scopes);
    this.ctx.store.append(decideMintKey(customerId, key, findOrganization(this.ctx.store.db, customerId) !== null), meta);
    return { apiKey, keyId: key.keyId, customerId, scopes };
  }

  revokeKey(customerId: string, keyId: string, meta: RequestMeta) {
    const active = listKeys(this.ctx.store.db, customerId).some((k) => k.keyId === keyId && !k.revokedAt);
    this.ctx.store.append(decideRevokeKey(customerId, keyId, active), meta);
  }

  /** The organization a key belongs to, revoked or not; null for a key id this server never minted. */
  organizationOfKey(keyId: string): string | null {
    return findKeyById(this.ctx.store.db, keyId)?.customerId ?? null;
  }

  /** Resolves an Authorization header to a live key. Any problem is AUTH_REQUIRED, without saying which. */
  authenticate(authorization: string | null | undefined): Principal {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) {
      throw new AppError("AUTH_REQUIRED", "Send Authorization: Bearer <API_KEY>.", { reason: authorization ? "malformed" : "missing" });
    }
    const key = match[1]!.startsWith(KEY_PREFIX) ? findKeyBySecretHash(this.ctx.store.db, sha256Hex(match[1]!)) : null;
    if (!key || key.revokedAt) throw new AppError("AUTH_REQUIRED", "The API key is not valid.", { reason: "invalid" });
    return { key, customerId: key.customerId };
  }

  requireScope(principal: Principal, scope: Scope): void {
    if (!principal.key.scopes.includes(scope)) {
      throw new AppError("INSUFFICIENT_SCOPE", `This key lacks the ${scope} scope.`, { requiredScope: scope, keyScopes: principal.key.scopes });
    }
  }

  /**
   * The organization a request acts for. Existence is checked before ownership (CUSTOMER_NOT_FOUND
   * wins over CUSTOMER_SCOPE_MISMATCH); customer ids are unguessable, so this reveals nothing usable.
   */
  resolveCustomer(principal: Principal, customerId: unknown): string {
    if (customerId === undefined || customerId === null || customerId === "") return principal.customerId;
    if (typeof customerId !== "string" || !findOrganization(this.ctx.store.db, customerId)) {
      throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, { customerId });
    }
    if (customerId !== principal.customerId) {
      throw new AppError("CUSTOMER_SCOPE_MISMATCH", "customerId names another organization than this key's.", { customerId });
    }
    return customerId;
  }

  org(customerId: string) {
    const org = findOrganization(this.ctx.store.db, customerId)!;
    return { customerId: org.customerId, orgCode: org.orgCode, email: org.email, plan: org.plan, createdAt: org.createdAt };
  }

  keys(customerId: string) {
    return listKeys(this.ctx.store.db, customerId).map((k) => ({
      keyId: k.keyId,
      name: k.name,
      displayPrefix: k.displayPrefix,
      scopes: k.scopes,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt,
      status: k.revokedAt ? "revoked" : "active",
    }));
  }

  credits(customerId: string, limit = 20) {
    const org = findOrganization(this.ctx.store.db, customerId)!;
    const { balance } = creditState(this.ctx.store.db, customerId);
    return {
      customerId,
      balance,
      plan: org.plan,
      monthlyGrant: org.monthlyGrant,
      ledger: recentLedger(this.ctx.store.db, customerId, limit).map((e) => ({
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
