import { SQL } from "bun";
import { PgEventStore } from "../src/store/pg-event-store";
import type { StreamWrite } from "../src/store/event-store";
import type { EventMetadata } from "../events/metadata";
import { eventTypes } from "../events";
import { streams } from "../src/domain/accounts";
import { newCustomerId, newKeyId, newRequestId } from "../src/services/ids";
import { startPostgres } from "../test/support/postgres";
import { nowMs } from "./support";

export interface PgAppendResult {
  single: number;
  /** One event per call, one caller: a transaction (and the advisory lock) each. */
  singleRate: number;
  /** The same from `callers` callers at once: the advisory lock serializes them. */
  concurrentRate: number;
  callers: number;
  /** Baseline: the same rows by a bare INSERT, one row a transaction, one caller. */
  rawSingleRate: number;
  version: string;
}

/**
 * Appends through PgEventStore on a throwaway PostgreSQL cluster (Debian's, started here, default settings: fsync
 * and synchronous_commit on), beside bare INSERTs of the same rows into a table of the same shape.
 */
export async function benchPgAppends(opts = { single: 2_000, callers: 16 }): Promise<PgAppendResult> {
  const pg = await startPostgres();
  try {
    const store = await PgEventStore.open(pg.url, eventTypes);
    const customers = Array.from({ length: 200 }, () => newCustomerId());
    const key = newKeyId();
    const meta = (): EventMetadata => ({ requestId: newRequestId(), actor: { kind: "key", id: key }, channel: "api" });
    const write = (i: number): StreamWrite => {
      const customerId = customers[i % customers.length]!;
      return { streamId: streams.credits(customerId), expectedVersion: "any", events: [{ type: "CreditsGranted", data: { customerId, amount: 100, reason: "operator" } }] };
    };
    const version = (await store.sql`SHOW server_version`)[0].server_version as string;
    const t0 = nowMs();
    for (let i = 0; i < opts.single; i++) await store.append([write(i)], meta());
    const singleMs = nowMs() - t0;
    let issued = 0;
    const t1 = nowMs();
    await Promise.all(
      Array.from({ length: opts.callers }, async () => {
        while (issued < opts.single) await store.append([write(issued++)], meta());
      }),
    );
    const concurrentMs = nowMs() - t1;
    const rows = await store.sql`SELECT * FROM events ORDER BY position LIMIT ${opts.single}`;
    await store.close();

    const raw = new SQL(pg.url);
    await raw`CREATE TABLE raw_events (LIKE events INCLUDING ALL)`;
    const t2 = nowMs();
    for (const r of rows) await raw.begin((tx) => tx`INSERT INTO raw_events ${tx(r)}`);
    const rawMs = nowMs() - t2;
    await raw.close();
    return {
      single: opts.single,
      singleRate: (opts.single / singleMs) * 1000,
      concurrentRate: (opts.single / concurrentMs) * 1000,
      callers: opts.callers,
      rawSingleRate: (rows.length / rawMs) * 1000,
      version,
    };
  } finally {
    await pg.stop();
  }
}

if (import.meta.main) console.log(await benchPgAppends());
