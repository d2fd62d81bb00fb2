import type { ReadModels } from "./projection";
import type { Projection } from "./projection";

export const invitationsProjection: Projection = {
  name: "invitations",
  tables: ["invitations"],
  ddl: `CREATE TABLE IF NOT EXISTS invitations (
    invitation_id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    invited_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    accepted_at TEXT,
    accepted_by TEXT
  );
  CREATE INDEX IF NOT EXISTS invitations_customer ON invitations (customer_id)`,
  apply(db, e) {
    switch (e.type) {
      case "MemberInvited": {
        const d = e.data;
        db.query(
          "INSERT INTO invitations (invitation_id, token_hash, customer_id, email, role, invited_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        ).run(d.invitationId, d.tokenHash, d.customerId, d.email, d.role, e.recordedAt, d.expiresAt);
        break;
      }
      case "InvitationAccepted":
        db.query("UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE invitation_id = ?").run(
          e.recordedAt,
          e.data.personId,
          e.data.invitationId,
        );
        break;
    }
  },
};

export interface InvitationRecord {
  invitationId: string;
  customerId: string;
  email: string;
  role: "admin" | "member";
  invitedAt: string;
  expiresAt: string;
  acceptedAt: string | null;
}

const SELECT = `SELECT invitation_id AS invitationId, customer_id AS customerId, email, role, invited_at AS invitedAt, expires_at AS expiresAt,
  accepted_at AS acceptedAt FROM invitations`;

export function findInvitationByTokenHash(db: ReadModels, tokenHash: string): InvitationRecord | null {
  return db.query<InvitationRecord, [string]>(`${SELECT} WHERE token_hash = ?`).get(tokenHash);
}

/** An organization's invitations neither accepted nor expired at `now`, oldest first. */
export function pendingInvitations(db: ReadModels, customerId: string, now: string): InvitationRecord[] {
  return db
    .query<InvitationRecord, [string, string]>(
      `${SELECT} WHERE customer_id = ? AND accepted_at IS NULL AND expires_at > ? ORDER BY invited_at, invitation_id`,
    )
    .all(customerId, now);
}
