import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import type { Config } from "../config";
import type { WindowCounter } from "../store/coordinator";
import { addressGroup, WindowedLimit } from "./limits";

/**
 * One windowed limit per client address (an IPv4 address, or an IPv6 /64), refused with its catalogued 429 whose
 * details say when to come back (the HTTP surface copies retryAfterSeconds into Retry-After). Without a known
 * address (a call that did not come over HTTP) nothing is counted.
 */
export class AddressLimit {
  private readonly limit: WindowedLimit;

  constructor(
    name: string,
    points: number,
    windowSeconds: number,
    counter: WindowCounter | undefined,
    private readonly code: ErrorCode,
    private readonly message: (retryAfterSeconds: number) => string,
  ) {
    this.limit = new WindowedLimit(points, windowSeconds, { name, counter });
  }

  private refusal = (retryAfterSeconds: number) =>
    new AppError(this.code, this.message(retryAfterSeconds), {
      retryAfterSeconds,
      limit: this.limit.points,
      windowSeconds: this.limit.windowSeconds,
    });

  /** Counts one attempt from the address, or throws the refusal (which counts nothing). */
  async spend(address: string | undefined): Promise<void> {
    if (address) await this.limit.spend(addressGroup(address), this.refusal);
  }

  /** Throws the refusal when the address has nothing left, counting nothing. */
  async check(address: string | undefined): Promise<void> {
    if (address) await this.limit.check(addressGroup(address), this.refusal);
  }

  async giveBack(address: string | undefined): Promise<void> {
    if (address) await this.limit.giveBack(addressGroup(address));
  }
}

/**
 * Every per-address limit on what a caller without a credential may append to the log (the playground appends
 * nothing and keeps its own). Built once per process, so every service counts against the same budgets; where
 * nodes share a PostgreSQL log, the counts are kept there, once for all nodes.
 */
export class AddressLimits {
  /**
   * Organizations opened, whichever way: POST /api/signup and create_account, and a first sign-in (by link or
   * OpenID) of an email with no organization. Each opens with free credits: one budget, or each way is a faucet.
   */
  readonly newOrganizations: AddressLimit;
  /** Sign-in links asked for, whatever the recipients (the recipient's own limit is SessionService's). */
  readonly signinLinks: AddressLimit;
  /** Sessions started without a credential: a sign-in link used, an OpenID sign-in, an invitation link opened. */
  readonly signIns: AddressLimit;
  /** Device authorizations (RFC 8628) started: each is a DeviceCodeIssued event. */
  readonly deviceCodes: AddressLimit;

  constructor(
    config: Pick<
      Config,
      | "signupsPerAddress"
      | "signupWindowSeconds"
      | "signinLinksPerClient"
      | "signinLinkTtlSeconds"
      | "signinsPerClient"
      | "signinWindowSeconds"
      | "deviceCodesPerAddress"
      | "deviceCodeTtlSeconds"
    >,
    counter?: WindowCounter,
  ) {
    this.newOrganizations = new AddressLimit(
      "signups-per-address",
      config.signupsPerAddress,
      config.signupWindowSeconds,
      counter,
      "SIGNUP_RATE_LIMITED",
      (s) => `Too many organizations opened from this address; try again in ${s} s, or sign in to an account you have.`,
    );
    this.signinLinks = new AddressLimit(
      "signin-links-per-client",
      config.signinLinksPerClient,
      config.signinLinkTtlSeconds,
      counter,
      "SIGNIN_RATE_LIMITED",
      (s) =>
        `Too many sign-in links asked for from this client address; ask again in ${s} s, or use a link already sent.`,
    );
    this.signIns = new AddressLimit(
      "signins-per-client",
      config.signinsPerClient,
      config.signinWindowSeconds,
      counter,
      "SESSION_START_RATE_LIMITED",
      (s) =>
        `Too many sign-ins from this address; try again in ${s} s. Nothing was started: a sign-in or invitation link still works until it expires.`,
    );
    this.deviceCodes = new AddressLimit(
      "device-codes-per-address",
      config.deviceCodesPerAddress,
      config.deviceCodeTtlSeconds,
      counter,
      "DEVICE_CODE_RATE_LIMITED",
      (s) => `Too many device sign-ins started from this address; try again in ${s} s, or finish one already started.`,
    );
  }
}

/** Spends one of each limit for the address, in order; a refusal gives back what the earlier ones took, so it counts nowhere. */
export async function spendEach(address: string | undefined, limits: readonly AddressLimit[]): Promise<void> {
  const spent: AddressLimit[] = [];
  try {
    for (const limit of limits) {
      await limit.spend(address);
      spent.push(limit);
    }
  } catch (e) {
    for (const limit of spent) await limit.giveBack(address);
    throw e;
  }
}
