import { AppError } from "../errors/app-error";
import type { NewEvent, StreamWrite } from "../store/event-log";
import { streams } from "./accounts";
import { refuseDomain, requireAdmin, signInAllowed, type Role } from "./people";

/**
 * The members of an organization: invitations by email, role changes, removal and leaving. An organization
 * always keeps at least one admin. A member who goes loses the keys they minted for it: they are revoked.
 */

export interface AddMember {
  customerId: string;
  email: string;
  emailHash: string;
  role: Role;
  /** The role of the person adding; only an admin may. */
  actorRole: Role;
  domains: readonly string[];
  person: { personId: string; memberships: { customerId: string }[] } | null;
  newPersonId: string;
}

/**
 * Decides adding a person to an organization by email (admin only, within the invited domains): the person is
 * registered if new and signs in as usual with that email. Adding a member again changes nothing.
 */
export function decideAddMember(cmd: AddMember): { writes: StreamWrite[]; personId: string } {
  requireAdmin(cmd.actorRole, "add members");
  if (!signInAllowed(cmd.email, cmd.domains)) throw refuseDomain(cmd.email);
  const personId = cmd.person?.personId ?? cmd.newPersonId;
  if (cmd.person?.memberships.some((m) => m.customerId === cmd.customerId)) return { writes: [], personId };
  const writes: StreamWrite[] = cmd.person
    ? []
    : [
        {
          streamId: streams.person(cmd.emailHash),
          expectedVersion: 0,
          events: [{ type: "PersonRegistered", data: { personId, email: cmd.email, emailHash: cmd.emailHash } }],
        },
      ];
  writes.push({
    streamId: streams.account(cmd.customerId),
    expectedVersion: "any",
    events: [{ type: "MemberAdded", data: { customerId: cmd.customerId, personId, role: cmd.role } }],
  });
  return { writes, personId };
}

export interface Invitation {
  invitationId: string;
  customerId: string;
  email: string;
  role: Role;
  tokenHash: string;
  expiresAt: string;
}

/** Decides inviting an email (admin only, within the invited domains): a single-use link, kept only as a hash. */
export function decideInvite(invitation: Invitation, actorRole: Role, domains: readonly string[]): StreamWrite[] {
  requireAdmin(actorRole, "invite members");
  if (!signInAllowed(invitation.email, domains)) throw refuseDomain(invitation.email);
  return [
    {
      streamId: streams.invitation(invitation.invitationId),
      expectedVersion: 0,
      events: [{ type: "MemberInvited", data: invitation }],
    },
  ];
}

export interface AcceptInvitation {
  now: string;
  /** The invitation the token named, as the log knows it (null: no such invitation). */
  invitation: {
    invitationId: string;
    customerId: string;
    email: string;
    role: Role;
    expiresAt: string;
    acceptedAt: string | null;
  } | null;
  domains: readonly string[];
  emailHash: string;
  /** The person with the invited email, if known, and their memberships. */
  person: { personId: string; memberships: { customerId: string }[] } | null;
  newPersonId: string;
  /** Accepting in a session: the signed-in person's email, which must be the invited one. */
  signedInEmail: string | null;
  /** Signing in through the invitation: the session it starts, in the inviting organization. */
  session: { sessionId: string; secretHash: string; expiresAt: string; endsBy: string } | null;
}

/**
 * Decides accepting an invitation: it is used (once, before it expires, by its own email), the person is
 * registered if new and joins with the invited role (a member already keeps their role), and, when signing in
 * through it, a session starts in the inviting organization.
 */
export function decideAcceptInvitation(cmd: AcceptInvitation): { writes: StreamWrite[]; personId: string } {
  const { invitation } = cmd;
  if (!invitation) throw new AppError("INVITATION_INVALID", "This invitation is not known.", { reason: "unknown" });
  if (invitation.acceptedAt)
    throw new AppError("INVITATION_INVALID", "This invitation was used already.", { reason: "used" });
  if (invitation.expiresAt <= cmd.now)
    throw new AppError("INVITATION_INVALID", "This invitation has expired.", { reason: "expired" });
  if (cmd.signedInEmail !== null && cmd.signedInEmail !== invitation.email) {
    throw new AppError(
      "INVITATION_EMAIL_MISMATCH",
      "This invitation is for another email than the signed-in person's.",
      {},
    );
  }
  if (!signInAllowed(invitation.email, cmd.domains)) throw refuseDomain(invitation.email);

  const { customerId, invitationId } = invitation;
  const personId = cmd.person?.personId ?? cmd.newPersonId;
  const writes: StreamWrite[] = [
    {
      streamId: streams.invitation(invitationId),
      expectedVersion: 1,
      events: [{ type: "InvitationAccepted", data: { invitationId, customerId, personId } }],
    },
  ];
  if (!cmd.person) {
    writes.push({
      streamId: streams.person(cmd.emailHash),
      expectedVersion: 0,
      events: [{ type: "PersonRegistered", data: { personId, email: invitation.email, emailHash: cmd.emailHash } }],
    });
  }
  if (!cmd.person?.memberships.some((m) => m.customerId === customerId)) {
    writes.push({
      streamId: streams.account(customerId),
      expectedVersion: "any",
      events: [{ type: "MemberAdded", data: { customerId, personId, role: invitation.role } }],
    });
  }
  if (cmd.session) {
    writes.push({
      streamId: streams.session(cmd.session.sessionId),
      expectedVersion: 0,
      events: [{ type: "SessionStarted", data: { ...cmd.session, personId, customerId } }],
    });
  }
  return { writes, personId };
}

/** The organization's side of a change to one member: who they are there, and how many admins it has. */
export interface MemberChange {
  customerId: string;
  /** The account stream's version when read: a concurrent change to the members is a conflict, never a lost admin. */
  accountVersion: number;
  /** The member's role there; null when the person is not a member (another organization's, or no one). */
  targetRole: Role | null;
  personId: string;
  admins: number;
}

const notFound = (personId: string) =>
  new AppError("MEMBER_NOT_FOUND", `No member ${personId} in this organization.`, { personId });

function keepAnAdmin(change: MemberChange, action: string): void {
  if (change.targetRole === "admin" && change.admins <= 1) {
    throw new AppError(
      "LAST_ADMIN",
      `The organization's last admin cannot ${action}: make another member admin first.`,
      { personId: change.personId },
    );
  }
}

/** Decides changing a member's role (admin only); demoting the last admin is refused; the same role changes nothing. */
export function decideChangeRole(change: MemberChange, role: Role, actorRole: Role): StreamWrite[] {
  requireAdmin(actorRole, "change roles");
  if (!change.targetRole) throw notFound(change.personId);
  if (change.targetRole === role) return [];
  if (role !== "admin") keepAnAdmin(change, "be demoted");
  return [
    {
      streamId: streams.account(change.customerId),
      expectedVersion: change.accountVersion,
      events: [{ type: "MemberRoleChanged", data: { customerId: change.customerId, personId: change.personId, role } }],
    },
  ];
}

/**
 * Decides a member going: removed by an admin, or leaving. The last admin can do neither. The keys they minted
 * for the organization (`keyIds`, the active ones) are revoked with it: a person gone keeps no access.
 */
export function decideRemoveMember(
  change: MemberChange,
  how: { reason: "removed"; actorRole: Role } | { reason: "left" },
  keyIds: readonly string[],
): StreamWrite[] {
  if (how.reason === "removed") requireAdmin(how.actorRole, "remove members");
  if (!change.targetRole) throw notFound(change.personId);
  keepAnAdmin(change, how.reason === "left" ? "leave" : "be removed");
  const { customerId, personId } = change;
  const events: NewEvent[] = [
    { type: "MemberRemoved", data: { customerId, personId, reason: how.reason } },
    ...keyIds.map((keyId): NewEvent => ({ type: "KeyRevoked", data: { keyId, customerId } })),
  ];
  return [{ streamId: streams.account(customerId), expectedVersion: change.accountVersion, events }];
}
