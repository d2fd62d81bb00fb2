import type { EventShape, StoredEvent } from "./event-log";

/**
 * The events table in either database: the same columns and uniqueness. SQLite's position is its rowid (INTEGER
 * PRIMARY KEY, 64-bit there); PostgreSQL's is a BIGINT.
 */
export function eventsTableDdl(database: "sqlite" | "postgres"): string {
  return `CREATE TABLE IF NOT EXISTS events (
  position ${database === "sqlite" ? "INTEGER" : "BIGINT"} PRIMARY KEY,
  stream_id TEXT NOT NULL,
  stream_version INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  UNIQUE (stream_id, stream_version)
)`;
}

/** A row of the events table, in SQLite or PostgreSQL (which hands a BIGINT back as a string). */
export interface EventRow {
  position: number | string;
  stream_id: string;
  stream_version: number;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
  prev_hash: string;
  hash: string;
}

/** A row back as the event it was appended as: only schema-checked events were ever written. */
export function fromRow<E extends EventShape>(r: EventRow): StoredEvent<E> {
  return {
    position: Number(r.position),
    streamId: r.stream_id,
    streamVersion: r.stream_version,
    type: r.type,
    data: JSON.parse(r.data),
    metadata: JSON.parse(r.metadata),
    recordedAt: r.recorded_at,
    prevHash: r.prev_hash,
    hash: r.hash,
  } as StoredEvent<E>;
}
