import type { AssayEvent } from "../../events";
import type { EventMetadata } from "../../events/metadata";
import type { EventShape, StoredEvent, StreamWrite } from "./event-log";
import type { GroupOutcome } from "./group-commit";
import { SqliteEventTable } from "./sqlite-event-table";

/** A replica was handed an event that does not follow its head, or holds a log the shared one does not. */
export class ReplicaDivergedError extends Error {}

/** Thrown inside a trial's transaction to undo it. */
const UNDO = Symbol("undo");

/**
 * A node's copy of the PostgreSQL log in SQLite, with its read models: only ever a prefix of the shared log. It
 * takes the events the shared log recorded (appendRecorded), and tries a group's decisions on itself without
 * keeping them (trialGroup), which is how PgEventLog decides at the log's head; it never numbers an event itself.
 */
export class Replica<E extends EventShape = AssayEvent> extends SqliteEventTable<E> {
  private readonly hashAtPosition = this.db.prepare<{ hash: string }, [number]>(
    "SELECT hash FROM events WHERE position = ?",
  );

  /**
   * What a group would append, decided and projected exactly as SqliteEventLog's group commit does, then undone:
   * PgEventLog decides on this node's read models, writes the events to the shared log, and only then applies them
   * here (appendRecorded).
   */
  trialGroup(batch: ReadonlyArray<{ decide: () => StreamWrite<E>[]; metadata: EventMetadata }>): GroupOutcome<E>[] {
    let outcomes: GroupOutcome<E>[] = [];
    try {
      this.db
        .transaction(() => {
          outcomes = this.decideGroup(batch);
          throw UNDO;
        })
        .immediate();
    } catch (e) {
      if (e !== UNDO) throw e;
    }
    return outcomes;
  }

  /**
   * Events the shared log recorded (numbered, chained and hashed there), appended here as they are with their
   * projections, in one transaction: how the replica catches up. Each must follow this replica's head (the next
   * position, chained to its hash), or nothing is written.
   */
  appendRecorded(events: ReadonlyArray<StoredEvent<E>>): void {
    if (events.length === 0) return;
    this.transaction(() => {
      let head = this.headOf();
      for (const event of events) {
        if (event.position !== head.position + 1 || event.prevHash !== head.hash) {
          throw new ReplicaDivergedError(`event ${event.position} does not follow this copy's head ${head.position}`);
        }
        this.insertRow(event);
        head = event;
      }
    });
  }

  /** The hash recorded at a position, or null past the replica's end. */
  hashAt(position: number): string | null {
    return this.hashAtPosition.get(position)?.hash ?? null;
  }

  close(): void {
    this.db.close();
  }
}
