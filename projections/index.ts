import type { Database } from "bun:sqlite";
import type { StoredEvent } from "../src/store/event-log";
import type { SqliteEventTable } from "../src/store/sqlite-event-table";
import { sha256Hex } from "../src/store/canonical";
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
import { webhooksProjection } from "./webhooks";
import { runsProjection } from "./runs";

export const projections: readonly Projection[] = [
  organizationsProjection,
  keysProjection,
  peopleProjection,
  sessionsProjection,
  invitationsProjection,
  deviceProjection,
  creditsProjection,
  jobsProjection,
  inboxProjection,
  feedbackProjection,
  webhooksProjection,
  runsProjection,
];

/**
 * Which version of each projection's tables the database holds: the hash of its DDL. A projection whose DDL is new
 * or changed (a release added it, or a table or column to it) is rebuilt from the log when it opens, so an
 * existing data directory needs no manual `assay replay` after an upgrade.
 */
const VERSIONS_DDL = "CREATE TABLE IF NOT EXISTS projection_versions (name TEXT PRIMARY KEY, ddl_sha256 TEXT NOT NULL)";

const ddlHash = (p: Projection) => sha256Hex(p.ddl);

/**
 * Creates read tables if needed, rebuilds those of a new or changed projection, and applies every projection in the
 * transaction that writes each event (of a SQLite log, or of a node's replica of the PostgreSQL one).
 */
export function installProjections(table: SqliteEventTable): void {
  table.db.exec(VERSIONS_DDL);
  const held = new Map(
    table.db
      .query<{ name: string; hash: string }, []>("SELECT name, ddl_sha256 AS hash FROM projection_versions")
      .all()
      .map((r) => [r.name, r.hash]),
  );
  const stale = projections.filter((p) => held.get(p.name) !== ddlHash(p));
  if (stale.length) table.transaction(() => rebuild(table.db, table.readAll(), stale));
  table.onAppend((db, event) => {
    for (const p of projections) p.apply(db, event);
  });
}

/** Replay: drops every read table and folds the whole log into fresh ones (in rebuildReadModels' transaction). */
export function rebuildProjections(db: Database, events: Iterable<StoredEvent>): { events: number } {
  return rebuild(db, events, projections);
}

/** Drops these projections' tables, creates them anew and folds the events into them; records their versions. */
function rebuild(db: Database, log: Iterable<StoredEvent>, which: readonly Projection[]): { events: number } {
  db.exec(VERSIONS_DDL);
  for (const p of which) for (const t of p.tables) db.exec(`DROP TABLE IF EXISTS ${t}`);
  for (const p of which) db.exec(p.ddl);
  let events = 0;
  for (const e of log) {
    for (const p of which) p.apply(db, e);
    events++;
  }
  const record = db.query(
    "INSERT INTO projection_versions (name, ddl_sha256) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET ddl_sha256 = excluded.ddl_sha256",
  );
  for (const p of which) record.run(p.name, ddlHash(p));
  return { events };
}
