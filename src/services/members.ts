import { emailHashOf, normaliseEmail, streams } from "../domain/accounts";
import {
  decideAcceptInvitation,
  decideAddMember,
  decideChangeRole,
  decideInvite,
  decideRemoveMember,
  type MemberChange,
} from "../domain/members";
import { decideSignOut, decideSwitchOrganization, type Role } from "../domain/people";
import { findPersonByEmailHash, membersOf, membershipsOf } from "../../projections/people";
import { findInvitationByTokenHash, pendingInvitations, type InvitationRecord } from "../../projections/invitations";
import { activeKeyIdsMintedBy } from "../../projections/keys";
import { sha256Hex } from "../store/canonical";
import { newInvitationId, newPersonId, newSecretToken } from "./ids";
import type { Mailer } from "./mailer";
import type { RequestMeta, ServiceContext } from "./context";
import type { SessionPrincipal, SessionService } from "./sessions";

const iso = (ms: number) => new Date(ms).toISOString();

const invitationView = ({ acceptedAt: _, ...invitation }: InvitationRecord) => invitation;

/** An organization's members: invitations by email, roles, removal and leaving. */
export class MembersService {
  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "limits">,
    private readonly mailer: Mailer,
    private readonly sessions: SessionService,
  ) {}

  /** Adds a person to the session's organization by email (admin only); they sign in with that email as usual. */
  async addMember(session: SessionPrincipal, rawEmail: unknown, role: Role, meta: RequestMeta) {
    const email = normaliseEmail(rawEmail);
    const emailHash = emailHashOf(email);
    const person = findPersonByEmailHash(this.ctx.readModels, emailHash);
    const { writes, personId } = decideAddMember({
      customerId: session.customerId,
      email,
      emailHash,
      role,
      actorRole: session.role,
      domains: this.ctx.config.signinDomains,
      person,
      newPersonId: newPersonId(),
    });
    if (writes.length) await this.ctx.log.append(writes, meta);
    return this.memberView(session.customerId, personId);
  }

  /** Invites an email (admin only): a single-use link by mail, as a sign-in link is sent. */
  async invite(session: SessionPrincipal, rawEmail: unknown, role: Role, meta: RequestMeta) {
    const email = normaliseEmail(rawEmail);
    const token = newSecretToken();
    const { config, log, readModels } = this.ctx;
    const invitationId = newInvitationId();
    const expiresAt = iso(Date.now() + config.invitationTtlSeconds * 1000);
    const invitation = {
      invitationId,
      customerId: session.customerId,
      email,
      role,
      tokenHash: sha256Hex(token),
      expiresAt,
    };
    await log.append(decideInvite(invitation, session.role, config.signinDomains), meta);
    const link = new URL(`${config.publicBaseUrl}/api/invitations/callback`);
    link.searchParams.set("token", token);
    const org = membershipsOf(readModels, session.personId).find((m) => m.customerId === session.customerId)!;
    await this.mailer.send({
      to: email,
      subject: "You are invited to an Assay organization",
      text: `${session.email} invites you to the Assay organization ${org.orgCode} as ${role}. Open this link before ${expiresAt} to join; it signs you in with this email and works once.\n\n${link}\n\nIf you did not expect it, ignore this message.`,
    });
    return invitationView(findInvitationByTokenHash(readModels, invitation.tokenHash)!);
  }

  /**
   * Uses an invitation: joins the person with its email, and, with no signed-in person, starts their session,
   * which counts as a sign-in from the client's address.
   */
  private async accept(token: string, signedIn: SessionPrincipal | null, meta: RequestMeta, clientAddress?: string) {
    const { config, log, readModels } = this.ctx;
    const now = Date.now();
    const invitation = findInvitationByTokenHash(readModels, sha256Hex(token));
    const emailHash = invitation ? emailHashOf(invitation.email) : "";
    const fresh = signedIn ? null : this.sessions.freshSession(now);
    const { writes, personId } = decideAcceptInvitation({
      now: iso(now),
      invitation,
      domains: config.signinDomains,
      emailHash,
      person: invitation ? findPersonByEmailHash(readModels, emailHash) : null,
      newPersonId: newPersonId(),
      signedInEmail: signedIn?.email ?? null,
      session: fresh?.session ?? null,
    });
    if (fresh) await this.ctx.limits.signIns.spend(clientAddress);
    await log.append(writes, meta);
    return { customerId: invitation!.customerId, personId, secret: fresh?.secret ?? null };
  }

  /** Signing in through an invitation link: a fresh session for the invited email, acting for the inviting organization. */
  async signInThrough(token: string, meta: RequestMeta, clientAddress?: string): Promise<{ secret: string }> {
    return { secret: (await this.accept(token, null, meta, clientAddress)).secret! };
  }

  /** Accepting an invitation in a session: only one for the signed-in person's own email. */
  async acceptSignedIn(session: SessionPrincipal, token: string, meta: RequestMeta) {
    const { customerId, personId } = await this.accept(token, session, meta);
    return this.memberView(customerId, personId);
  }

  /** The session's organization: its members and its pending invitations (any member may read them). */
  list(session: SessionPrincipal) {
    const db = this.ctx.readModels;
    return {
      customerId: session.customerId,
      members: membersOf(db, session.customerId),
      invitations: pendingInvitations(db, session.customerId, iso(Date.now())).map(invitationView),
    };
  }

  async changeRole(session: SessionPrincipal, personId: string, role: Role, meta: RequestMeta) {
    const writes = decideChangeRole(this.change(session.customerId, personId), role, session.role);
    if (writes.length) await this.ctx.log.append(writes, meta);
    return this.memberView(session.customerId, personId);
  }

  /** Removes a member (admin only); the keys they minted for the organization are revoked with them. */
  async remove(session: SessionPrincipal, personId: string, meta: RequestMeta) {
    const { customerId } = session;
    const revokedKeyIds = activeKeyIdsMintedBy(this.ctx.readModels, customerId, personId);
    await this.ctx.log.append(
      decideRemoveMember(
        this.change(customerId, personId),
        { reason: "removed", actorRole: session.role },
        revokedKeyIds,
      ),
      meta,
    );
    return { customerId, personId, revokedKeyIds };
  }

  /**
   * Leaves the session's organization, revoking the keys minted for it; the session moves to the person's next
   * organization, or ends when none is left.
   */
  async leave(session: SessionPrincipal, meta: RequestMeta) {
    const { customerId, personId, sessionId } = session;
    const db = this.ctx.readModels;
    const revokedKeyIds = activeKeyIdsMintedBy(db, customerId, personId);
    const next = membershipsOf(db, personId).find((m) => m.customerId !== customerId);
    await this.ctx.log.append(
      [
        ...decideRemoveMember(this.change(customerId, personId), { reason: "left" }, revokedKeyIds),
        ...(next ? decideSwitchOrganization(sessionId, next.customerId, true) : decideSignOut(sessionId)),
      ],
      meta,
    );
    return {
      customerId,
      revokedKeyIds,
      session: next ? this.sessions.describe({ ...session, customerId: next.customerId, role: next.role }) : null,
    };
  }

  /** The organization's side of a change to one of its members, read once for the decider. */
  private change(customerId: string, personId: string): MemberChange {
    const db = this.ctx.readModels;
    const members = membersOf(db, customerId);
    return {
      customerId,
      personId,
      accountVersion: this.ctx.log.streamVersion(streams.account(customerId)),
      targetRole: members.find((m) => m.personId === personId)?.role ?? null,
      admins: members.filter((m) => m.role === "admin").length,
    };
  }

  private memberView(customerId: string, personId: string) {
    const member = membersOf(this.ctx.readModels, customerId).find((m) => m.personId === personId)!;
    return { customerId, personId, email: member.email, role: member.role };
  }
}
