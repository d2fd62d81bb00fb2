import type { Database } from "bun:sqlite";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";

/** Which engine holds the log: one SQLite file, or a PostgreSQL database several nodes share. */
export type LogBackend = "sqlite" | "postgres";

/** The shape every event has; the log is typed over a union of such shapes, Assay's own by default. */
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

/**
 * The event log as the services use it, on either backend. Reads of streams are synchronous, over this node's read
 * models (the services read the projections through their own handle, ReadModels); writes are promises, settled
 * once the log has committed them and the read models show them.
 *
 * On SQLite the log and the read models are one file and one transaction (SqliteEventLog). On PostgreSQL the log
 * is shared by every node and each node keeps a replica of it with its read models in SQLite (PgEventLog): an
 * append first brings the replica to the log's head under the log's lock, decides there, writes the log, then
 * applies the same events to the replica. `catchUp` brings the replica to the head without appending (each request
 * does, so any node reads what any node wrote before the request arrived).
 */
export interface EventLog<E extends EventShape = AssayEvent> {
  readonly backend: LogBackend;
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
  /** One stream's events as the read models' copy holds them, in order. */
  readStream(streamId: string): StoredEvent<E>[];
  /** The position of the last event the read models hold: where this node is (what /healthz reports). */
  position(): number;
  /** The log itself, in position order: what an auditor verifies (on PostgreSQL, read from the shared database). */
  readLog(): AsyncIterable<StoredEvent<E>>;
  /**
   * Replay: `rebuild` folds every event this node holds into its read models, in one write transaction of its SQLite
   * file (on PostgreSQL, the replica is brought to the log's head first).
   */
  rebuildReadModels<T>(rebuild: (db: Database, events: Iterable<StoredEvent<E>>) => T): Promise<T>;
  /** Whether the log answers now (PostgreSQL reachable); what /readyz reports. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
