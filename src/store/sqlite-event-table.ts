import { Database } from "bun:sqlite";
import type { TSchema } from "@sinclair/typebox";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import { ConcurrencyError, type EventShape, type StoredEvent, type StreamWrite } from "./event-log";
import { EventSchemas } from "./event-schemas";
import { eventsTableDdl, fromRow, type EventRow } from "./event-row";
import { chainEvents, GENESIS_HASH } from "./hash-chain";
import type { GroupOutcome } from "./group-commit";

/** Applies one event to read models inside the transaction that writes it. */
export type EventHandler<E extends EventShape = AssayEvent> = (db: Database, event: StoredEvent<E>) => void;

const SCHEMA = `${eventsTableDdl("sqlite")};
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
`;

/**
 * Each write's stream version before it, from `current` (the stream's version in the log); a stream written twice
 * in one append counts its first write. Throws ConcurrencyError on a stale expectation, before anything is written.
 */
function versionStarts<E extends EventShape>(
  writes: StreamWrite<E>[],
  current: (streamId: string) => number,
): number[] {
  const after = new Map<string, number>();
  return writes.map((w) => {
    const actual = after.get(w.streamId) ?? current(w.streamId);
    if (w.expectedVersion !== "any" && w.expectedVersion !== actual)
      throw new ConcurrencyError(w.streamId, w.expectedVersion, actual);
    after.set(w.streamId, actual + w.events.length);
    return actual;
  });
}

/**
 * The append-only, hash-chained events table in one SQLite file, with the read models the handlers (projections)
 * keep in the same file: every event is written and projected in one transaction, so a read right after a write sees
 * it. What SqliteEventLog (the log of one machine) and Replica (a node's copy of the PostgreSQL log) share.
 */
export abstract class SqliteEventTable<E extends EventShape = AssayEvent> {
  /** The file: the events, and the read models the handlers write. */
  readonly db: Database;
  protected readonly schemas: EventSchemas<E>;
  private readonly handlers: EventHandler<E>[] = [];
  private readonly insert;
  private readonly head;
  private readonly versionOf;

  constructor(path: string, eventTypes: ReadonlyArray<{ name: E["type"]; schema: TSchema }>) {
    this.db = new Database(path, { create: true, strict: true });
    // WAL with synchronous=NORMAL: a commit is a write to the WAL, synced at checkpoints (durable appends sync
    // their own commit). A 64 MiB page cache holds the indexes a busy log touches; checkpoints every 10,000 pages
    // (about 40 MiB of WAL) instead of 1,000 halve what appends spend copying pages back (docs/performance.md).
    this.db.exec(
      "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000;",
    );
    this.db.exec(SCHEMA);
    this.schemas = new EventSchemas(eventTypes);
    this.insert = this.db.prepare(
      "INSERT INTO events (position, stream_id, stream_version, type, data, metadata, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    this.head = this.db.prepare<{ position: number; hash: string }, []>(
      "SELECT position, hash FROM events ORDER BY position DESC LIMIT 1",
    );
    this.versionOf = this.db.prepare<{ v: number | null }, [string]>(
      "SELECT MAX(stream_version) AS v FROM events WHERE stream_id = ?",
    );
  }

  /** Applies `handler` to every event written from now on, in the transaction that writes it. */
  onAppend(handler: EventHandler<E>): void {
    this.handlers.push(handler);
  }

  streamVersion(streamId: string): number {
    return this.versionOf.get(streamId)?.v ?? 0;
  }

  readStream(streamId: string): StoredEvent<E>[] {
    return this.db
      .query<EventRow, [string]>("SELECT * FROM events WHERE stream_id = ? ORDER BY stream_version")
      .all(streamId)
      .map((r) => fromRow<E>(r));
  }

  /** Every event in log order, read in pages so a million-event log never sits in memory at once. */
  *readAll(pageSize = 5000): Generator<StoredEvent<E>> {
    const page = this.db.query<EventRow, [number, number]>(
      "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?",
    );
    let after = 0;
    for (;;) {
      const rows = page.all(after, pageSize);
      for (const r of rows) yield fromRow<E>(r);
      if (rows.length < pageSize) return;
      after = Number(rows[rows.length - 1]!.position);
    }
  }

  /** The last event's position and hash (0 and the genesis hash for an empty log). */
  headOf(): { position: number; hash: string } {
    return this.head.get() ?? { position: 0, hash: GENESIS_HASH };
  }

  /** Runs fn in one write transaction (projections rebuild their tables in one). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * A group's appends inside the caller's transaction, in arrival order, each decided on the state the ones before
   * it left. Each append is its own savepoint: its decision, schema check, stale expectedVersion or a projection
   * refusing one of its events undoes that append only, and rejects its caller only.
   */
  protected decideGroup(
    batch: ReadonlyArray<{ decide: () => StreamWrite<E>[]; metadata: EventMetadata }>,
  ): GroupOutcome<E>[] {
    const one = this.db.transaction((item: (typeof batch)[number]) => this.write(this.decided(item), item.metadata));
    return batch.map((item): GroupOutcome<E> => {
      try {
        return { events: one(item) };
      } catch (error) {
        return { error };
      }
    });
  }

  /** One append's rows and projections, inside the caller's transaction; every expected version is checked before the first row. */
  protected write(writes: StreamWrite<E>[], metadata: EventMetadata): StoredEvent<E>[] {
    const starts = versionStarts(writes, (id) => this.streamVersion(id));
    const stored = chainEvents(writes, starts, this.head.get() ?? null, metadata);
    for (const event of stored) this.insertRow(event);
    return stored;
  }

  /** One recorded event's row and its projections, inside the caller's transaction. */
  protected insertRow(event: StoredEvent<E>): void {
    this.insert.run(
      event.position,
      event.streamId,
      event.streamVersion,
      event.type,
      JSON.stringify(event.data),
      JSON.stringify(event.metadata),
      event.recordedAt,
      event.prevHash,
      event.hash,
    );
    for (const h of this.handlers) h(this.db, event);
  }

  /** A queued append's decision, each event checked against its schema. */
  private decided(item: { decide: () => StreamWrite<E>[] }): StreamWrite<E>[] {
    const writes = item.decide();
    this.schemas.check(writes);
    return writes;
  }
}
