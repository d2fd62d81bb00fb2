import type { EventMetadata } from "../../events/metadata";
import type { EventShape, StoredEvent, StreamWrite } from "./event-log";

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
export function settleGroup<E extends EventShape>(
  batch: ReadonlyArray<QueuedAppend<E>>,
  outcomes: ReadonlyArray<GroupOutcome<E>>,
): void {
  batch.forEach((item, i) => {
    const outcome = outcomes[i]!;
    if ("events" in outcome) item.resolve(outcome.events);
    else item.reject(outcome.error);
  });
}

/** The events a group's appends recorded (those refused record none). */
export function recordedIn<E extends EventShape>(outcomes: ReadonlyArray<GroupOutcome<E>>): StoredEvent<E>[] {
  return outcomes.flatMap((o) => ("events" in o ? o.events : []));
}
