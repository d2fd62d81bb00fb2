import type { ReadModels } from "./projection";
import type { Projection } from "./projection";

export const sessionsProjection: Projection = {
  name: "sessions",
  tables: ["sessions", "signin_links"],
  ddl: `CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY,
    secret_hash TEXT NOT NULL UNIQUE,
    person_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    started_at TEXT NOT NULL,
    renewed_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ends_by TEXT NOT NULL,
    ended_at TEXT
  );
  CREATE TABLE IF NOT EXISTS signin_links (
    link_id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )`,
  apply(db, e) {
    switch (e.type) {
      case "SignInLinkIssued":
        db.query("INSERT INTO signin_links (link_id, token_hash, email, expires_at) VALUES (?, ?, ?, ?)").run(
          e.data.linkId,
          e.data.tokenHash,
          e.data.email,
          e.data.expiresAt,
        );
        break;
      case "SignInLinkUsed":
        db.query("UPDATE signin_links SET used_at = ? WHERE link_id = ?").run(e.recordedAt, e.data.linkId);
        break;
      case "SessionStarted": {
        const d = e.data;
        db.query(
          "INSERT INTO sessions (session_id, secret_hash, person_id, customer_id, started_at, renewed_at, expires_at, ends_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(d.sessionId, d.secretHash, d.personId, d.customerId, e.recordedAt, e.recordedAt, d.expiresAt, d.endsBy);
        break;
      }
      case "SessionRenewed":
        db.query("UPDATE sessions SET renewed_at = ?, expires_at = ? WHERE session_id = ?").run(
          e.recordedAt,
          e.data.expiresAt,
          e.data.sessionId,
        );
        break;
      case "SessionOrganizationSwitched":
        db.query("UPDATE sessions SET customer_id = ? WHERE session_id = ?").run(e.data.customerId, e.data.sessionId);
        break;
      case "SessionEnded":
        db.query("UPDATE sessions SET ended_at = ? WHERE session_id = ?").run(e.recordedAt, e.data.sessionId);
        break;
    }
  },
};

export interface SignInLink {
  linkId: string;
  email: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface SessionRecord {
  sessionId: string;
  personId: string;
  customerId: string;
  renewedAt: string;
  expiresAt: string;
  endsBy: string;
  endedAt: string | null;
}

export function findSignInLink(db: ReadModels, tokenHash: string): SignInLink | null {
  return db
    .query<SignInLink, [string]>(
      "SELECT link_id AS linkId, email, expires_at AS expiresAt, used_at AS usedAt FROM signin_links WHERE token_hash = ?",
    )
    .get(tokenHash);
}

export function findSessionBySecretHash(db: ReadModels, secretHash: string): SessionRecord | null {
  return db
    .query<SessionRecord, [string]>(
      `SELECT session_id AS sessionId, person_id AS personId, customer_id AS customerId, renewed_at AS renewedAt, expires_at AS expiresAt,
       ends_by AS endsBy, ended_at AS endedAt FROM sessions WHERE secret_hash = ?`,
    )
    .get(secretHash);
}
