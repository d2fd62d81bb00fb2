import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import nodemailer from "nodemailer";
import { ConcurrencyError, type NewEvent, type StoredEvent, type StreamWrite } from "../../src/store/event-log";
import { GENESIS_HASH, eventHash } from "../../src/store/hash-chain";
import { Replica } from "../../src/store/replica";
import { PgEventTable } from "../../src/store/pg-event-table";
import { PgEventLog } from "../../src/store/pg-event-log";
import type { EventMetadata } from "../../events/metadata";
import { eventTypes } from "../../events";
import { htmlJob, runCli, spawnServer, tempDataDir, type ServerProcess } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { startPgProxy, type PgProxy } from "../support/pg-proxy";
import { smtpSession, trailheadMessage } from "../support/smtp-session";

/**
 * Issue 24, 5: PostgreSQL commits an append but the acknowledgement never reaches the node (the connection is cut
 * between the server's COMMIT and its answer, by a TCP proxy the test controls). The node reads the log back under
 * the append lock and answers its callers as the log decided: the events, once, when it took them; the error when
 * it did not, with another node's events at those positions told apart by their hash. Through `assay serve` (its
 * ASSAY_DATABASE_URL the proxy): a job whose acceptance or settlement loses its acknowledgement is answered and
 * settled once; one whose acceptance committed while the database then stayed out of reach (its caller heard an
 * error) is closed, refunded, by its own live node's sweep; a message whose arrival committed so is checked by it.
 */
setDefaultTimeout(60_000);

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const grant = (customerId: string, amount: number) =>
  ({ type: "CreditsGranted", data: { customerId, amount, reason: "signup" } }) as unknown as NewEvent;
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

/** Each node's replica, which the tests read past the node's log. */
const replicas = new Map<PgEventLog, Replica>();

/**
 * A fresh database with a proxy in front: node A (its replica in SQLite) reaching it through the proxy, its first
 * event appended, and the log read past the proxy.
 */
async function setUp() {
  const url = await pg.createDatabase(`lost_ack_${++databases}`);
  const proxy = await startPgProxy(url);
  const node = async (name: string, through: string) => {
    const replica = new Replica(join(dir, `${databases}-${name}.sqlite`), eventTypes);
    const log = await PgEventLog.open(await PgEventTable.open(through), replica, name);
    replicas.set(log, replica);
    return log;
  };
  const a = await node("node_a", proxy.url);
  const audit = await PgEventTable.open(url);
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
  await a.append([write("org_a", 0, 10)], META);
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

/** The replica a node keeps holds exactly the log. */
function expectCopyIs(node: PgEventLog, log: StoredEvent[]) {
  expect([...replicas.get(node)!.readAll()].map((e) => e.hash)).toEqual(log.map((e) => e.hash));
}

/** Three callers in one group (one of them refused: a stale expected version), the group marked by org_b's stream. */
function group(node: PgEventLog) {
  return Promise.allSettled([
    node.appendSoon(() => [write("org_b", 0, 1, 2)], META),
    node.appendSoon(() => [write("org_a", 0, 5)], META),
    node.appendSoon(() => [write("org_c", 0, 3)], META),
  ]);
}

/**
 * Node A's group cut at its COMMIT (`how`), the database then silent; meanwhile node B, straight to the database,
 * appends (`meanwhile`); then the database answers again, and A reads back.
 */
async function cutWhileAnotherAppends(
  how: "lose-ack" | "drop-commit",
  meanwhile: (b: PgEventLog) => Promise<StoredEvent[]>,
) {
  const { proxy, a, url, log, node } = await setUp();
  const b = await node("node_b", url);
  cleanups.push(() => b.close());
  const cut = proxy.cutAtCommit("credits-org_b", how, { afterCut: "hold" });
  const answers = group(a);
  await cut;
  const fromB = await meanwhile(b);
  proxy.restore();
  return { a, log, fromB, answers: await answers };
}

describe("an append whose commit acknowledgement is lost", () => {
  test("the log took it: each caller gets what a success answers (the refused one its refusal), each event is in the log once, the copy holds them", async () => {
    const { proxy, a, log } = await setUp();
    const cut = proxy.cutAtCommit("credits-org_b", "lose-ack");
    const [b, stale, c] = await group(a);
    await cut;
    expect(proxy.cuts).toBe(1);

    expect(b.status).toBe("fulfilled");
    expect(c.status).toBe("fulfilled");
    expect(stale.status === "rejected" && stale.reason).toBeInstanceOf(ConcurrencyError);
    const answered = [
      ...(b as PromiseFulfilledResult<StoredEvent[]>).value,
      ...(c as PromiseFulfilledResult<StoredEvent[]>).value,
    ];
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
    const cut = proxy.cutAtCommit("credits-org_b", "drop-commit");
    const answers = await group(a);
    await cut;
    for (const answer of answers) expect(answer.status).toBe("rejected");
    expect((answers[0] as PromiseRejectedResult).reason).not.toBeInstanceOf(ConcurrencyError);
    expect(await log()).toHaveLength(1);
    expect(a.position()).toBe(1);

    const [next] = await a.append([write("org_b", 0, 1)], META);
    expect(next!.position).toBe(2);
    const events = await log();
    expectChained(events);
    expectCopyIs(a, events);
  });

  test("read back after the log moved on: another node appended after the lost acknowledgement, and the group is still found", async () => {
    // While node A's read-back is held, node B appends after A's committed group.
    const { a, log, fromB, answers } = await cutWhileAnotherAppends("lose-ack", (b) =>
      b.append([write("org_d", 0, 7)], META),
    );
    expect(fromB.map((e) => e.position)).toEqual([5]);
    const [first, stale, third] = answers;
    expect(first.status).toBe("fulfilled");
    expect(third.status).toBe("fulfilled");
    expect(stale.status === "rejected" && stale.reason).toBeInstanceOf(ConcurrencyError);
    const events = await log();
    expectChained(events);
    expect(events.map((e) => e.metadata.node)).toEqual(["node_a", "node_a", "node_a", "node_a", "node_b"]);
    expectCopyIs(a, events);
  });

  test("read back when another node's events took the positions: told apart by their hash, the callers hear the error", async () => {
    // The group rolled back; node B takes positions 2 to 4 before node A can read back.
    const { a, log, fromB, answers } = await cutWhileAnotherAppends("drop-commit", (b) =>
      b.append([write("org_b", 0, 1, 2), write("org_c", 0, 3)], META),
    );
    expect(fromB.map((e) => e.position)).toEqual([2, 3, 4]);
    for (const answer of answers) expect(answer.status).toBe("rejected");
    const events = await log();
    expectChained(events);
    expect(events.slice(1).map((e) => e.metadata.node)).toEqual(["node_b", "node_b", "node_b"]);
    expectCopyIs(a, events);
  });

  test("read back impossible (the database unreachable): the callers hear the error; the node's next pull brings the committed events, once", async () => {
    const { proxy, a, log } = await setUp();
    const cut = proxy.cutAtCommit("credits-org_b", "lose-ack", { afterCut: "refuse" });
    const answers = await group(a);
    await cut;
    for (const answer of answers) expect(answer.status).toBe("rejected");
    expect(a.position()).toBe(1);
    proxy.restore();
    await a.catchUp();
    const events = await log();
    expect(events).toHaveLength(4);
    expectChained(events);
    expectCopyIs(a, events);
  });
});

describe("assay serve on PostgreSQL through the proxy", () => {
  const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Walking boots | Trailhead</title></head><body><h1>Walking boots</h1></body></html>`;
  const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];
  let url: string;
  let proxy: PgProxy;
  let node: ServerProcess;
  let nodeId: string;
  const dataDir = tempDataDir();
  const verifyDir = tempDataDir();

  beforeAll(async () => {
    url = await pg.createDatabase("serve_node");
    proxy = await startPgProxy(url);
    // The node's own sweep runs every half of ASSAY_NODE_TIMEOUT_SECONDS: each second here.
    node = await spawnServer(dataDir, { ASSAY_DATABASE_URL: proxy.url, ASSAY_NODE_TIMEOUT_SECONDS: "2" });
    nodeId = (await node.api("GET", "/healthz")).body.node;
  });
  afterAll(async () => {
    await node?.kill("SIGTERM");
    await proxy?.stop();
    for (const d of [dataDir, verifyDir]) rmSync(d, { recursive: true, force: true });
  });

  /** One job's events in the shared log, read past the proxy as an auditor would. */
  async function eventsOf(jobId: string): Promise<Array<{ type: string; data: any; metadata: any }>> {
    const sql = new SQL(url, { max: 1 });
    try {
      const rows: Array<{ type: string; data: string; metadata: string }> =
        await sql`SELECT type, data, metadata FROM events WHERE data::json->>'jobId' = ${jobId} ORDER BY position`;
      return rows.map((r) => ({ type: r.type, data: JSON.parse(r.data), metadata: JSON.parse(r.metadata) }));
    } finally {
      await sql.close();
    }
  }

  /** Charged once and settled once in the log; the balance is the opening one less what was kept; the ledger verifies. */
  async function expectSettledOnce(key: string, jobId: string, opening: number) {
    const events = await eventsOf(jobId);
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect([count("JobAccepted"), count("CreditsCharged"), count("JobSettled")]).toEqual([1, 1, 1]);
    expect(count("CreditsRefunded")).toBeLessThanOrEqual(1);
    const charged = events.find((e) => e.type === "CreditsCharged")!.data.amount as number;
    const refunded = events
      .filter((e) => e.type === "CreditsRefunded")
      .reduce((n, e) => n + (e.data.amount as number), 0);
    expect((await node.api("GET", "/api/credits", { key })).body.balance).toBe(opening - charged + refunded);
    const verify = await runCli(["ledger", "verify", "--json"], { DATA_DIR: verifyDir, ASSAY_DATABASE_URL: url });
    expect(JSON.parse(verify.stdout).problems).toEqual([]);
    expect(verify.code).toBe(0);
    return { events, charged, refunded };
  }

  async function organization() {
    const { apiKey: key } = await node.signup();
    return { key, opening: (await node.api("GET", "/api/credits", { key })).body.balance as number };
  }

  /** The job as its organization reads it, once `done` holds (the node's sweep acts in the background). */
  async function jobWhen(key: string, done: (job: any) => boolean): Promise<any> {
    for (let i = 0; i < 600; i++) {
      const { body } = await node.api("GET", "/api/jobs?detail=verbose", { key });
      if (body.jobs?.length && done(body.jobs[0])) return body.jobs[0];
      await Bun.sleep(100);
    }
    throw new Error("the job never reached the state awaited");
  }

  for (const marker of ["JobAccepted", "JobSettled"]) {
    test(`the ${marker === "JobAccepted" ? "acceptance and charge" : "settlement"} commits and its acknowledgement is lost: the caller gets the job, settled once`, async () => {
      const { key, opening } = await organization();
      const cut = proxy.cutAtCommit(marker, "lose-ack");
      const answer = await node.api("POST", "/api/jobs", { key, body: htmlJob(PAGE, ["page-title"]) });
      await cut;
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe("completed");
      const { charged, refunded } = await expectSettledOnce(key, answer.body.jobId, opening);
      expect([charged, refunded]).toEqual([answer.body.credits.charged, 0]);
    });
  }

  test("the acceptance commits while the database then stays out of reach: the caller hears an error, and the node's own sweep closes the job, refunded, once", async () => {
    const { key, opening } = await organization();
    const cut = proxy.cutAtCommit("JobAccepted", "lose-ack", { afterCut: "refuse" });
    const answer = await node.api("POST", "/api/jobs", { key, body: htmlJob(PAGE, ["page-title"]) });
    await cut;
    expect(answer.status).toBe(500);
    expect(answer.body.code).toBe("INTERNAL_ERROR");
    // The log took the job and its charge, which the caller was told failed.
    const sql = new SQL(url, { max: 1 });
    const [accepted] =
      await sql`SELECT data::json->>'jobId' AS job FROM events WHERE type = 'JobAccepted' ORDER BY position DESC LIMIT 1`;
    await sql.close();
    const jobId = accepted.job as string;
    expect((await eventsOf(jobId)).map((e) => e.type)).toEqual(["JobAccepted", "CreditsCharged"]);

    proxy.restore();
    const job = await jobWhen(key, (j) => j.status !== "running");
    expect(job.jobId).toBe(jobId);
    expect(job.status).toBe("interrupted");
    expect(job.results.every((r: any) => r.verdict === "error")).toBe(true);
    const { events, charged, refunded } = await expectSettledOnce(key, jobId, opening);
    expect(refunded).toBe(charged);
    // Closed by the node that took it, while it ran on: not by a restart, nor by another node.
    expect(events.find((e) => e.type === "JobSettled")!.metadata.node).toBe(nodeId);
    expect(node.log()).toContain("Closed 1 webpage job(s) of this node that it was not running");
    expect(node.log()).not.toContain("cut off by the last stop");
  });

  test("a message's arrival commits while the database then stays out of reach: the inbox answers 451, and the node's own sweep checks the message, once", async () => {
    const { key, opening } = await organization();
    const { body: job } = await node.api("POST", "/api/jobs", {
      key,
      body: { type: "email", validations: EMAIL_CHECKS },
    });
    const cut = proxy.cutAtCommit("EmailReceived", "lose-ack", { afterCut: "refuse" });
    const sent = await nodemailer
      .createTransport({ host: "127.0.0.1", port: node.smtpPort, secure: false, ignoreTLS: true })
      .sendMail(trailheadMessage(job.testEmail))
      .catch((e: Error & { responseCode?: number }) => e);
    await cut;
    expect(sent).toBeInstanceOf(Error);
    expect((sent as Error & { responseCode?: number }).responseCode).toBe(451);
    expect((await eventsOf(job.jobId)).map((e) => e.type)).toEqual(["JobAccepted", "CreditsCharged", "EmailReceived"]);

    proxy.restore();
    const checked = await jobWhen(key, (j) => j.status !== "pending" && j.status !== "received");
    expect(checked.status).toBe("completed");
    expect(checked.results.map((r: any) => [r.validationId, r.verdict])).toEqual(
      EMAIL_CHECKS.map((id) => [id, "pass"]),
    );
    await expectSettledOnce(key, job.jobId, opening);
    // The sender's retry finds the address used: the message is not taken twice.
    const retry = await smtpSession(node.smtpPort, [
      "EHLO lost-ack.test",
      "MAIL FROM:<offers@trailhead.example>",
      `RCPT TO:<${job.testEmail}>`,
      "QUIT",
    ]);
    expect(retry[3]).toMatch(/^5\d\d /);
  });
});
