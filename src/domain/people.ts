import { AppError } from "../errors/app-error";
import type { NewEvent, StreamWrite } from "../store/event-log";
import type { Static } from "@sinclair/typebox";
import type { Role as RoleSchema } from "../../events";
import { ALL_SCOPES, decideOpenAccount, streams, type OpenAccount, type Scope } from "./accounts";

/**
 * People, their memberships and their sessions: a person is an email with memberships in organizations, each
 * with a role. Sign-in is by a single-use link or through an OpenID provider; it starts a session in one of the
 * person's organizations.
 */

export type Role = Static<typeof RoleSchema>;

/**
 * The scopes a role may put on the keys it mints: an admin any; a member those of everyday work, which today
 * are all of them (wiring a team's CI to webhooks is everyday work). A scope that manages the organization
 * (its members, its plan) would be admin-only.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: ALL_SCOPES,
  member: ["jobs:read", "jobs:write", "feedback:write", "account:read", "webhooks:write"],
};

/** Whether an email may sign in: any when no domains are listed, else only addresses at a listed domain. */
export function signInAllowed(email: string, domains: readonly string[]): boolean {
  return domains.length === 0 || domains.includes(email.slice(email.lastIndexOf("@") + 1).toLowerCase());
}

export const refuseDomain = (email: string) =>
  new AppError("UNAUTHORIZED_DOMAIN", "Sign-in and signup are restricted to invited email domains.", {
    domain: email.slice(email.lastIndexOf("@") + 1),
  });

/** Decides issuing a sign-in link for an email: refused, with nothing recorded, outside the invited domains. */
export function decideIssueLink(
  link: { linkId: string; email: string; tokenHash: string; expiresAt: string },
  domains: readonly string[],
): StreamWrite[] {
  if (!signInAllowed(link.email, domains)) throw refuseDomain(link.email);
  return [
    {
      streamId: streams.signInLink(link.linkId),
      expectedVersion: 0,
      events: [{ type: "SignInLinkIssued", data: link }],
    },
  ];
}

/** Signing in as an email already proven: by a used link, or by an OpenID provider's verified email. */
export interface SignInAs {
  email: string;
  domains: readonly string[];
  emailHash: string;
  /** The person with this email, if one signed in before, and their memberships. */
  person: { personId: string; memberships: { customerId: string }[] } | null;
  newPersonId: string;
  /** The organization whose signup email this is: signing in with it claims the organization. */
  claimedBy: string | null;
  /** The free account a first sign-in opens when the email has no organization at all (no key: the person mints them). */
  newAccount: Omit<OpenAccount, "email" | "emailHash" | "key">;
  session: { sessionId: string; secretHash: string; expiresAt: string; endsBy: string };
}

export interface SignIn extends Omit<SignInAs, "email"> {
  now: string;
  /** The link the token named, as the log knows it (null: no such link). */
  link: { linkId: string; email: string; expiresAt: string; usedAt: string | null } | null;
}

/**
 * Decides a sign-in by link: the link is used (once, before it expires), the person is registered on first
 * sign-in, the email's organization is claimed (the person becomes its admin) or, for an email with none, a
 * free organization is opened with the person as admin; then a session starts in that organization, or in the
 * person's first one.
 */
export function decideSignIn(cmd: SignIn): StreamWrite[] {
  const { link } = cmd;
  if (!link) throw new AppError("SIGNIN_LINK_INVALID", "This sign-in link is not known.", { reason: "unknown" });
  if (link.usedAt) throw new AppError("SIGNIN_LINK_INVALID", "This sign-in link was used already.", { reason: "used" });
  if (link.expiresAt <= cmd.now)
    throw new AppError("SIGNIN_LINK_INVALID", "This sign-in link has expired.", { reason: "expired" });
  return [
    {
      streamId: streams.signInLink(link.linkId),
      expectedVersion: 1,
      events: [{ type: "SignInLinkUsed", data: { linkId: link.linkId } }],
    },
    ...decideSignInAs({ ...cmd, email: link.email }),
  ];
}

/**
 * Decides a sign-in with a proven email, whatever proved it: refused outside the invited domains, else as
 * described for a link above.
 */
export function decideSignInAs(cmd: SignInAs): StreamWrite[] {
  const { email } = cmd;
  if (!signInAllowed(email, cmd.domains)) throw refuseDomain(email);
  const writes: StreamWrite[] = [];
  const personId = cmd.person?.personId ?? cmd.newPersonId;
  if (!cmd.person) {
    writes.push({
      streamId: streams.person(cmd.emailHash),
      expectedVersion: 0,
      events: [{ type: "PersonRegistered", data: { personId, email, emailHash: cmd.emailHash } }],
    });
  }
  const memberships = cmd.person?.memberships ?? [];
  const admin = (customerId: string): NewEvent => ({
    type: "MemberAdded",
    data: { customerId, personId, role: "admin" },
  });
  let customerId: string;
  if (cmd.claimedBy) {
    customerId = cmd.claimedBy;
    if (!memberships.some((m) => m.customerId === customerId)) {
      writes.push({ streamId: streams.account(customerId), expectedVersion: "any", events: [admin(customerId)] });
    }
  } else if (memberships.length > 0) {
    customerId = memberships[0]!.customerId;
  } else {
    customerId = cmd.newAccount.customerId;
    const opened = decideOpenAccount({ ...cmd.newAccount, email, emailHash: cmd.emailHash }, false);
    for (const w of opened) if (w.streamId === streams.account(customerId)) w.events.push(admin(customerId));
    writes.push(...opened);
  }
  writes.push({
    streamId: streams.session(cmd.session.sessionId),
    expectedVersion: 0,
    events: [{ type: "SessionStarted", data: { ...cmd.session, personId, customerId } }],
  });
  return writes;
}

/** Decides moving a session's idle end forward (never past its absolute end). */
export function decideRenewSession(sessionId: string, expiresAt: string): StreamWrite[] {
  return [
    {
      streamId: streams.session(sessionId),
      expectedVersion: "any",
      events: [{ type: "SessionRenewed", data: { sessionId, expiresAt } }],
    },
  ];
}

/** Decides switching a session's organization: only to one of the person's; any other is the same 404 as a missing one. */
export function decideSwitchOrganization(sessionId: string, customerId: string, isMember: boolean): StreamWrite[] {
  if (!isMember)
    throw new AppError("CUSTOMER_NOT_FOUND", `No organization has customerId ${JSON.stringify(customerId)}.`, {
      customerId,
    });
  return [
    {
      streamId: streams.session(sessionId),
      expectedVersion: "any",
      events: [{ type: "SessionOrganizationSwitched", data: { sessionId, customerId } }],
    },
  ];
}

export function decideSignOut(sessionId: string): StreamWrite[] {
  return [
    {
      streamId: streams.session(sessionId),
      expectedVersion: "any",
      events: [{ type: "SessionEnded", data: { sessionId, reason: "signout" } }],
    },
  ];
}

/** Managing the organization's members is for admins: a member gets ADMIN_REQUIRED. */
export function requireAdmin(role: Role, action: string): void {
  if (role !== "admin") throw new AppError("ADMIN_REQUIRED", `Only an admin may ${action}.`, { role });
}

/** Minting from a session: never a scope beyond the role's. */
export function requireScopesOfRole(role: Role, scopes: readonly Scope[]): void {
  const beyond = scopes.filter((s) => !ROLE_SCOPES[role].includes(s));
  if (beyond.length) {
    throw new AppError("INSUFFICIENT_SCOPE", `A ${role} may not mint a key with ${beyond.join(", ")}.`, {
      refusedScopes: beyond,
      allowedScopes: ROLE_SCOPES[role],
    });
  }
}

/** Rotating or revoking a key from a session: an admin any of the organization's keys, a member only the keys they minted. */
export function requireKeyAuthority(
  actor: { role: Role; personId: string },
  key: { keyId: string; personId: string | null },
): void {
  if (actor.role !== "admin" && key.personId !== actor.personId) {
    throw new AppError(
      "ADMIN_REQUIRED",
      "Only an admin may rotate or revoke a key another person minted, or the organization's own keys.",
      { keyId: key.keyId },
    );
  }
}
