import { Database } from "bun:sqlite";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { TSchema } from "@sinclair/typebox";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import { canonicalJson, sha256Hex } from "./canonical";
import { timedSync } from "../phases";

/** The shape every event has; the store is typed over a union of such shapes, the log's own by default. */
export interface EventShape {
  type: string;
  data: unknown;
}

/** An event about to be appended: one member of the union, its data checked against its schema again at append. */
export type NewEvent<E extends EventShape = AssayEvent> = E;

/** Where and when the log recorded an event, and the hash chain linking it to the one before. */
export interface EventEnvelope {
  position: number;
  streamId: string;
  streamVersion: number;
  metadata: EventMetadata;
  recordedAt: string;
  prevHash: string;
  hash: string;
}

/** A recorded event; still a union discriminated by `type`, so a switch on it narrows `data`. */
export type StoredEvent<E extends EventShape = AssayEvent> = EventEnvelope & E;

/** One write to one stream. `expectedVersion` is the stream's current version (0 for a new stream). */
export interface StreamWrite<E extends EventShape = AssayEvent> {
  streamId: string;
  expectedVersion: number | "any";
  events: NewEvent<E>[];
}

/** Applies one event to read models inside the append transaction. */
export type EventHandler<E extends EventShape = AssayEvent> = (db: Database, event: StoredEvent<E>) => void;

export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: number | "any",
    readonly actual: number,
  ) {
    super(`stream ${streamId} is at version ${actual}, expected ${expected}`);
  }
}

export class EventSchemaError extends Error {}

/** A copy of a log (a node's copy of the PostgreSQL log) was handed an event that does not follow its head. */
export class ReplicaDivergedError extends Error {}

/** What one append of a group came to: its events, or what refused it. */
export type GroupOutcome<E extends EventShape> = { events: StoredEvent<E>[] } | { error: unknown };

/** A queued append: its decision (run at commit), its metadata and its caller's promise. */
export interface QueuedAppend<E extends EventShape> {
  decide: () => StreamWrite<E>[];
  metadata: EventMetadata;
  resolve: (events: StoredEvent<E>[]) => void;
  reject: (error: unknown) => void;
}

/** Settles each queued append's promise with its outcome. */
export function settleGroup<E extends EventShape>(batch: ReadonlyArray<QueuedAppend<E>>, outcomes: ReadonlyArray<GroupOutcome<E>>): void {
  batch.forEach((item, i) => {
    const outcome = outcomes[i]!;
    if ("events" in outcome) item.resolve(outcome.events);
    else item.reject(outcome.error);
  });
}

/** Thrown inside a trial's transaction to undo it. */
const UNDO = Symbol("undo");

export const GENESIS_HASH = "0".repeat(64);

/** The hash of one event: SHA-256 over the previous hash and the event in canonical JSON. */
export function eventHash(prevHash: string, e: Omit<EventEnvelope, "prevHash" | "hash"> & EventShape): string {
  return sha256Hex(
    `${prevHash}\n${canonicalJson({
      position: e.position,
      streamId: e.streamId,
      streamVersion: e.streamVersion,
      type: e.type,
      data: e.data,
      metadata: e.metadata,
      recordedAt: e.recordedAt,
    })}`,
  );
}

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

/** SQLite's events table; exported so benchmarks can compare against raw inserts into the same shape. */
export const EVENTS_TABLE_DDL = eventsTableDdl("sqlite");

const SCHEMA = `${EVENTS_TABLE_DDL};
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE refused'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE refused'); END;
`;

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

/** Every event type's schema, compiled once; an event is checked against its own at append. */
class EventSchemas<E extends EventShape = AssayEvent> {
  private readonly validators = new Map<string, TypeCheck<TSchema>>();

  constructor(eventTypes: ReadonlyArray<{ name: E["type"]; schema: TSchema }>) {
    for (const t of eventTypes) this.validators.set(t.name, TypeCompiler.Compile(t.schema));
  }

  /** Throws EventSchemaError unless every event of the writes matches its type's schema. */
  check(writes: StreamWrite<E>[]): void {
    for (const w of writes) {
      for (const e of w.events) {
        const check = this.validators.get(e.type);
        if (!check) throw new EventSchemaError(`unknown event type ${e.type}`);
        if (!check.Check(e.data)) {
          const first = check.Errors(e.data).First();
          throw new EventSchemaError(`${e.type} does not match its schema: ${first?.path ?? ""} ${first?.message ?? ""}`);
        }
      }
    }
  }
}

/**
 * Each write's stream version before it, from `current` (the stream's version in the log); a stream written twice
 * in one append counts its first write. Throws ConcurrencyError on a stale expectation, before anything is written.
 */
function versionStarts<E extends EventShape>(writes: StreamWrite<E>[], current: (streamId: string) => number): number[] {
  const after = new Map<string, number>();
  return writes.map((w) => {
    const actual = after.get(w.streamId) ?? current(w.streamId);
    if (w.expectedVersion !== "any" && w.expectedVersion !== actual) throw new ConcurrencyError(w.streamId, w.expectedVersion, actual);
    after.set(w.streamId, actual + w.events.length);
    return actual;
  });
}

/** One append's events, numbered after `head` (the log's last event, or none) and chained to it, recorded now. */
function chainEvents<E extends EventShape>(
  writes: StreamWrite<E>[],
  starts: number[],
  head: { position: number; hash: string } | null,
  metadata: EventMetadata,
): StoredEvent<E>[] {
  let position = head?.position ?? 0;
  let prevHash = head?.hash ?? GENESIS_HASH;
  const recordedAt = new Date().toISOString();
  const stored: StoredEvent<E>[] = [];
  writes.forEach((w, k) => {
    let version = starts[k]!;
    for (const e of w.events) {
      const base = { position: ++position, streamId: w.streamId, streamVersion: ++version, type: e.type, data: e.data, metadata, recordedAt };
      const hash = eventHash(prevHash, base);
      // type and data are e's own, so this is e recorded; spelt out to keep the envelope's field order.
      stored.push({ ...base, prevHash, hash } as StoredEvent<E>);
      prevHash = hash;
    }
  });
  return stored;
}

/**
 * The append-only, hash-chained event log in one SQLite file. Appends and the projections that
 * consume them commit in one transaction, so a read right after a write sees it.
 */
export class EventStore<E extends EventShape = AssayEvent> {
  readonly db: Database;
  private readonly schemas: EventSchemas<E>;
  private readonly handlers: EventHandler<E>[] = [];
  private readonly insert;
  private readonly head;
  private readonly hashAtPosition;
  private readonly versionOf;
  private readonly queued: QueuedAppend<E>[] = [];

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
    this.hashAtPosition = this.db.prepare<{ hash: string }, [number]>("SELECT hash FROM events WHERE position = ?");
    this.versionOf = this.db.prepare<{ v: number | null }, [string]>(
      "SELECT MAX(stream_version) AS v FROM events WHERE stream_id = ?",
    );
  }

  onAppend(handler: EventHandler<E>): void {
    this.handlers.push(handler);
  }

  streamVersion(streamId: string): number {
    return this.versionOf.get(streamId)?.v ?? 0;
  }

  /**
   * Appends writes to one or more streams atomically, checking each stream's expected version,
   * validating each event against its schema and applying projections in the same transaction.
   * Every commit survives the process being killed; a `durable` one is also synced to disk before this
   * returns (synchronous=FULL for that commit), so it survives an operating-system crash or power loss:
   * for what is acknowledged to someone outside, such as a message the inbox answers 250 to.
   */
  append(writes: StreamWrite<E>[], metadata: EventMetadata, { durable = false } = {}): StoredEvent<E>[] {
    this.schemas.check(writes);
    this.flush();
    const run = this.db.transaction(() => this.write(writes, metadata));
    if (!durable) return run.immediate();
    this.db.exec("PRAGMA synchronous = FULL");
    try {
      return run.immediate();
    } finally {
      this.db.exec("PRAGMA synchronous = NORMAL");
    }
  }

  /**
   * The same append with group commit: what every caller appends in the same turn of the event loop is committed
   * in one transaction, and each promise settles once that commit is done, so nothing is answered before it is in
   * the log. `decide` runs inside that transaction, in arrival order, on the state the appends before it in the
   * group left (decide-then-append stays atomic, as with append, so callers in one group never conflict); what it
   * throws, like a stale expectedVersion, rejects that caller only. Positions, versions and the hash chain are
   * assigned exactly as one append at a time would assign them.
   */
  appendSoon(decide: () => StreamWrite<E>[], metadata: EventMetadata): Promise<StoredEvent<E>[]> {
    return new Promise((resolve, reject) => {
      this.queued.push({ decide, metadata, resolve, reject });
      if (this.queued.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what appendSoon queued (also before any other write, so the log keeps arrival order). */
  private flush(): void {
    const batch = this.queued.splice(0);
    if (batch.length === 0) return;
    const outcomes = timedSync("group commit", () => this.db.transaction(() => this.decideGroup(batch)).immediate());
    settleGroup(batch, outcomes);
  }

  /**
   * A group's appends inside the caller's transaction, in arrival order, each decided on the state the ones before
   * it left. Each append is its own savepoint: its decision, schema check, stale expectedVersion or a projection
   * refusing one of its events undoes that append only, and rejects its caller only.
   */
  decideGroup(batch: ReadonlyArray<{ decide: () => StreamWrite<E>[]; metadata: EventMetadata }>): GroupOutcome<E>[] {
    const one = this.db.transaction((item: (typeof batch)[number]) => this.write(this.decided(item), item.metadata));
    return batch.map((item): GroupOutcome<E> => {
      try {
        return { events: one(item) };
      } catch (error) {
        return { error };
      }
    });
  }

  /**
   * What a group would append, decided and projected exactly as decideGroup does, then undone: the PostgreSQL log
   * (pg-event-log.ts) decides on this node's read models, writes the events to the shared log, and only then
   * applies them here (appendRecorded).
   */
  trialGroup(batch: ReadonlyArray<{ decide: () => StreamWrite<E>[]; metadata: EventMetadata }>): GroupOutcome<E>[] {
    let outcomes: GroupOutcome<E>[] = [];
    try {
      this.db.transaction(() => {
        outcomes = this.decideGroup(batch);
        throw UNDO;
      }).immediate();
    } catch (e) {
      if (e !== UNDO) throw e;
    }
    return outcomes;
  }

  /**
   * Events another log recorded (numbered, chained and hashed there), appended here as they are with their
   * projections, in one transaction: how a node's copy of the PostgreSQL log catches up. Each must follow this
   * log's head (the next position, chained to its hash), or nothing is written.
   */
  appendRecorded(events: ReadonlyArray<StoredEvent<E>>): void {
    if (events.length === 0) return;
    this.flush();
    this.db.transaction(() => {
      let head = this.headOf();
      for (const event of events) {
        if (event.position !== head.position + 1 || event.prevHash !== head.hash) {
          throw new ReplicaDivergedError(`event ${event.position} does not follow this copy's head ${head.position}`);
        }
        this.insertRow(event);
        head = event;
      }
    }).immediate();
  }

  /** The last event's position and hash (0 and the genesis hash for an empty log). */
  headOf(): { position: number; hash: string } {
    return this.head.get() ?? { position: 0, hash: GENESIS_HASH };
  }

  /** The hash recorded at a position, or null past the log's end. */
  hashAt(position: number): string | null {
    return this.hashAtPosition.get(position)?.hash ?? null;
  }

  /** A queued append's decision, each event checked against its schema. */
  private decided(item: { decide: () => StreamWrite<E>[] }): StreamWrite<E>[] {
    const writes = item.decide();
    this.schemas.check(writes);
    return writes;
  }

  /** One append's rows and projections, inside the caller's transaction; every expected version is checked before the first row. */
  private write(writes: StreamWrite<E>[], metadata: EventMetadata): StoredEvent<E>[] {
    const starts = versionStarts(writes, (id) => this.streamVersion(id));
    const stored = chainEvents(writes, starts, this.head.get() ?? null, metadata);
    for (const event of stored) this.insertRow(event);
    return stored;
  }

  private insertRow(event: StoredEvent<E>): void {
    this.insert.run(event.position, event.streamId, event.streamVersion, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), event.recordedAt, event.prevHash, event.hash);
    for (const h of this.handlers) h(this.db, event);
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

  /** Runs fn in one write transaction (used by replay to rebuild read models atomically). */
  transaction<T>(fn: () => T): T {
    this.flush();
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    this.flush();
    this.db.close();
  }
}
