import type { Database } from "bun:sqlite";
import type { StoredEvent } from "../src/store/event-log";

/**
 * A read model: tables it owns, and a fold step applied to each event in log order.
 * `apply` reads only its own tables and the event, so replaying the log rebuilds it exactly.
 */
export interface Projection {
  name: string;
  tables: string[];
  ddl: string;
  apply(db: Database, event: StoredEvent): void;
}
