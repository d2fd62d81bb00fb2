import type { Database } from "bun:sqlite";

const MINUTE = 60_000;

/**
 * When each key was last used. Not an event (that would be one per request) and not a projection (replay could
 * not rebuild it): an observation kept beside the log, written at most once a minute per key, and left alone by
 * replay.
 */
export class KeyUsage {
  private readonly upsert;
  private readonly read;
  /** When this process last wrote each key's use, so that a busy key costs no write at all within its minute. */
  private readonly written = new Map<string, number>();

  constructor(db: Database) {
    db.exec("CREATE TABLE IF NOT EXISTS key_usage (key_id TEXT PRIMARY KEY, last_used_at TEXT NOT NULL)");
    this.upsert = db.prepare<unknown, [string, string, string]>(
      `INSERT INTO key_usage (key_id, last_used_at) VALUES (?1, ?2)
       ON CONFLICT (key_id) DO UPDATE SET last_used_at = excluded.last_used_at WHERE key_usage.last_used_at < ?3`,
    );
    this.read = db.prepare<{ keyId: string; lastUsedAt: string }, [string]>(
      `SELECT key_id AS keyId, last_used_at AS lastUsedAt FROM key_usage WHERE key_id IN (SELECT value FROM json_each(?))`,
    );
  }

  touch(keyId: string, now: Date): void {
    if (now.getTime() - (this.written.get(keyId) ?? 0) < MINUTE) return;
    this.written.set(keyId, now.getTime());
    this.upsert.run(keyId, now.toISOString(), new Date(now.getTime() - MINUTE).toISOString());
  }

  lastUsed(keyIds: string[]): Map<string, string> {
    return new Map(this.read.all(JSON.stringify(keyIds)).map((r) => [r.keyId, r.lastUsedAt]));
  }
}
