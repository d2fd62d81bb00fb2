import { Database } from "bun:sqlite";
import { join } from "node:path";
import { openSqliteLog } from "../src/app";
import type { StreamWrite } from "../src/store/event-log";
import { eventsTableDdl } from "../src/store/event-row";
import type { EventMetadata } from "../events/metadata";
import { streams } from "../src/domain/accounts";
import { newCustomerId, newKeyId, newRequestId } from "../src/services/ids";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PHASE_CHANNEL, type PhaseTiming } from "../src/phases";
import { nowMs, tempDir, type RssSampler } from "./support";

export interface AppendResult {
  singleCount: number;
  singleRate: number;
  /** One event per call through appendSoon, from `callers` callers at once: group commit. */
  groupedRate: number;
  callers: number;
  /** Mean appends per commit while they ran. */
  perCommit: number;
  rawSingleRate: number;
  batchCalls: number;
  batchSize: number;
  batchRate: number;
  rawBatchRate: number;
  streams: number;
}

type RawRow = [number, string, number, string, string, string, string, string, string];

/**
 * Appends through the real store (schema validation, optimistic concurrency, hash chain, projections
 * in the same transaction), then inserts the very rows it wrote into a bare bun:sqlite file with the
 * same table and pragmas, with the same transaction boundaries.
 */
export async function benchAppends(
  rss: RssSampler,
  opts = { single: 20_000, batchCalls: 200, streams: 1_000, callers: 64 },
): Promise<AppendResult> {
  const dir = tempDir("append");
  const store = openSqliteLog(dir);
  const customers = Array.from({ length: opts.streams }, () => newCustomerId());
  const versions = new Map<string, number>();
  const keyIds = customers.map(() => newKeyId());
  const meta = (i: number): EventMetadata => ({
    requestId: newRequestId(),
    actor: { kind: "key", id: keyIds[i % keyIds.length] },
    channel: "api",
  });
  const reasons = ["monthly", "feedback", "operator"] as const;
  const grant = (customerId: string, n: number) => ({
    type: "CreditsGranted" as const,
    data: { customerId, amount: 100 + (n % 900), reason: reasons[n % reasons.length]! },
  });
  const write = (c: number, count: number, n: number): StreamWrite => {
    const customerId = customers[c]!;
    const streamId = streams.credits(customerId);
    const expectedVersion = versions.get(streamId) ?? 0;
    versions.set(streamId, expectedVersion + count);
    return { streamId, expectedVersion, events: Array.from({ length: count }, (_, k) => grant(customerId, n + k)) };
  };

  // Single-event appends: one append() call, one transaction, one event, round-robin over streams.
  const t0 = nowMs();
  for (let i = 0; i < opts.single; i++) {
    await store.append([write(i % customers.length, 1, i)], meta(i));
    if ((i & 1023) === 0) rss.sample();
  }
  const singleMs = nowMs() - t0;

  // The same single-event appends through appendSoon from `callers` callers at once, each awaiting its commit
  // before its next append (as request handlers do): group commit puts what arrives in one turn in one commit.
  let commits = 0;
  const onPhase = (m: unknown) => void ((m as PhaseTiming).phase === "group commit" && commits++);
  subscribe(PHASE_CHANNEL, onPhase);
  const before = store.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM events").get()!.n;
  let issued = 0;
  const t4 = nowMs();
  try {
    await Promise.all(
      Array.from({ length: opts.callers }, async () => {
        while (issued < opts.single) {
          const i = issued++;
          await store.appendSoon(() => [write(i % customers.length, 1, opts.single + i)], meta(i));
          if ((i & 1023) === 0) rss.sample();
        }
      }),
    );
  } finally {
    unsubscribe(PHASE_CHANNEL, onPhase);
  }
  const groupedMs = nowMs() - t4;
  const afterSingle = 2 * opts.single;
  if (store.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM events").get()!.n !== before + opts.single)
    throw new Error("grouped appends lost events");

  // Batched appends: 100 events in one append() call, as 10 stream writes of 10 events each.
  const perStream = 10;
  const writesPerCall = 10;
  const batchSize = perStream * writesPerCall;
  const t1 = nowMs();
  for (let b = 0; b < opts.batchCalls; b++) {
    const writes: StreamWrite[] = [];
    for (let w = 0; w < writesPerCall; w++)
      writes.push(write((b * writesPerCall + w) % customers.length, perStream, b * batchSize + w * perStream));
    await store.append(writes, meta(b));
    if ((b & 15) === 0) rss.sample();
  }
  const batchMs = nowMs() - t1;
  const total = afterSingle + opts.batchCalls * batchSize;
  const written = store.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM events").get()!.n;
  if (written !== total) throw new Error(`expected ${total} events in the log, found ${written}`);
  const rows = store.db
    .query<RawRow, []>(
      "SELECT position, stream_id, stream_version, type, data, metadata, recorded_at, prev_hash, hash FROM events ORDER BY position",
    )
    .values() as RawRow[];
  await store.close();
  rss.sample();

  // Baseline: the same rows through a prepared INSERT on a bare file, same pragmas and transactions.
  const raw = new Database(join(dir, "raw.sqlite"), { create: true, strict: true });
  raw.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -65536; PRAGMA wal_autocheckpoint = 10000;",
  );
  raw.exec(eventsTableDdl("sqlite"));
  const insert = raw.prepare(
    "INSERT INTO events (position, stream_id, stream_version, type, data, metadata, recorded_at, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertOne = raw.transaction((r: RawRow) => insert.run(...r));
  const insertMany = raw.transaction((rs: RawRow[]) => {
    for (const r of rs) insert.run(...r);
  });
  const t2 = nowMs();
  for (let i = 0; i < afterSingle; i++) insertOne.immediate(rows[i]!);
  const rawSingleMs = nowMs() - t2;
  const t3 = nowMs();
  for (let i = afterSingle; i < total; i += batchSize) insertMany.immediate(rows.slice(i, i + batchSize));
  const rawBatchMs = nowMs() - t3;
  raw.close();
  rss.sample();

  return {
    singleCount: opts.single,
    singleRate: (opts.single / singleMs) * 1000,
    groupedRate: (opts.single / groupedMs) * 1000,
    callers: opts.callers,
    perCommit: opts.single / Math.max(commits, 1),
    rawSingleRate: (afterSingle / rawSingleMs) * 1000,
    batchCalls: opts.batchCalls,
    batchSize,
    batchRate: ((opts.batchCalls * batchSize) / batchMs) * 1000,
    rawBatchRate: ((total - afterSingle) / rawBatchMs) * 1000,
    streams: opts.streams,
  };
}
