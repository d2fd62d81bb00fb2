import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import type { KeyMintedData } from "../events";

export const keysProjection: Projection = {
  name: "keys",
  tables: ["api_keys"],
  ddl: `CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    person_id TEXT,
    name TEXT NOT NULL,
    display_prefix TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    rotated_at TEXT,
    previous_secret_hash TEXT,
    previous_valid_until TEXT,
    revoked_at TEXT
  );
  CREATE INDEX IF NOT EXISTS api_keys_customer ON api_keys (customer_id);
  CREATE INDEX IF NOT EXISTS api_keys_previous ON api_keys (previous_secret_hash)`,
  apply(db, e) {
    switch (e.type) {
      case "KeyMinted": {
        const d = e.data;
        db.query(
          "INSERT INTO api_keys (key_id, customer_id, person_id, name, display_prefix, secret_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          d.keyId,
          d.customerId,
          d.personId ?? null,
          d.name,
          d.displayPrefix,
          d.secretHash,
          JSON.stringify(d.scopes),
          e.recordedAt,
        );
        break;
      }
      case "KeyRotated": {
        const d = e.data;
        db.query(
          `UPDATE api_keys SET previous_secret_hash = secret_hash, previous_valid_until = ?, secret_hash = ?, display_prefix = ?, rotated_at = ?
           WHERE key_id = ?`,
        ).run(d.previousValidUntil, d.secretHash, d.displayPrefix, e.recordedAt, d.keyId);
        break;
      }
      case "KeyRevoked":
        db.query("UPDATE api_keys SET revoked_at = ? WHERE key_id = ?").run(e.recordedAt, e.data.keyId);
        break;
    }
  },
};

export interface KeyRecord {
  keyId: string;
  customerId: string;
  /** Who minted it from a session; null for signup and operator keys, which belong to the organization. */
  personId: string | null;
  name: string;
  displayPrefix: string;
  scopes: KeyMintedData["scopes"];
  createdAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
}

type KeyRow = Omit<KeyRecord, "scopes"> & { scopes: string };
const SELECT = `SELECT key_id AS keyId, customer_id AS customerId, person_id AS personId, name, display_prefix AS displayPrefix, scopes,
  created_at AS createdAt, rotated_at AS rotatedAt, revoked_at AS revokedAt FROM api_keys`;
const fromRow = (r: KeyRow): KeyRecord => ({ ...r, scopes: JSON.parse(r.scopes) });

/** The key whose current secret has this hash, or whose previous one has it and is still in its rotation overlap at `now`. */
export function findKeyBySecretHash(db: ReadModels, secretHash: string, now: string): KeyRecord | null {
  const row = db
    .query<KeyRow, [string, string, string]>(
      `${SELECT} WHERE secret_hash = ? OR (previous_secret_hash = ? AND previous_valid_until > ?)`,
    )
    .get(secretHash, secretHash, now);
  return row ? fromRow(row) : null;
}

export function findKeyById(db: ReadModels, keyId: string): KeyRecord | null {
  const row = db.query<KeyRow, [string]>(`${SELECT} WHERE key_id = ?`).get(keyId);
  return row ? fromRow(row) : null;
}

export function listKeys(db: ReadModels, customerId: string): KeyRecord[] {
  return db
    .query<KeyRow, [string]>(`${SELECT} WHERE customer_id = ? ORDER BY created_at, key_id`)
    .all(customerId)
    .map(fromRow);
}

/** The active keys a person minted for an organization: what goes when they leave it. */
export function activeKeyIdsMintedBy(db: ReadModels, customerId: string, personId: string): string[] {
  return db
    .query<{ keyId: string }, [string, string]>(
      "SELECT key_id AS keyId FROM api_keys WHERE customer_id = ? AND person_id = ? AND revoked_at IS NULL ORDER BY key_id",
    )
    .all(customerId, personId)
    .map((r) => r.keyId);
}
