import type { Database } from "bun:sqlite";
import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import { timed } from "../phases";
import type { EventLog, EventShape, StoredEvent, StreamWrite } from "./event-log";
import { recordedIn, settleGroup, type GroupOutcome, type QueuedAppend } from "./group-commit";
import { APPEND_LOCK, insertEvents, type PgEventTable } from "./pg-event-table";
import { ReplicaDivergedError, type Replica } from "./replica";

/** Events pulled from the shared log per query while a replica catches up. */
const PULL_PAGE = 5000;

/** How long a read-back after a failed commit waits for the append lock (PostgreSQL's lock_timeout syntax). */
const READ_BACK_LOCK_WAIT = "5s";

/**
 * The log of a node on PostgreSQL: the shared table (PgEventTable) and this node's replica of it with its read
 * models in SQLite (Replica).
 *
 * An append (always through group commit) takes the log's advisory lock, pulls what other nodes appended into the
 * replica, then decides and projects the whole group on the replica in a transaction it undoes (Replica.trialGroup):
 * the decisions read the log's head, and the lock keeps it there until the group's events are written to
 * PostgreSQL and committed. Then the same events are applied to the replica (appendRecorded), exactly as projected
 * in the trial. A node that stops between the two finds them in the log when it next pulls. Refusals (a decision's
 * error, a stale expected version, a schema break, a projection refusing an event) reject their caller only and
 * write nothing anywhere. A group whose transaction fails without saying whether it committed (the connection lost
 * after COMMIT was sent) is read back: its callers get its events if the log took it, the error if not.
 *
 * Reads stay synchronous SQL on the replica; `catchUp` brings it to the head (every request does, so a node reads
 * what any node committed before the request arrived).
 */
export class PgEventLog<E extends EventShape = AssayEvent> implements EventLog<E> {
  readonly backend = "postgres";
  private readonly queued: QueuedAppend<E>[] = [];
  private flushScheduled = false;
  /** The replica changes one step at a time: pulls and group commits queue here, in order. */
  private tail: Promise<void> = Promise.resolve();
  private pendingPull: Promise<void> | null = null;

  private constructor(
    private readonly table: PgEventTable<E>,
    private readonly replica: Replica<E>,
    /** Recorded in every event this node appends (metadata.node): which node took a job, for recovery. */
    private readonly nodeId: string,
  ) {}

  /**
   * Joins the shared log with this node's replica. A replica that is not a prefix of the log (another database's,
   * or one the log never had) is refused with ReplicaDivergedError, so the caller can start a fresh one.
   */
  static async open<E extends EventShape>(
    table: PgEventTable<E>,
    replica: Replica<E>,
    nodeId: string,
  ): Promise<PgEventLog<E>> {
    const head = replica.headOf();
    if (head.position > 0 && (await table.hashAt(head.position)) !== head.hash) {
      throw new ReplicaDivergedError(
        `this node's copy ends at event ${head.position}, which the shared log does not hold with the same hash`,
      );
    }
    const opened = new PgEventLog(table, replica, nodeId);
    await opened.catchUp();
    return opened;
  }

  append(writes: StreamWrite<E>[], metadata: EventMetadata): Promise<StoredEvent<E>[]> {
    // Every commit of PostgreSQL is durable (synchronous_commit on): `durable` asks nothing more here.
    return this.appendSoon(() => writes, metadata);
  }

  appendSoon(decide: () => StreamWrite<E>[], metadata: EventMetadata): Promise<StoredEvent<E>[]> {
    return new Promise((resolve, reject) => {
      this.queued.push({ decide, metadata: { ...metadata, node: this.nodeId }, resolve, reject });
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setImmediate(
        () =>
          void this.serialize(async () => {
            this.flushScheduled = false;
            await this.flush();
          }),
      );
    });
  }

  /** A pull that starts after this call: callers that arrive before it starts share it. */
  catchUp(): Promise<void> {
    this.pendingPull ??= this.serialize(async () => {
      this.pendingPull = null;
      await this.pull();
    });
    return this.pendingPull;
  }

  streamVersion(streamId: string): number {
    return this.replica.streamVersion(streamId);
  }

  readStream(streamId: string): StoredEvent<E>[] {
    return this.replica.readStream(streamId);
  }

  position(): number {
    return this.replica.headOf().position;
  }

  readLog(): AsyncIterable<StoredEvent<E>> {
    return this.table.readAll();
  }

  async rebuildReadModels<T>(rebuild: (db: Database, events: Iterable<StoredEvent<E>>) => T): Promise<T> {
    await this.catchUp();
    return this.replica.transaction(() => rebuild(this.replica.db, this.replica.readAll()));
  }

  async ping(): Promise<void> {
    await this.table.sql`SELECT 1`;
  }

  async close(): Promise<void> {
    await this.serialize(() => this.flush());
    await this.table.close();
    this.replica.close();
  }

  private serialize<T>(step: () => Promise<T>): Promise<T> {
    const run = this.tail.then(step);
    this.tail = run.then(
      () => {},
      () => {},
    );
    return run;
  }

  /** Applies to the replica what the log holds past its head (inside the append lock when `sql` is its transaction). */
  private async pull(sql = this.table.sql): Promise<void> {
    for (;;) {
      const page = await this.table.readAfter(this.replica.headOf().position, PULL_PAGE, sql);
      this.replica.appendRecorded(page);
      if (page.length < PULL_PAGE) return;
    }
  }

  private async flush(): Promise<void> {
    const batch = this.queued.splice(0);
    if (batch.length === 0) return;
    let outcomes: GroupOutcome<E>[] | undefined;
    try {
      await timed("group commit", () =>
        this.table.sql.begin(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`;
          await this.pull(tx);
          outcomes = this.replica.trialGroup(batch);
          await insertEvents(tx, recordedIn(outcomes));
        }),
      );
    } catch (error) {
      const events = outcomes ? recordedIn(outcomes) : [];
      // Decided at the head under the lock with nothing to write: each caller's refusal stands, whatever the commit did.
      if (outcomes && events.length === 0) return settleGroup(batch, outcomes);
      if (events.length > 0 && (await this.tookDespite(error, events))) return settleGroup(batch, outcomes!);
      // The log did not take the group (unreachable, or its transaction failed): nothing was written, every caller hears why.
      for (const item of batch) item.reject(error);
      return;
    }
    try {
      this.replica.appendRecorded(recordedIn(outcomes!));
    } catch (error) {
      // Committed to the log but not applied here: the replica pulls them again before its next read or append.
      console.error("events committed to the shared log could not be applied to this node's copy:", error);
      for (const item of batch) item.reject(error);
      return;
    }
    settleGroup(batch, outcomes!);
  }

  /**
   * Whether the log holds a group whose transaction failed (say the connection closed after the COMMIT was sent,
   * so its answer was lost): read back, the replica pulled to the log's head, which then holds the group's events or
   * does not. The group is known by the hash of its last event: it covers that event's position, the group's
   * events with their metadata (this node, their time) and, through the chain, everything before, so the log
   * holds that hash at that position only if it took this very group; no id of its own needs storing.
   *
   * The read-back takes the append lock first. The group's transaction held it until it ended, and PostgreSQL
   * makes a commit visible before it releases the lock: holding it, the pull sees the outcome, whereas a read
   * right after the error could run while the server is still committing. A session the server still holds (a
   * link gone silent without closing) keeps the lock; past READ_BACK_LOCK_WAIT, as when the log cannot be reached,
   * the outcome stays unknown and false is answered: the caller hears the error, and a group that did commit
   * reaches the replica at its next pull (a job it accepted is then closed by its node's sweep, NodeDuties).
   */
  private async tookDespite(error: unknown, events: ReadonlyArray<StoredEvent<E>>): Promise<boolean> {
    const last = events[events.length - 1]!;
    try {
      await this.table.sql.begin(async (tx) => {
        await tx`SELECT set_config('lock_timeout', ${READ_BACK_LOCK_WAIT}, true)`;
        await tx`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`;
        await this.pull(tx);
      });
    } catch (readBack) {
      console.error(
        `an append of ${events.length} event(s) at positions ${events[0]!.position}..${last.position} failed (${(error as Error).message}) and could not be read back (${(readBack as Error).message}): whether the log took it is known at this node's next pull`,
      );
      return false;
    }
    return this.replica.hashAt(last.position) === last.hash;
  }
}
