import { SQL } from "bun";
import type { AssayEvent } from "../../events";
import type { EventShape, StoredEvent } from "./event-log";
import { eventsTableDdl, fromRow, type EventRow } from "./event-row";

/**
 * The events table in PostgreSQL: the same columns as SQLite's (data and metadata kept as the JSON text that was
 * hashed), the same uniqueness per stream version, and UPDATE and DELETE refused by the database itself.
 */
const PG_SCHEMA = `
${eventsTableDdl("postgres")};
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'events are append-only: % refused', TG_OP; END $$;
DROP TRIGGER IF EXISTS events_no_update ON events;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_append_only();
DROP TRIGGER IF EXISTS events_no_truncate ON events;
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
`;

/**
 * Appends take this transaction-scoped advisory lock: one append at a time across every node sharing the database,
 * so positions and the hash chain stay gap-free and totally ordered (the lock is released at commit or rollback).
 */
export const APPEND_LOCK = 0x4153_5341; // "ASSA"

/**
 * The event log's table in PostgreSQL, shared by every node (issue 16): made under the append lock, read in position
 * order. Appends go through PgEventLog (pg-event-log.ts), which decides them on a node's replica under the same lock
 * and writes them here with insertEvents; a whole SQLite log comes in through copyLog (`assay migrate-store`).
 */
export class PgEventTable<E extends EventShape = AssayEvent> {
  private constructor(readonly sql: SQL) {}

  static async open<E extends EventShape = AssayEvent>(url: string): Promise<PgEventTable<E>> {
    const sql = new SQL(url);
    try {
      // Two processes opening the same database at once would race on CREATE: the schema is made under the append lock.
      await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`;
        await tx.unsafe(PG_SCHEMA);
      });
    } catch (e) {
      await sql.close();
      throw e;
    }
    return new PgEventTable<E>(sql);
  }

  /** The events after `position`, in order, at most `limit` of them. */
  async readAfter(position: number, limit: number, sql: SQL = this.sql): Promise<StoredEvent<E>[]> {
    const rows: EventRow[] =
      await sql`SELECT * FROM events WHERE position > ${position} ORDER BY position LIMIT ${limit}`;
    return rows.map((r) => fromRow<E>(r));
  }

  /** The hash recorded at a position, or null past the log's end. */
  async hashAt(position: number): Promise<string | null> {
    const [row] = await this.sql`SELECT hash FROM events WHERE position = ${position}`;
    return row?.hash ?? null;
  }

  /** Every event in log order, read in pages. */
  async *readAll(pageSize = 5000): AsyncGenerator<StoredEvent<E>> {
    for (let after = 0; ; ) {
      const page = await this.readAfter(after, pageSize);
      yield* page;
      if (page.length < pageSize) return;
      after = page[page.length - 1]!.position;
    }
  }

  close(): Promise<void> {
    return this.sql.close();
  }
}

/** Writes recorded events as rows, in the caller's transaction (which holds the append lock). */
export async function insertEvents(tx: SQL, events: ReadonlyArray<StoredEvent<EventShape>>): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    position: e.position,
    stream_id: e.streamId,
    stream_version: e.streamVersion,
    type: e.type,
    data: JSON.stringify(e.data),
    metadata: JSON.stringify(e.metadata),
    recorded_at: e.recordedAt,
    prev_hash: e.prevHash,
    hash: e.hash,
  }));
  // PostgreSQL takes at most 65,535 parameters a statement: 9 columns, so pages of 5,000 rows.
  for (let i = 0; i < rows.length; i += 5000) await tx`INSERT INTO events ${tx(rows.slice(i, i + 5000))}`;
}

/**
 * Copies a whole log, as recorded (positions, chain, hashes, times), into an empty PostgreSQL log, in one
 * transaction under the append lock: a copy that stops half-way leaves the database as it was. Refuses a
 * database whose log already holds events.
 */
export async function copyLog<E extends EventShape>(
  events: Iterable<StoredEvent<E>>,
  into: PgEventTable<E>,
  pageSize = 5000,
): Promise<number> {
  return into.sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`;
    const [held] = await tx`SELECT COUNT(*)::int AS n FROM events`;
    if (held.n > 0)
      throw new Error(`the PostgreSQL log already holds ${held.n} events: migrate into an empty database`);
    let copied = 0;
    let page: StoredEvent<E>[] = [];
    for (const e of events) {
      page.push(e);
      if (page.length === pageSize) {
        await insertEvents(tx, page);
        copied += page.length;
        page = [];
      }
    }
    await insertEvents(tx, page);
    return copied + page.length;
  });
}
