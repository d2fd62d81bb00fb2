import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ConcurrencyError, EventStore, GENESIS_HASH, eventHash, type NewEvent, type StoredEvent, type StreamWrite } from "../src/store/event-store";
import { PgEventStore } from "../src/store/pg-event-store";
import { PgEventLog } from "../src/store/pg-event-log";
import type { EventMetadata } from "../events/metadata";
import { eventTypes } from "../events";
import { tempDataDir } from "./support/harness";
import { startPostgres, type TestPostgres } from "./support/postgres";
import { startPgProxy } from "./support/pg-proxy";

/**
 * Issue 24, 5: PostgreSQL commits an append but the acknowledgement never reaches the node (the connection is cut
 * between the server's COMMIT and its answer, by a TCP proxy the test controls). The node reads the log back under
 * the append lock and answers its callers as the log decided: the events, once, when it took them; the error when
 * it did not, with another node's events at those positions told apart by their hash.
 */
setDefaultTimeout(60_000);

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const grant = (customerId: string, amount: number) => ({ type: "CreditsGranted", data: { customerId, amount, reason: "signup" } }) as unknown as NewEvent;
const write = (customerId: string, expectedVersion: number, ...amounts: number[]): StreamWrite => ({
  streamId: `credits-${customerId}`,
  expectedVersion,
  events: amounts.map((a) => grant(customerId, a)),
});

let pg: TestPostgres;
let dir: string;
let databases = 0;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  pg = await startPostgres();
  dir = tempDataDir();
});
/** Each test's nodes and proxy closed after it (a pool each: the server's connections are few). */
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh database with a proxy in front: a node (its copy in SQLite) that reaches it through the proxy, and the log read past it. */
async function setUp() {
  const url = await pg.createDatabase(`lost_ack_${++databases}`);
  const proxy = await startPgProxy(url);
  const node = async (name: string, through: string) =>
    PgEventLog.open(await PgEventStore.open(through), new EventStore(join(dir, `${databases}-${name}.sqlite`), eventTypes), name);
  const a = await node("node_a", proxy.url);
  const audit = await PgEventStore.open(url);
  cleanups.push(async () => {
    await a.close().catch(() => {});
    await audit.close();
    await proxy.stop();
  });
  const log = async () => {
    const events: StoredEvent[] = [];
    for await (const e of audit.readAll()) events.push(e);
    return events;
  };
  return { proxy, a, url, log, node };
}

/** The chain as an auditor checks it: positions 1..n without a gap, each hash recomputed from the one before. */
function expectChained(events: StoredEvent[]) {
  events.forEach((e, i) => {
    expect(e.position).toBe(i + 1);
    expect(e.prevHash).toBe(i === 0 ? GENESIS_HASH : events[i - 1]!.hash);
    expect(e.hash).toBe(eventHash(e.prevHash, e));
  });
}

/** The copy a node keeps holds exactly the log. */
function expectCopyIs(node: PgEventLog, log: StoredEvent[]) {
  expect([...node.local.readAll()].map((e) => e.hash)).toEqual(log.map((e) => e.hash));
}

/** Three callers in one group (one of them refused: a stale expected version), the group marked by org_b's stream. */
function group(node: PgEventLog) {
  return Promise.allSettled([
    node.appendSoon(() => [write("org_b", 0, 1, 2)], META),
    node.appendSoon(() => [write("org_a", 0, 5)], META),
    node.appendSoon(() => [write("org_c", 0, 3)], META),
  ]);
}

describe("an append whose commit acknowledgement is lost", () => {
  test("the log took it: each caller gets what a success answers (the refused one its refusal), each event is in the log once, the copy holds them", async () => {
    const { proxy, a, log } = await setUp();
    await a.append([write("org_a", 0, 10)], META);
    const cut = proxy.cutAtCommit("credits-org_b", "lose-ack");
    const [b, stale, c] = await group(a);
    await cut;
    expect(proxy.cuts).toBe(1);

    expect(b.status).toBe("fulfilled");
    expect(c.status).toBe("fulfilled");
    expect(stale.status === "rejected" && stale.reason).toBeInstanceOf(ConcurrencyError);
    const answered = [...(b as PromiseFulfilledResult<StoredEvent[]>).value, ...(c as PromiseFulfilledResult<StoredEvent[]>).value];
    expect(answered.map((e) => e.position)).toEqual([2, 3, 4]);
    const events = await log();
    expectChained(events);
    expect(events.slice(1)).toEqual(answered);
    expectCopyIs(a, events);
    expect(a.readStream("credits-org_b").map((e) => e.streamVersion)).toEqual([1, 2]);

    // The node goes on from there.
    const [next] = await a.append([write("org_c", 1, 4)], META);
    expect(next!.position).toBe(5);
    expectChained(await log());
  });

  test("the log did not take it (the COMMIT never reached the server): every caller hears the error, nothing is written, the next append takes those positions", async () => {
    const { proxy, a, log } = await setUp();
    await a.append([write("org_a", 0, 10)], META);
    const cut = proxy.cutAtCommit("credits-org_b", "drop-commit");
    const answers = await group(a);
    await cut;
    for (const answer of answers) expect(answer.status).toBe("rejected");
    expect((answers[0] as PromiseRejectedResult).reason).not.toBeInstanceOf(ConcurrencyError);
    expect(await log()).toHaveLength(1);
    expect(a.local.headOf().position).toBe(1);

    const [next] = await a.append([write("org_b", 0, 1)], META);
    expect(next!.position).toBe(2);
    const events = await log();
    expectChained(events);
    expectCopyIs(a, events);
  });

  test("read back after the log moved on: another node appended after the lost acknowledgement, and the group is still found", async () => {
    const { proxy, a, url, log, node } = await setUp();
    const b = await node("node_b", url);
    cleanups.push(() => b.close());
    await a.append([write("org_a", 0, 10)], META);
    const cut = proxy.cutAtCommit("credits-org_b", "lose-ack", { then: "hold" });
    const answers = group(a);
    await cut;
    // While node A's read-back is held, node B (straight to the database) appends after A's committed group.
    const [fromB] = await b.append([write("org_d", 0, 7)], META);
    expect(fromB!.position).toBe(5);
    proxy.restore();
    const [first, stale, third] = await answers;
    expect(first.status).toBe("fulfilled");
    expect(third.status).toBe("fulfilled");
    expect(stale.status === "rejected" && stale.reason).toBeInstanceOf(ConcurrencyError);
    const events = await log();
    expectChained(events);
    expect(events.map((e) => e.metadata.node)).toEqual(["node_a", "node_a", "node_a", "node_a", "node_b"]);
    expectCopyIs(a, events);
  });

  test("read back when another node's events took the positions: told apart by their hash, the callers hear the error", async () => {
    const { proxy, a, url, log, node } = await setUp();
    const b = await node("node_b", url);
    cleanups.push(() => b.close());
    await a.append([write("org_a", 0, 10)], META);
    const cut = proxy.cutAtCommit("credits-org_b", "drop-commit", { then: "hold" });
    const answers = group(a);
    await cut;
    // The group rolled back; node B takes positions 2 to 4 before node A can read back.
    const fromB = await b.append([write("org_b", 0, 1, 2), write("org_c", 0, 3)], META);
    expect(fromB.map((e) => e.position)).toEqual([2, 3, 4]);
    proxy.restore();
    for (const answer of await answers) expect(answer.status).toBe("rejected");
    const events = await log();
    expectChained(events);
    expect(events.slice(1).map((e) => e.metadata.node)).toEqual(["node_b", "node_b", "node_b"]);
    expectCopyIs(a, events);
  });

  test("read back impossible (the database unreachable): the callers hear the error; the node's next pull brings the committed events, once", async () => {
    const { proxy, a, log } = await setUp();
    await a.append([write("org_a", 0, 10)], META);
    const cut = proxy.cutAtCommit("credits-org_b", "lose-ack", { then: "refuse" });
    const answers = await group(a);
    await cut;
    for (const answer of answers) expect(answer.status).toBe("rejected");
    expect(a.local.headOf().position).toBe(1);
    proxy.restore();
    await a.catchUp();
    const events = await log();
    expect(events).toHaveLength(4);
    expectChained(events);
    expectCopyIs(a, events);
  });
});
