import { SQL } from "bun";
import { copyLog, PgEventTable } from "../src/store/pg-event-table";
import { PgEventLog } from "../src/store/pg-event-log";
import type { EventLog, StreamWrite } from "../src/store/event-log";
import type { EventMetadata } from "../events/metadata";
import { openReplica, openSqliteLog } from "../src/app";
import { rebuildProjections } from "../projections";
import { streams } from "../src/domain/accounts";
import { newCustomerId, newKeyId, newRequestId } from "../src/services/ids";
import { startPostgres } from "../test/support/postgres";
import { nowMs, tempDir } from "./support";

export interface PgAppendResult {
  calls: number;
  callers: number;
  /** Through the log services use (PgEventLog: the node's replica, its projections, the advisory lock), one caller. */
  singleRate: number;
  /** The same from `callers` callers at once on one node: group commit, one lock and one fsync a group. */
  groupedRate: number;
  /** `callers` callers on each of two nodes on the same database: the lock serializes the nodes' groups. */
  twoNodesRate: number;
  /** Baseline: the same rows by a bare INSERT, one row a transaction, one caller. */
  rawSingleRate: number;
  /** Beside it: the SQLite log, `callers` callers at once (group commit, synchronous=NORMAL). */
  sqliteGroupedRate: number;
  version: string;
}

const customers = Array.from({ length: 200 }, () => newCustomerId());
const key = newKeyId();
const meta = (): EventMetadata => ({ requestId: newRequestId(), actor: { kind: "key", id: key }, channel: "api" });
const write = (i: number): StreamWrite => {
  const customerId = customers[i % customers.length]!;
  return {
    streamId: streams.credits(customerId),
    expectedVersion: "any",
    events: [{ type: "CreditsGranted", data: { customerId, amount: 100, reason: "operator" } }],
  };
};

/** `calls` appends of one event from `callers` callers at once over the logs given (round robin); events per second. */
async function appendRate(logs: EventLog[], calls: number, callers: number): Promise<number> {
  let issued = 0;
  const t0 = nowMs();
  await Promise.all(
    Array.from({ length: callers * logs.length }, async (_, c) => {
      const log = logs[c % logs.length]!;
      while (issued < calls) await log.append([write(issued++)], meta());
    }),
  );
  return (calls / (nowMs() - t0)) * 1000;
}

/** A node's log on `url` with a fresh replica in a directory of its own. */
async function node(url: string, name: string): Promise<PgEventLog> {
  return PgEventLog.open(await PgEventTable.open(url), openReplica(tempDir(`pg-node-${name}`)), name);
}

/**
 * Appends on a throwaway PostgreSQL cluster (Debian's, started here, default settings: fsync and synchronous_commit
 * on) through the log services use, one node and two, beside bare INSERTs of the same rows and the SQLite log.
 */
export async function benchPgAppends(opts = { calls: 2_000, callers: 16 }): Promise<PgAppendResult> {
  const pg = await startPostgres();
  try {
    const one = await node(pg.url, "bench-a");
    const version = (await new SQL(pg.url)`SHOW server_version`)[0].server_version as string;
    const singleRate = await appendRate([one], opts.calls, 1);
    const groupedRate = await appendRate([one], opts.calls, opts.callers);
    const two = await node(pg.url, "bench-b");
    const twoNodesRate = await appendRate([one, two], opts.calls, opts.callers);
    await one.close();
    await two.close();

    const raw = new SQL(pg.url);
    const rows = await raw`SELECT * FROM events ORDER BY position LIMIT ${opts.calls}`;
    await raw`CREATE TABLE raw_events (LIKE events INCLUDING ALL)`;
    const t0 = nowMs();
    for (const r of rows) await raw.begin((tx) => tx`INSERT INTO raw_events ${tx(r)}`);
    const rawSingleRate = (rows.length / (nowMs() - t0)) * 1000;
    await raw.close();

    const sqlite = openSqliteLog(tempDir("sqlite-log"));
    const appendSoonRate = await (async () => {
      let issued = 0;
      const t1 = nowMs();
      await Promise.all(
        Array.from({ length: opts.callers }, async () => {
          while (issued < opts.calls) await sqlite.appendSoon(() => [write(issued++)], meta());
        }),
      );
      return (opts.calls / (nowMs() - t1)) * 1000;
    })();
    await sqlite.close();
    return {
      calls: opts.calls,
      callers: opts.callers,
      singleRate,
      groupedRate,
      twoNodesRate,
      rawSingleRate,
      sqliteGroupedRate: appendSoonRate,
      version,
    };
  } finally {
    await pg.stop();
  }
}

export interface PgReplayResult {
  events: number;
  /** A node joining with an empty replica: every event pulled from PostgreSQL and projected. */
  pullMs: number;
  /** `assay replay` on SQLite over the same events: rebuildProjections on the file. */
  sqliteReplayMs: number;
}

/** The replay bench's SQLite log (in `dataDir`) copied into PostgreSQL, then a fresh node's pull of it timed beside SQLite's replay. */
export async function benchPgReplay(dataDir: string): Promise<PgReplayResult> {
  const pg = await startPostgres();
  try {
    const source = openSqliteLog(dataDir);
    const target = await PgEventTable.open(pg.url);
    const events = await copyLog(source.readAll(), target);
    const t0 = nowMs();
    await source.rebuildReadModels(rebuildProjections);
    const sqliteReplayMs = nowMs() - t0;
    await source.close();
    const t1 = nowMs();
    const joined = await PgEventLog.open(target, openReplica(tempDir("pg-pull")), "bench-pull");
    const pullMs = nowMs() - t1;
    await joined.close();
    return { events, pullMs, sqliteReplayMs };
  } finally {
    await pg.stop();
  }
}

if (import.meta.main) console.log(await benchPgAppends());
