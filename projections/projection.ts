import type { Database } from "bun:sqlite";
import type { StoredEvent } from "../src/store/event-log";

/**
 * This node's read models as the services hold them: what the query functions of projections/ take, and the one
 * method of the database they use. The services pass it to those functions and write no SQL of their own.
 */
export type ReadModels = Pick<Database, "query">;

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
