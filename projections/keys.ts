import type { Database } from "bun:sqlite";
import type { Projection } from "./projection";
import type { KeyMintedData } from "../events";

export const keysProjection: Projection = {
  name: "keys",
  tables: ["api_keys"],
  ddl: `CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    name TEXT NOT NULL,
    display_prefix TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE INDEX IF NOT EXISTS api_keys_customer ON api_keys (customer_id)`,
  apply(db, e) {
    switch (e.type) {
      case "KeyMinted": {
        const d = e.data;
        db.query("INSERT INTO api_keys (key_id, customer_id, name, display_prefix, secret_hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run(d.keyId, d.customerId, d.name, d.displayPrefix, d.secretHash, JSON.stringify(d.scopes), e.recordedAt);
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
  name: string;
  displayPrefix: string;
  scopes: KeyMintedData["scopes"];
  createdAt: string;
  revokedAt: string | null;
}

type KeyRow = Omit<KeyRecord, "scopes"> & { scopes: string };
const SELECT =
  "SELECT key_id AS keyId, customer_id AS customerId, name, display_prefix AS displayPrefix, scopes, created_at AS createdAt, revoked_at AS revokedAt FROM api_keys";
const fromRow = (r: KeyRow): KeyRecord => ({ ...r, scopes: JSON.parse(r.scopes) });

export function findKeyBySecretHash(db: Database, secretHash: string): KeyRecord | null {
  const row = db.query<KeyRow, [string]>(`${SELECT} WHERE secret_hash = ?`).get(secretHash);
  return row ? fromRow(row) : null;
}

export function findKeyById(db: Database, keyId: string): KeyRecord | null {
  const row = db.query<KeyRow, [string]>(`${SELECT} WHERE key_id = ?`).get(keyId);
  return row ? fromRow(row) : null;
}

export function listKeys(db: Database, customerId: string): KeyRecord[] {
  return db.query<KeyRow, [string]>(`${SELECT} WHERE customer_id = ? ORDER BY created_at, key_id`).all(customerId).map(fromRow);
}
