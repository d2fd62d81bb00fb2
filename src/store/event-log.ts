import type { Database } from "bun:sqlite";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import type { EventShape, EventStore, StoredEvent, StreamWrite } from "./event-store";

/** Which engine holds the log: one SQLite file, or a PostgreSQL database several nodes share. */
export type StoreBackend = "sqlite" | "postgres";

/**
 * The event log as the services use it, on either backend. Reads are synchronous SQL over this node's read models
 * (`db`); writes are promises, settled once the log has committed them and the read models show them.
 *
 * On SQLite the log and the read models are one file and one transaction. On PostgreSQL the log is shared by every
 * node and each node keeps a copy of it with its read models in SQLite (pg-event-log.ts): an append first brings the
 * copy to the log's head under the log's lock, decides there, writes the log, then applies the same events to the
 * copy. `catchUp` brings the copy to the head without appending (each request does, so any node reads what any node
 * wrote before the request arrived).
 */
export interface EventLog<E extends EventShape = AssayEvent> {
  readonly backend: StoreBackend;
  /** This node's read models (and, on PostgreSQL, its copy of the log). */
  readonly db: Database;
  /** The SQLite store under the read models: rebuilt by replay, read by benches and tests. */
  readonly local: EventStore<E>;
  /**
   * Appends these writes atomically (each stream's expected version checked, each event against its schema).
   * `durable` asks that the commit be on disk before this settles even through an operating-system crash.
   */
  append(writes: StreamWrite<E>[], metadata: EventMetadata, options?: { durable?: boolean }): Promise<StoredEvent<E>[]>;
  /**
   * Decides and appends as one step: `decide` runs at commit on read models at the log's head, after the appends
   * before it (group commit), so what it reads cannot change before its events are written.
   */
  appendSoon(decide: () => StreamWrite<E>[], metadata: EventMetadata): Promise<StoredEvent<E>[]>;
  /** Brings the read models to the log's head as it is now (nothing to do on SQLite). */
  catchUp(): Promise<void>;
  /** A stream's version in the read models. */
  streamVersion(streamId: string): number;
  /** One stream's events from the read models' copy, in order. */
  readStream(streamId: string): StoredEvent<E>[];
  /** The log itself, in position order: what an auditor verifies (on PostgreSQL, read from the shared database). */
  readLog(): AsyncIterable<StoredEvent<E>>;
  /** Whether the log answers now (PostgreSQL reachable); what /readyz reports. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** The log in one SQLite file: every write is one synchronous transaction with its projections. */
export class SqliteEventLog<E extends EventShape = AssayEvent> implements EventLog<E> {
  readonly backend = "sqlite";

  constructor(readonly local: EventStore<E>) {}

  get db(): Database {
    return this.local.db;
  }

  append(writes: StreamWrite<E>[], metadata: EventMetadata, options?: { durable?: boolean }): Promise<StoredEvent<E>[]> {
    // Committed before this returns, as a caller that does not await it (a session's renewal) relies on.
    try {
      return Promise.resolve(this.local.append(writes, metadata, options));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  appendSoon(decide: () => StreamWrite<E>[], metadata: EventMetadata): Promise<StoredEvent<E>[]> {
    return this.local.appendSoon(decide, metadata);
  }

  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  streamVersion(streamId: string): number {
    return this.local.streamVersion(streamId);
  }

  readStream(streamId: string): StoredEvent<E>[] {
    return this.local.readStream(streamId);
  }

  async *readLog(): AsyncIterable<StoredEvent<E>> {
    yield* this.local.readAll();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.local.close();
    return Promise.resolve();
  }
}
