import type { Database } from "bun:sqlite";
import type { EventStore } from "../src/store/event-store";
import type { Projection } from "./projection";
import { organizationsProjection } from "./organizations";
import { keysProjection } from "./keys";
import { peopleProjection } from "./people";
import { sessionsProjection } from "./sessions";
import { invitationsProjection } from "./invitations";
import { deviceProjection } from "./device";
import { creditsProjection } from "./credits";
import { jobsProjection } from "./jobs";
import { inboxProjection } from "./inbox";
import { feedbackProjection } from "./feedback";

export const projections: readonly Projection[] = [organizationsProjection, keysProjection, peopleProjection, sessionsProjection, invitationsProjection, deviceProjection, creditsProjection, jobsProjection, inboxProjection, feedbackProjection];

/** Creates read tables if needed and applies every projection in the append transaction. */
export function installProjections(store: EventStore): void {
  for (const p of projections) store.db.exec(p.ddl);
  store.onAppend((db, event) => {
    for (const p of projections) p.apply(db, event);
  });
}

/** Drops every read table and folds the whole log into fresh ones, in one transaction. */
export function rebuildProjections(store: EventStore): { events: number } {
  let events = 0;
  store.transaction(() => {
    for (const p of projections) for (const t of p.tables) store.db.exec(`DROP TABLE IF EXISTS ${t}`);
    for (const p of projections) store.db.exec(p.ddl);
    for (const e of store.readAll()) {
      for (const p of projections) p.apply(store.db, e);
      events++;
    }
  });
  return { events };
}

/** Every row of every read table, in a stable order: what replay must reproduce exactly. */
export function dumpReadTables(db: Database): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const p of projections) {
    for (const t of p.tables) out[t] = db.query(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
  }
  return out;
}
