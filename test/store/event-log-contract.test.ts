import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  ConcurrencyError,
  EventSchemaError,
  type EventLog,
  type NewEvent,
  type StoredEvent,
  type StreamWrite,
} from "../../src/store/event-log";
import { GENESIS_HASH, eventHash } from "../../src/store/hash-chain";
import { SqliteEventLog } from "../../src/store/sqlite-event-log";
import { Replica } from "../../src/store/replica";
import { PgEventTable } from "../../src/store/pg-event-table";
import { PgEventLog } from "../../src/store/pg-event-log";
import type { EventMetadata } from "../../events/metadata";
import { eventTypes } from "../../events";
import { tempDataDir } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * The event log's contract, run against both backends as the services use them: SQLite (SqliteEventLog, the default)
 * and PostgreSQL (PgEventLog: several nodes on one database, each with its replica). Same positions, versions, hash
 * chain, refusals.
 */

interface Log {
  append(writes: StreamWrite[], metadata: EventMetadata): Promise<StoredEvent[]>;
  streamVersion(streamId: string): Promise<number>;
  all(): Promise<StoredEvent[]>;
  /** Raw SQL past the log, as a tamperer would send it. */
  raw(statement: string): Promise<unknown>;
  /** A second handle on the same log (another node), for the backends that have one. */
  another?(): Promise<Log>;
  close(): Promise<void>;
}

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const unchecked = (event: { type: string; data: Record<string, unknown> }) => event as unknown as NewEvent;
const grant = (customerId: string, amount: unknown) =>
  unchecked({ type: "CreditsGranted", data: { customerId, amount, reason: "signup" } });
const write = (customerId: string, expectedVersion: number | "any", ...amounts: unknown[]): StreamWrite => ({
  streamId: `credits-${customerId}`,
  expectedVersion,
  events: amounts.map((a) => grant(customerId, a)),
});

/** The chain as an auditor checks it: positions 1..n without a gap, each hash recomputed from the one before. */
function expectChained(events: StoredEvent[]) {
  events.forEach((e, i) => {
    expect(e.position).toBe(i + 1);
    expect(e.prevHash).toBe(i === 0 ? GENESIS_HASH : events[i - 1]!.hash);
    expect(e.hash).toBe(eventHash(e.prevHash, e));
  });
}

let pg: TestPostgres;
let dir: string;
beforeAll(async () => {
  pg = await startPostgres();
  dir = tempDataDir();
});
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The log as the services use it (EventLog), with what the tests read past it: every event, and raw SQL. */
function asLog(log: EventLog, raw: (statement: string) => Promise<unknown>, another?: () => Promise<Log>): Log {
  const all = async () => {
    const events: StoredEvent[] = [];
    for await (const e of log.readLog()) events.push(e);
    return events;
  };
  // A version read as a request reads it: after the read models are brought to the log's head.
  const streamVersion = async (id: string) => (await log.catchUp(), log.streamVersion(id));
  return {
    append: (w, m) => log.append(w, m),
    streamVersion,
    all,
    raw,
    ...(another ? { another } : {}),
    close: () => log.close(),
  };
}

let nodes = 0;
const backends: Array<[string, () => Promise<Log>]> = [
  [
    "SQLite",
    async () => {
      const log = new SqliteEventLog(join(dir, `log-${Date.now()}.sqlite`), eventTypes);
      return asLog(log, async (statement) => log.db.exec(statement));
    },
  ],
  [
    "PostgreSQL",
    async () => {
      const url = await pg.createDatabase(`log_${Date.now()}_${Math.floor(Math.random() * 1e6)}`);
      // Each node: the shared log, and its own replica in a file of its own.
      const node = async (): Promise<Log> => {
        const shared = await PgEventTable.open(url);
        const log = await PgEventLog.open(
          shared,
          new Replica(join(dir, `node-${++nodes}.sqlite`), eventTypes),
          `node_${nodes}`,
        );
        return asLog(log, (statement) => shared.sql.unsafe(statement), node);
      };
      return node();
    },
  ],
];

describe.each(backends)("the event log on %s", (_name, open) => {
  let log: Log;
  beforeAll(async () => {
    log = await open();
  });
  afterAll(async () => {
    await log.close();
  });

  test("appends at position 1 on the genesis hash, numbers streams and chains every event to the one before", async () => {
    const [first] = await log.append([write("cus_a", 0, 10)], META);
    expect([first!.position, first!.streamVersion, first!.prevHash]).toEqual([1, 1, GENESIS_HASH]);
    await log.append([write("cus_a", 1, 5, 6), write("cus_b", 0, 7)], META);
    await log.append([write("cus_a", "any", 8)], META);
    expect(await log.streamVersion("credits-cus_a")).toBe(4);
    const all = await log.all();
    expect(all.map((e) => [e.streamId, e.streamVersion])).toEqual([
      ["credits-cus_a", 1],
      ["credits-cus_a", 2],
      ["credits-cus_a", 3],
      ["credits-cus_b", 1],
      ["credits-cus_a", 4],
    ]);
    expectChained(all);
  });

  test("an event that breaks its schema, or a stale expected version in any stream of the append, writes nothing", async () => {
    const before = (await log.all()).length;
    await expect(log.append([write("cus_c", 0, -5)], META)).rejects.toBeInstanceOf(EventSchemaError);
    await expect(log.append([write("cus_c", 0, 1), write("cus_a", 1, 2)], META)).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    expect(await log.all()).toHaveLength(before);
    expect(await log.streamVersion("credits-cus_c")).toBe(0);
  });

  test("the database itself refuses UPDATE and DELETE on the events", async () => {
    await expect(log.raw("UPDATE events SET data = '{}' WHERE position = 1")).rejects.toThrow(/append-only/);
    await expect(log.raw("DELETE FROM events WHERE position = 1")).rejects.toThrow(/append-only/);
    expectChained(await log.all());
  });
});

test("two PostgreSQL nodes appending at once keep one gap-free order and chain, and each stream's versions", async () => {
  const a = await backends[1]![1]();
  const b = await a.another!();
  try {
    const appendMany = (log: Log, tag: string) =>
      Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          log.append([write(`cus_${i % 5}`, "any", i + 1), write(`cus_${tag}${i}`, 0, 1)], META),
        ),
      );
    await Promise.all([appendMany(a, "a"), appendMany(b, "b")]);
    const all = await a.all();
    expect(all).toHaveLength(240);
    expectChained(all);
    for (let c = 0; c < 5; c++) {
      expect(all.filter((e) => e.streamId === `credits-cus_${c}`).map((e) => e.streamVersion)).toEqual(
        Array.from({ length: 24 }, (_, i) => i + 1),
      );
    }
    // Both nodes deciding on the same version: one append wins, the other is refused.
    const version = await a.streamVersion("credits-cus_0");
    const raced = await Promise.allSettled([
      a.append([write("cus_0", version, 1)], META),
      b.append([write("cus_0", version, 2)], META),
    ]);
    expect(raced.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((raced.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(
      ConcurrencyError,
    );
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
