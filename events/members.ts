import { Type } from "@sinclair/typebox";
import { eventType, Id, Instant, Sha256Hex as Hash } from "./shared";
import { Role } from "./people";

/**
 * Stream `invitation-<invitationId>`: an admin invites an email into an organization with a role. The link's
 * token is never stored, only its SHA-256; the invitation works once, before `expiresAt`.
 */
export const MemberInvited = eventType(
  "MemberInvited",
  Type.Object(
    { invitationId: Id, customerId: Id, email: Type.String(), role: Role, tokenHash: Hash, expiresAt: Instant },
    { additionalProperties: false },
  ),
);
export const InvitationAccepted = eventType(
  "InvitationAccepted",
  Type.Object({ invitationId: Id, customerId: Id, personId: Id }, { additionalProperties: false }),
);

/** Stream `account-<customerId>`: a member's role changes. */
export const MemberRoleChanged = eventType(
  "MemberRoleChanged",
  Type.Object({ customerId: Id, personId: Id, role: Role }, { additionalProperties: false }),
);

/** Stream `account-<customerId>`: a member is removed by an admin, or leaves. */
export const MemberRemoved = eventType(
  "MemberRemoved",
  Type.Object(
    { customerId: Id, personId: Id, reason: Type.Union([Type.Literal("removed"), Type.Literal("left")]) },
    { additionalProperties: false },
  ),
);

export const memberEvents = [MemberInvited, InvitationAccepted, MemberRoleChanged, MemberRemoved] as const;
