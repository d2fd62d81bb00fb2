import type { Database } from "bun:sqlite";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import { timedSync } from "../phases";
import type { EventLog, EventShape, StoredEvent, StreamWrite } from "./event-log";
import { settleGroup, type QueuedAppend } from "./group-commit";
import { SqliteEventTable } from "./sqlite-event-table";

/**
 * The event log of one machine, in one SQLite file: every append is one synchronous transaction with its
 * projections, checked against the stream's expected version and each event's schema, chained by hash; appendSoon
 * groups what arrives in one turn of the event loop into one commit.
 */
export class SqliteEventLog<E extends EventShape = AssayEvent> extends SqliteEventTable<E> implements EventLog<E> {
  readonly backend = "sqlite";
  private readonly queued: QueuedAppend<E>[] = [];

  /**
   * Appends writes to one or more streams atomically, checking each stream's expected version,
   * validating each event against its schema and applying projections in the same transaction.
   * Committed before this returns, as a caller that does not await it (a session's renewal) relies on.
   * Every commit survives the process being killed; a `durable` one is also synced to disk before this
   * returns (synchronous=FULL for that commit), so it survives an operating-system crash or power loss:
   * for what is acknowledged to someone outside, such as a message the inbox answers 250 to.
   */
  append(writes: StreamWrite<E>[], metadata: EventMetadata, { durable = false } = {}): Promise<StoredEvent<E>[]> {
    try {
      return Promise.resolve(this.commit(writes, metadata, durable));
    } catch (e) {
      return Promise.reject(e);
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

  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  position(): number {
    return this.headOf().position;
  }

  async *readLog(): AsyncIterable<StoredEvent<E>> {
    yield* this.readAll();
  }

  rebuildReadModels<T>(rebuild: (db: Database, events: Iterable<StoredEvent<E>>) => T): Promise<T> {
    try {
      return Promise.resolve(this.transaction(() => rebuild(this.db, this.readAll())));
    } catch (e) {
      return Promise.reject(e);
    }
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  /** Runs fn in one write transaction, after what appendSoon queued (so the log keeps arrival order). */
  override transaction<T>(fn: () => T): T {
    this.flush();
    return super.transaction(fn);
  }

  close(): Promise<void> {
    this.flush();
    this.db.close();
    return Promise.resolve();
  }

  /** One append's transaction (after what appendSoon queued), synced to disk at its commit when `durable`. */
  private commit(writes: StreamWrite<E>[], metadata: EventMetadata, durable: boolean): StoredEvent<E>[] {
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

  /** Commits what appendSoon queued (also before any other write, so the log keeps arrival order). */
  private flush(): void {
    const batch = this.queued.splice(0);
    if (batch.length === 0) return;
    const outcomes = timedSync("group commit", () => this.db.transaction(() => this.decideGroup(batch)).immediate());
    settleGroup(batch, outcomes);
  }
}
