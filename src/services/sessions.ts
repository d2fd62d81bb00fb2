import { timingSafeEqual } from "node:crypto";
import { AppError } from "../errors/app-error";
import { emailHashOf, normaliseEmail, streams } from "../domain/accounts";
import {
  decideIssueLink,
  decideRenewSession,
  decideSignIn,
  decideSignInAs,
  decideSignOut,
  decideSwitchOrganization,
  type Role,
  type SignInAs,
} from "../domain/people";
import type { StreamWrite } from "../store/event-log";
import { grantClock } from "../config";
import { periodOf } from "../domain/credits";
import { findPerson, findPersonByEmailHash, membershipsOf } from "../../projections/people";
import { findSessionBySecretHash, findSignInLink } from "../../projections/sessions";
import { sha256Hex } from "../store/canonical";
import { newCustomerId, newOrgCode, newPersonId, newSecretToken, newSessionId, newSignInLinkId } from "./ids";
import { WindowedLimit } from "./limits";
import { spendEach } from "./address-limits";
import type { Mailer } from "./mailer";
import type { RequestMeta, ServiceContext } from "./context";

/** Who a session is: the person, the organization it acts for now, and the person's role there. */
export interface SessionPrincipal {
  sessionId: string;
  personId: string;
  email: string;
  customerId: string;
  role: Role;
  expiresAt: string;
  /** The token every state-changing request of this session must carry (derived from the cookie's secret, never stored). */
  csrfToken: string;
}

/** A session's idle end moves forward on use, but at most once an hour (or half the idle time): one event, not one per request. */
const RENEW_EVERY_SECONDS = 3600;

const iso = (ms: number) => new Date(ms).toISOString();
const csrfTokenOf = (secret: string) => sha256Hex(`csrf\n${secret}`);

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Sign-in by email link (or with an email an OpenID provider verified), and the sessions it starts.
 *
 * A first sign-in of an email with no organization opens one (with the signup grant), so it spends the client
 * address's budget for new organizations, the one POST /api/signup spends. The address that asks for a link is
 * known when it asks, but the organization opens when the link is used, possibly from another address: the
 * budget is spent by the address that uses the link (the request that appends AccountOpened), and asking for a
 * link that would open an organization is refused while the asking address has no budget left, so a loop cannot
 * use links to mail any number of new addresses either. That refusal tells an address past its budget that the
 * email has no organization, which POST /api/signup's ACCOUNT_EXISTS tells anyone already.
 */
export class SessionService {
  /** Links sent per recipient within one link lifetime. */
  private readonly linksPerRecipient: WindowedLimit;

  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "plans" | "sharedCounts" | "limits">,
    private readonly mailer: Mailer,
  ) {
    this.linksPerRecipient = new WindowedLimit(ctx.config.signinLinksPerAddress, ctx.config.signinLinkTtlSeconds, {
      name: "signin-links-per-address",
      counter: ctx.sharedCounts,
    });
  }

  /**
   * Sends a single-use sign-in link. Says nothing of whether the email has an account: the same answer either
   * way (but see above for an address past its budget of new organizations). Outside the invited domains it is
   * refused and nothing is recorded or sent. Counted per client address and per recipient.
   */
  async requestLink(
    rawEmail: unknown,
    next: string | undefined,
    meta: RequestMeta,
    clientAddress?: string,
  ): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const token = newSecretToken();
    const { config, limits } = this.ctx;
    const expiresAt = iso(Date.now() + config.signinLinkTtlSeconds * 1000);
    const writes = decideIssueLink(
      { linkId: newSignInLinkId(), email, tokenHash: sha256Hex(token), expiresAt },
      config.signinDomains,
    );
    // Checked before anything is counted: a refused link counts against neither limit.
    if (this.opensOrganization(email)) await limits.newOrganizations.check(clientAddress);
    await limits.signinLinks.spend(clientAddress);
    try {
      await this.spendLink(email);
    } catch (e) {
      await limits.signinLinks.giveBack(clientAddress);
      throw e;
    }
    await this.ctx.log.append(writes, meta);
    const link = new URL(`${config.publicBaseUrl}/api/session/callback`);
    link.searchParams.set("token", token);
    if (next) link.searchParams.set("next", next);
    await this.mailer.send({
      to: email,
      subject: "Your Assay sign-in link",
      text: `Sign in to Assay by opening this link within ${Math.round(config.signinLinkTtlSeconds / 60)} minutes. It works once.\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
    });
  }

  /** Counts one more link for the recipient, refusing it past the limit (a mailbox is not to be flooded). */
  private spendLink(email: string): Promise<void> {
    return this.linksPerRecipient.spend(
      emailHashOf(email),
      (retryAfterSeconds) =>
        new AppError(
          "SIGNIN_RATE_LIMITED",
          `Too many sign-in links for this email; ask again in ${retryAfterSeconds} s, or use a link already sent.`,
          {
            retryAfterSeconds,
            limit: this.linksPerRecipient.points,
            windowSeconds: this.linksPerRecipient.windowSeconds,
          },
        ),
    );
  }

  /** Whether signing in with this email would open an organization: it has none, and no organization's signup email is it. */
  private opensOrganization(email: string): boolean {
    const emailHash = emailHashOf(email);
    const claimed = this.ctx.log.streamVersion(streams.email(emailHash)) > 0;
    return !claimed && !findPersonByEmailHash(this.ctx.readModels, emailHash)?.memberships.length;
  }

  /** Uses a sign-in link and starts a fresh session; returns the cookie's secret, shown only here. */
  signIn(
    token: string,
    meta: RequestMeta,
    clientAddress?: string,
  ): Promise<{ secret: string; session: SessionPrincipal }> {
    const link = findSignInLink(this.ctx.readModels, sha256Hex(token));
    return this.startSession(
      link?.email ?? null,
      (cmd, now) => decideSignIn({ ...cmd, now, link }),
      meta,
      clientAddress,
    );
  }

  /** Signs in with an email another party verified (an OpenID provider) and starts a fresh session, as a link would. */
  signInAs(
    email: string,
    meta: RequestMeta,
    clientAddress?: string,
  ): Promise<{ secret: string; session: SessionPrincipal }> {
    return this.startSession(email, (cmd) => decideSignInAs({ ...cmd, email }), meta, clientAddress);
  }

  /**
   * Gathers what the log knows of the email (none when no link was found), lets `decide` judge, and starts the
   * session: one sign-in for the client address, and one new organization when the sign-in opens one.
   */
  private async startSession(
    email: string | null,
    decide: (cmd: Omit<SignInAs, "email">, now: string) => StreamWrite[],
    meta: RequestMeta,
    clientAddress: string | undefined,
  ) {
    const { config, log, readModels, limits } = this.ctx;
    const now = Date.now();
    const emailHash = email ? emailHashOf(email) : "";
    const person = email ? findPersonByEmailHash(readModels, emailHash) : null;
    const claim = email ? log.readStream(streams.email(emailHash)).find((e) => e.type === "EmailClaimed") : undefined;
    const { secret, session } = this.freshSession(now);
    const writes = decide(
      {
        domains: config.signinDomains,
        emailHash,
        person,
        newPersonId: newPersonId(),
        claimedBy: claim?.type === "EmailClaimed" ? claim.data.customerId : null,
        newAccount: {
          customerId: newCustomerId(),
          orgCode: newOrgCode(),
          signupCredits: config.signupCredits,
          monthlyGrant: config.monthlyFreeCredits,
          period: periodOf(grantClock(config)),
        },
        session,
      },
      iso(now),
    );
    const opened = writes.flatMap((w) => w.events).find((e) => e.type === "AccountOpened");
    await spendEach(clientAddress, opened ? [limits.signIns, limits.newOrganizations] : [limits.signIns]);
    await log.append(writes, meta);
    // A first sign-in opened an organization: set it up with a remote billing provider too (failures are logged; see provisionOpened).
    if (opened?.type === "AccountOpened") void this.ctx.plans.provisionOpened(opened.data.customerId);
    return { secret, session: this.authenticate(secret) };
  }

  /** A new session's cookie secret (shown once) and what SessionStarted records of it: a fresh id, never a reused one. */
  freshSession(now: number) {
    const secret = newSecretToken();
    const endsBy = now + this.ctx.config.sessionMaxSeconds * 1000;
    const expiresAt = iso(Math.min(now + this.ctx.config.sessionIdleSeconds * 1000, endsBy));
    return {
      secret,
      session: { sessionId: newSessionId(), secretHash: sha256Hex(secret), expiresAt, endsBy: iso(endsBy) },
    };
  }

  /**
   * The live session a cookie's secret names, renewed when due. Any problem is AUTH_REQUIRED, without saying
   * which. `csrfToken` is checked when given (state-changing calls pass what the request carried, or null).
   */
  authenticate(secret: string | null | undefined, csrf?: { token: string | null }): SessionPrincipal {
    const { config, log, readModels } = this.ctx;
    const record = secret ? findSessionBySecretHash(readModels, sha256Hex(secret)) : null;
    const now = Date.now();
    if (!record || record.endedAt || record.expiresAt <= iso(now) || record.endsBy <= iso(now)) {
      throw new AppError("AUTH_REQUIRED", "Sign in first: this needs a signed-in session.", { requires: "session" });
    }
    const csrfToken = csrfTokenOf(secret!);
    if (csrf && !(csrf.token && sameToken(csrf.token, csrfToken))) {
      throw new AppError(
        "CSRF_TOKEN_INVALID",
        "Send the session's csrfToken in the X-CSRF-Token header (or a _csrf form field).",
        {
          reason: csrf.token ? "mismatch" : "missing",
        },
      );
    }
    const membership = membershipsOf(readModels, record.personId).find((m) => m.customerId === record.customerId);
    if (!membership)
      throw new AppError("AUTH_REQUIRED", "Sign in again: this session's organization is no longer yours.", {
        requires: "session",
      });
    let expiresAt = record.expiresAt;
    const renewEvery = Math.min(RENEW_EVERY_SECONDS, config.sessionIdleSeconds / 2) * 1000;
    if (now - Date.parse(record.renewedAt) >= renewEvery) {
      expiresAt = iso(Math.min(now + config.sessionIdleSeconds * 1000, Date.parse(record.endsBy)));
      // Not awaited: the request goes on with the session it has; the renewal only moves the expiry on.
      log
        .append(decideRenewSession(record.sessionId, expiresAt), {
          actor: { kind: "session", id: record.personId },
          channel: "system",
        })
        .catch((e: Error) => console.error(`session ${record.sessionId} could not be renewed: ${e.message}`));
    }
    const email = findPerson(readModels, record.personId)!.email;
    return {
      sessionId: record.sessionId,
      personId: record.personId,
      email,
      customerId: record.customerId,
      role: membership.role,
      expiresAt,
      csrfToken,
    };
  }

  /** What GET /api/session answers. */
  describe(session: SessionPrincipal) {
    return {
      email: session.email,
      personId: session.personId,
      customerId: session.customerId,
      role: session.role,
      organizations: membershipsOf(this.ctx.readModels, session.personId),
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
    };
  }

  async switchOrganization(session: SessionPrincipal, customerId: string, meta: RequestMeta) {
    const member = membershipsOf(this.ctx.readModels, session.personId).find((m) => m.customerId === customerId);
    await this.ctx.log.append(decideSwitchOrganization(session.sessionId, customerId, !!member), meta);
    return this.describe({ ...session, customerId, role: member!.role });
  }

  async signOut(session: SessionPrincipal, meta: RequestMeta): Promise<void> {
    await this.ctx.log.append(decideSignOut(session.sessionId), meta);
  }
}
