import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { PHASE_CHANNEL, type PhaseTiming } from "../../src/phases";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ConcurrencyError, EventSchemaError, type NewEvent } from "../../src/store/event-log";
import { GENESIS_HASH } from "../../src/store/hash-chain";
import { SqliteEventLog } from "../../src/store/sqlite-event-log";
import type { EventMetadata } from "../../events/metadata";
import { eventTypes } from "../../events";
import { installProjections, projections } from "../../projections";
import type { ReadModels } from "../../projections/projection";
import {
  appendTo,
  eventsOf,
  htmlJob,
  runCli,
  startServer,
  tempDataDir,
  uniqueEmail,
  type TestServer,
} from "../support/harness";
import { inSession, signIn, signInThrough, startMailRelay, type MailRelay } from "../support/mail-relay";
import { startPostgres } from "../support/postgres";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { openEventLog } from "../../src/app";
import { loadConfig } from "../../src/config";
import { streams } from "../../src/domain/accounts";

/**
 * The event log itself: append-only in the database, schema-checked at append, optimistic concurrency
 * per stream, replay rebuilding identical read tables, and tamper detection by `assay ledger verify`.
 */

const HOOK_TIMEOUT = 120_000;
// Bun 1.4 ignores bunfig's [test] timeout; so that this file also runs alone (without npm test's --timeout), set the room here.
setDefaultTimeout(120_000);

/** Every row of every read table, in a stable order: what replay must reproduce exactly. */
function dumpReadTables(db: ReadModels): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const p of projections) {
    for (const t of p.tables) out[t] = db.query(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
  }
  return out;
}

const META: EventMetadata = { actor: { kind: "system" }, channel: "system" };
const PAGE = '<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>';
const BAD = "<html><body><h1>a</h1><h1>b</h1><img src='/x.png'></body></html>";

describe("SqliteEventLog on a temporary file", () => {
  let dir: string;
  let store: SqliteEventLog;
  beforeAll(() => {
    dir = tempDataDir();
    store = new SqliteEventLog(join(dir, "events.sqlite"), eventTypes);
  });
  afterAll(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Past the compiler on purpose: these cases prove the log also refuses, at run time, events its types forbid. */
  const unchecked = (event: { type: string; data: Record<string, unknown> }) => event as unknown as NewEvent;
  const grant = (customerId: string, amount: unknown, extra: Record<string, unknown> = {}) =>
    unchecked({ type: "CreditsGranted", data: { customerId, amount, reason: "signup", ...extra } });

  test("an event that matches its schema is appended at position 1 on the genesis hash", async () => {
    const [e] = await store.append(
      [{ streamId: "credits-cus_a", expectedVersion: 0, events: [grant("cus_a", 10)] }],
      META,
    );
    expect(e!.position).toBe(1);
    expect(e!.streamVersion).toBe(1);
    expect(e!.prevHash).toBe(GENESIS_HASH);
    expect(e!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test.each([
    ["a negative amount", grant("cus_a", -5)],
    ["an amount of the wrong type", grant("cus_a", "ten")],
    ["an unknown reason", grant("cus_a", 5, { reason: "gift" })],
    ["an extra property", grant("cus_a", 5, { memo: "hi" })],
    ["a missing property", unchecked({ type: "CreditsGranted", data: { customerId: "cus_a", amount: 5 } })],
    ["an unknown event type", unchecked({ type: "CreditsConjured", data: { customerId: "cus_a", amount: 5 } })],
  ])("an event with %s is refused at append and nothing is written", async (_name, event) => {
    await expect(
      store.append([{ streamId: "credits-cus_a", expectedVersion: 1, events: [event] }], META),
    ).rejects.toBeInstanceOf(EventSchemaError);
    expect([...store.readAll()]).toHaveLength(1);
    expect(store.streamVersion("credits-cus_a")).toBe(1);
  });

  test("a batch holding one invalid event is refused whole", async () => {
    await expect(
      store.append(
        [{ streamId: "credits-cus_a", expectedVersion: 1, events: [grant("cus_a", 1), grant("cus_a", -1)] }],
        META,
      ),
    ).rejects.toBeInstanceOf(EventSchemaError);
    expect(store.streamVersion("credits-cus_a")).toBe(1);
  });

  test("a wrong expectedVersion throws ConcurrencyError and writes nothing", async () => {
    let error: unknown;
    try {
      await store.append([{ streamId: "credits-cus_a", expectedVersion: 0, events: [grant("cus_a", 1)] }], META);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConcurrencyError);
    expect((error as ConcurrencyError).streamId).toBe("credits-cus_a");
    expect((error as ConcurrencyError).expected).toBe(0);
    expect((error as ConcurrencyError).actual).toBe(1);
    await expect(
      store.append([{ streamId: "credits-cus_a", expectedVersion: 5, events: [grant("cus_a", 1)] }], META),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(store.streamVersion("credits-cus_a")).toBe(1);
  });

  test("two writers reading the same version: the first wins, the second gets ConcurrencyError", async () => {
    const seen = store.streamVersion("credits-cus_a");
    await store.append([{ streamId: "credits-cus_a", expectedVersion: seen, events: [grant("cus_a", 2)] }], META);
    await expect(
      store.append([{ streamId: "credits-cus_a", expectedVersion: seen, events: [grant("cus_a", 3)] }], META),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(store.readStream("credits-cus_a").map((e) => (e.data as { amount: number }).amount)).toEqual([10, 2]);
  });

  test("a multi-stream write with one stale stream writes none of its streams", async () => {
    const before = [...store.readAll()].length;
    await expect(
      store.append(
        [
          { streamId: "credits-cus_b", expectedVersion: 0, events: [grant("cus_b", 7)] },
          { streamId: "credits-cus_a", expectedVersion: 0, events: [grant("cus_a", 7)] },
        ],
        META,
      ),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect([...store.readAll()]).toHaveLength(before);
    expect(store.streamVersion("credits-cus_b")).toBe(0);
  });

  test("expectedVersion any appends after whatever is there, chaining each hash to the previous one", async () => {
    await store.append([{ streamId: "credits-cus_a", expectedVersion: "any", events: [grant("cus_a", 4)] }], META);
    const all = [...store.readAll()];
    for (let i = 1; i < all.length; i++) {
      expect(all[i]!.position).toBe(all[i - 1]!.position + 1);
      expect(all[i]!.prevHash).toBe(all[i - 1]!.hash);
    }
  });

  test("a durable append is synced at its commit (synchronous FULL) and the appends after it go back to NORMAL", async () => {
    const synchronous = () => store.db.query<{ synchronous: number }, []>("PRAGMA synchronous").get()!.synchronous;
    const during: number[] = [];
    store.onAppend(() => void during.push(synchronous()));
    expect(synchronous()).toBe(1);
    const [stored] = await store.append(
      [{ streamId: "credits-cus_d", expectedVersion: 0, events: [grant("cus_d", 3)] }],
      META,
      { durable: true },
    );
    expect(store.readStream("credits-cus_d").map((e) => e.hash)).toEqual([stored!.hash]);
    await store.append([{ streamId: "credits-cus_d", expectedVersion: 1, events: [grant("cus_d", 1)] }], META);
    expect(during).toEqual([2, 1]);
    expect(synchronous()).toBe(1);
    // Refused (a stale version), it still leaves the connection at NORMAL.
    await expect(
      store.append([{ streamId: "credits-cus_d", expectedVersion: 0, events: [grant("cus_d", 3)] }], META, {
        durable: true,
      }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(synchronous()).toBe(1);
  });

  describe("group commit (appendSoon)", () => {
    /** How many group commits ran while `fn` did, counted on the phase channel. */
    async function countingCommits<T>(fn: () => Promise<T>): Promise<{ result: T; commits: number }> {
      let commits = 0;
      const onPhase = (m: unknown) => void ((m as PhaseTiming).phase === "group commit" && commits++);
      subscribe(PHASE_CHANNEL, onPhase);
      try {
        return { result: await fn(), commits };
      } finally {
        unsubscribe(PHASE_CHANNEL, onPhase);
      }
    }
    /** Appends one grant on top of whatever the stream holds when its turn in the group comes. */
    const grantNext = (customerId: string, amount: unknown) => () => [
      {
        streamId: `credits-${customerId}`,
        expectedVersion: store.streamVersion(`credits-${customerId}`),
        events: [grant(customerId, amount)],
      },
    ];

    test("appends arriving in one turn share one commit, each decided on the state the ones before it left, chained in arrival order", async () => {
      const headBefore = [...store.readAll()].at(-1)!;
      const { result, commits } = await countingCommits(() =>
        Promise.all(Array.from({ length: 20 }, (_, i) => store.appendSoon(grantNext("cus_g", i + 1), META))),
      );
      expect(commits).toBe(1);
      // Twenty callers read the same stream at the same moment; none conflicts, each follows the one before.
      expect(result.map(([e]) => e!.streamVersion)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(result.map(([e]) => e!.position)).toEqual(
        Array.from({ length: 20 }, (_, i) => headBefore.position + i + 1),
      );
      expect(result[0]![0]!.prevHash).toBe(headBefore.hash);
      const all = [...store.readAll()];
      for (let i = 1; i < all.length; i++) expect(all[i]!.prevHash).toBe(all[i - 1]!.hash);
    });

    test("each promise settles after the commit: another connection already reads the event", async () => {
      const [e] = await store.appendSoon(grantNext("cus_h", 7), META);
      const other = new Database(join(dir, "events.sqlite"), { readonly: true });
      try {
        expect(
          other.query<{ hash: string }, [number]>("SELECT hash FROM events WHERE position = ?").get(e!.position)?.hash,
        ).toBe(e!.hash);
      } finally {
        other.close();
      }
    });

    test("a caller whose decision fails, is stale or breaks the schema is refused alone; the rest of its group commits", async () => {
      const before = [...store.readAll()].length;
      const outcomes = await Promise.allSettled([
        store.appendSoon(grantNext("cus_i", 1), META),
        store.appendSoon(() => [{ streamId: "credits-cus_i", expectedVersion: 0, events: [grant("cus_i", 2)] }], META),
        store.appendSoon(grantNext("cus_i", -3), META),
        store.appendSoon(() => {
          throw new Error("the decider refused");
        }, META),
        store.appendSoon(grantNext("cus_i", 4), META),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "rejected", "rejected", "fulfilled"]);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(ConcurrencyError);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(EventSchemaError);
      expect(((outcomes[3] as PromiseRejectedResult).reason as Error).message).toBe("the decider refused");
      expect(store.readStream("credits-cus_i").map((e) => (e.data as { amount: number }).amount)).toEqual([1, 4]);
      expect([...store.readAll()]).toHaveLength(before + 2);
    });

    test("a synchronous append after queued ones commits them first, so the log keeps arrival order", async () => {
      const queued = store.appendSoon(grantNext("cus_j", 1), META);
      const [now] = await store.append(
        [{ streamId: "credits-cus_j", expectedVersion: 1, events: [grant("cus_j", 2)] }],
        META,
      );
      const [first] = await queued;
      expect([first!.streamVersion, now!.streamVersion]).toEqual([1, 2]);
      expect(now!.prevHash).toBe(first!.hash);
    });
  });
});

describe("the service's event log", () => {
  let dataDir: string;
  let server: TestServer;
  let target: ReturnType<typeof Bun.serve>;
  let relay: MailRelay;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  let stopped = false;
  /** The CLI commands below work on the data directory as an operator would: with the server down. */
  const stopServer = async () => {
    if (!stopped) await server.stop();
    stopped = true;
  };
  const dbPath = () => join(dataDir, "assay.sqlite");
  /** Every read table as the data directory holds it now. */
  const read = () => {
    const db = new Database(dbPath(), { readonly: true });
    try {
      return dumpReadTables(db);
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    dataDir = tempDataDir();
    // A url job against a local 500 gives an interrupted, refunded job in the log too.
    target = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("down", { status: 500 }) });
    relay = await startMailRelay();
    server = await startServer({
      DATA_DIR: dataDir,
      ASSAY_ALLOW_PRIVATE_TARGETS: "1",
      ASSAY_MAIL_RELAY_URL: relay.url,
    });
    env = server.env;
    const a = await server.signup();
    const b = await server.signup();
    // Webhooks: an endpoint for each organization before their jobs, so each settled job makes a delivery.
    receiver = startWebhookReceiver();
    const endpoints = [];
    for (const org of [a, b]) {
      const res = await server.api("POST", "/api/webhooks", {
        key: org.apiKey,
        body: { url: receiver.url("/hooks"), events: ["job.completed"], description: "replay" },
      });
      expect(res.status).toBe(201);
      endpoints.push({ key: org.apiKey, endpointId: res.body.endpointId as string });
    }
    const runs = [
      { key: a.apiKey, body: htmlJob(PAGE, undefined, { validationSetId: "web-essentials" }) },
      {
        key: a.apiKey,
        body: htmlJob(BAD, ["single-h1", "required-text-present", { id: "page-title", severity: "info" }], {
          detail: "verbose",
        }),
      },
      { key: b.apiKey, body: htmlJob(BAD, [{ id: "required-text-present", parameters: { text: ["a", "missing"] } }]) },
      { key: b.apiKey, body: { type: "url", url: `${target.url.origin}/`, validations: ["page-title", "html-lang"] } },
    ];
    for (const r of runs) {
      const res = await server.api("POST", "/api/jobs", r);
      if (res.status !== 200) throw new Error(`job failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    // A refusal between them changes nothing.
    const refused = await server.api("POST", "/api/jobs", { key: a.apiKey, body: htmlJob(PAGE, ["nope"]) });
    expect(refused.status).toBe(400);
    // Each job's delivery made; one replayed, a's secret rotated, b's endpoint (and its log) removed.
    const delivered = async (key: string, endpointId: string, attempts: number) => {
      for (let i = 0; i < 600; i++) {
        const { body } = await server.api("GET", `/api/webhooks/${endpointId}/deliveries`, { key });
        const done = body.deliveries.filter((d: any) => d.status === "delivered");
        if (done.length === 2 && done.reduce((n: number, d: any) => n + d.attemptCount, 0) === attempts)
          return body.deliveries;
        await Bun.sleep(50);
      }
      throw new Error(`the deliveries to ${endpointId} never settled`);
    };
    const [hookA, hookB] = endpoints as [(typeof endpoints)[0], (typeof endpoints)[0]];
    const [replayed] = await delivered(hookA.key, hookA.endpointId, 2);
    await delivered(hookB.key, hookB.endpointId, 2);
    const replay = `/api/webhooks/${hookA.endpointId}/deliveries/${replayed.deliveryId}/replay`;
    expect((await server.api("POST", replay, { key: hookA.key })).status).toBe(202);
    await delivered(hookA.key, hookA.endpointId, 3);
    expect(
      (await server.api("POST", `/api/webhooks/${hookA.endpointId}/rotate-secret`, { key: hookA.key })).status,
    ).toBe(200);
    expect((await server.api("DELETE", `/api/webhooks/${hookB.endpointId}`, { key: hookB.key })).status).toBe(200);
    // Runs: one on main (the project's baseline), one compared with it under ignores, an explicit baseline, a base branch.
    const shop = (path: string, html: string) =>
      htmlJob(html, ["page-title", "single-h1"], { baseUrl: `https://shop.example/${path}` });
    const first = await server.api("POST", "/api/runs", {
      key: a.apiKey,
      body: { project: "shop", branch: "main", wait: true, pages: [shop("", PAGE), shop("bad", BAD)] },
    });
    expect([first.status, first.body.status]).toEqual([200, "completed"]);
    const second = await server.api("POST", "/api/runs", {
      key: a.apiKey,
      body: {
        project: "shop",
        branch: "feature",
        failOn: "new",
        wait: true,
        pages: [shop("", BAD), { ...shop("new", PAGE), name: "new page" }],
        ignores: [{ check: "single-h1", page: "https://shop.example/", reason: "known" }],
      },
    });
    expect(second.body.comparison.pagesGone).toEqual(["https://shop.example/bad"]);
    expect(
      (await server.api("POST", "/api/projects/shop/baseline", { key: a.apiKey, body: { runId: second.body.runId } }))
        .status,
    ).toBe(200);
    expect(
      (await server.api("PATCH", "/api/projects/shop", { key: a.apiKey, body: { baseBranch: "trunk" } })).status,
    ).toBe(200);
    // People: a claim of a's organization, a member added, a key minted, rotated and revoked, a switch and a sign-out.
    const owner = await signIn(server, relay, a.email);
    const colleague = uniqueEmail("colleague");
    expect(
      (
        await server.api("POST", "/api/members", {
          headers: inSession(owner),
          body: { email: colleague, role: "member" },
        })
      ).status,
    ).toBe(201);
    const member = await signIn(server, relay, colleague);
    const key = (
      await server.api("POST", "/api/keys", { headers: inSession(member), body: { name: "ci", scopes: ["jobs:read"] } })
    ).body;
    expect((await server.api("POST", `/api/keys/${key.keyId}/rotate`, { headers: inSession(member) })).status).toBe(
      200,
    );
    expect((await server.api("POST", `/api/keys/${key.keyId}/revoke`, { headers: inSession(owner) })).status).toBe(200);
    // Members: an invitation opened signed out, a role change, then the invitee removed with the key they minted.
    const invitee = uniqueEmail("invitee");
    expect(
      (
        await server.api("POST", "/api/invitations", {
          headers: inSession(owner),
          body: { email: invitee, role: "member" },
        })
      ).status,
    ).toBe(201);
    const guest = await signInThrough(server, await relay.invitationFor(invitee));
    expect(
      (
        await server.api("POST", "/api/keys", {
          headers: inSession(guest),
          body: { name: "guest", scopes: ["jobs:read"] },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await server.api("POST", `/api/members/${guest.personId}/role`, {
          headers: inSession(owner),
          body: { role: "admin" },
        })
      ).status,
    ).toBe(200);
    expect((await server.api("DELETE", `/api/members/${guest.personId}`, { headers: inSession(owner) })).status).toBe(
      200,
    );
    expect(
      (
        await server.api("POST", "/api/session/organization", {
          headers: inSession(owner),
          body: { customerId: a.customerId },
        })
      ).status,
    ).toBe(200);
    // A device sign-in: a code, polled too soon, approved on the /device page, exchanged for its key.
    const device = (await server.api("POST", "/api/device/code", { body: { client_id: "replay" } })).body;
    const token = { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: device.device_code };
    expect((await server.api("POST", "/api/device/token", { body: token })).body.error).toBe("authorization_pending");
    expect((await server.api("POST", "/api/device/token", { body: token })).body.error).toBe("slow_down");
    // slow_down appends nothing now; a log written before holds DeviceCodeSlowedDown, which must still fold and replay.
    const issued = eventsOf(server).findLast((e) => e.type === "DeviceCodeIssued")!;
    const codeId = (issued.data as { codeId: string }).codeId;
    await appendTo(
      server,
      [
        {
          streamId: streams.device(codeId),
          expectedVersion: "any",
          events: [{ type: "DeviceCodeSlowedDown", data: { codeId, interval: 10 } }],
        },
      ],
      META,
    );
    const approval = new URLSearchParams({
      _csrf: owner.csrfToken,
      user_code: device.user_code,
      customerId: a.customerId,
      decision: "approve",
    });
    const approved = await fetch(`${server.baseUrl}/device`, {
      method: "POST",
      headers: { cookie: owner.cookie, "content-type": "application/x-www-form-urlencoded" },
      body: approval.toString(),
    });
    expect(approved.status).toBe(200);
    expect((await server.api("POST", "/api/device/token", { body: token })).status).toBe(200);
    expect((await server.api("POST", "/api/session/signout", { headers: inSession(owner) })).status).toBe(200);
  }, HOOK_TIMEOUT);

  afterAll(async () => {
    target.stop(true);
    receiver.stop();
    await stopServer();
    await relay.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }, HOOK_TIMEOUT);

  test("the events table refuses UPDATE and DELETE through raw SQL", () => {
    const db = new Database(dbPath());
    try {
      const before = db.query("SELECT * FROM events ORDER BY position").all();
      expect(before.length).toBeGreaterThan(10);
      expect(() => db.run("UPDATE events SET data = '{}' WHERE position = 1")).toThrow(/append-only/);
      expect(() => db.run("UPDATE events SET type = 'X'")).toThrow(/append-only/);
      expect(() => db.run("DELETE FROM events WHERE position = 1")).toThrow(/append-only/);
      expect(() => db.run("DELETE FROM events")).toThrow(/append-only/);
      expect(db.query("SELECT * FROM events ORDER BY position").all()).toEqual(before);
    } finally {
      db.close();
    }
  });

  test("replay rebuilds every read table identically from the log", async () => {
    const before = read();
    // The dump covers every read model, and each holds what the requests above produced.
    for (const table of [
      "organizations",
      "api_keys",
      "people",
      "memberships",
      "sessions",
      "signin_links",
      "invitations",
      "device_codes",
      "credit_balances",
      "credit_ledger",
      "jobs",
      "job_results",
      "webhook_endpoints",
      "webhook_deliveries",
      "webhook_delivery_attempts",
      "runs",
      "run_pages",
      "projects",
    ]) {
      expect(before[table]!.length).toBeGreaterThan(0);
    }
    expect(before.organizations).toHaveLength(2);
    expect(before.memberships).toHaveLength(2);
    expect((before.sessions as Array<{ ended_at: string | null }>).filter((s) => s.ended_at)).toHaveLength(1);
    expect(
      (before.api_keys as Array<{ rotated_at: string | null; revoked_at: string | null }>).some(
        (k) => k.rotated_at && k.revoked_at,
      ),
    ).toBe(true);
    expect(before.device_codes).toMatchObject([{ status: "redeemed", interval_seconds: 10 }]);
    expect(before.jobs).toHaveLength(8);
    expect((before.jobs as Array<{ status: string }>).map((j) => j.status).sort()).toEqual([
      ...Array(7).fill("completed"),
      "interrupted",
    ]);
    expect(before.runs).toHaveLength(2);
    expect(before.projects).toMatchObject([{ project: "shop", base_branch: "trunk" }]);
    expect((before.credit_ledger as Array<{ kind: string }>).some((e) => e.kind === "CreditsRefunded")).toBe(true);
    // One endpoint left (the other removed with its deliveries), its two deliveries, three attempts (one replayed).
    expect(before.webhook_endpoints).toMatchObject([{ secret_rotated_at: expect.any(String) }]);
    expect(before.webhook_deliveries).toHaveLength(2);
    expect(before.webhook_delivery_attempts).toHaveLength(3);
    expect(before.webhook_job_owners).toEqual([]);

    await stopServer();
    const out = await runCli(["replay"], env);
    if (out.code !== 0) throw new Error(`replay failed:\n${out.stdout}\n${out.stderr}`);
    expect(out.stdout).toMatch(/replayed \d+ events/);

    expect(read()).toEqual(before);

    // Replaying twice is the same as once.
    expect((await runCli(["replay"], env)).code).toBe(0);
    expect(read()).toEqual(before);
  });

  test("a node on PostgreSQL, given the same log (migrate-store), builds the same read tables, and replay there keeps them", async () => {
    await stopServer();
    const before = read();
    const postgres = await startPostgres();
    const nodeDir = tempDataDir();
    try {
      const migrated = await runCli(["migrate-store", "--to", postgres.url], env);
      if (migrated.code !== 0) throw new Error(`migrate-store failed:\n${migrated.stdout}\n${migrated.stderr}`);
      const nodeEnv = { ...env, DATA_DIR: nodeDir, ASSAY_DATABASE_URL: postgres.url };
      const { log, readModels } = await openEventLog(loadConfig(nodeEnv));
      try {
        expect(log.backend).toBe("postgres");
        expect(dumpReadTables(readModels)).toEqual(before);
      } finally {
        await log.close();
      }
      const replayed = await runCli(["replay"], nodeEnv);
      expect([replayed.code, replayed.stderr]).toEqual([0, ""]);
      const copy = new Database(join(nodeDir, "assay-replica.sqlite"), { readonly: true });
      try {
        expect(dumpReadTables(copy)).toEqual(before);
      } finally {
        copy.close();
      }
    } finally {
      await postgres.stop();
      rmSync(nodeDir, { recursive: true, force: true });
    }
  });

  test("after an upgrade, a projection that is new or whose tables changed is rebuilt from the log when the store opens", async () => {
    const before = read();
    // The data directory as an older release left it: no feedback read model, the credits one without its grant months.
    const db = new Database(dbPath());
    db.exec(
      "DROP TABLE feedback_jobs; DROP TABLE feedback_check_costs; DROP TABLE feedback_submissions; DROP TABLE credit_grant_periods",
    );
    db.exec(
      "DELETE FROM projection_versions WHERE name = 'feedback'; UPDATE projection_versions SET ddl_sha256 = 'older' WHERE name = 'credits'",
    );
    db.close();
    const store = new SqliteEventLog(dbPath(), eventTypes);
    installProjections(store);
    await store.close();
    expect(read()).toEqual(before);
    const versions = new Database(dbPath(), { readonly: true });
    expect(versions.query("SELECT name FROM projection_versions ORDER BY name").all()).toEqual(
      projections.map((p) => ({ name: p.name })).sort((a, b) => a.name.localeCompare(b.name)),
    );
    versions.close();
  });

  test("ledger verify passes on the untouched log, then fails naming the position of a tampered credit event", async () => {
    await stopServer();
    const clean = await runCli(["ledger", "verify"], env);
    if (clean.code !== 0) throw new Error(`ledger verify failed on a clean log:\n${clean.stdout}\n${clean.stderr}`);
    expect(clean.stdout).toContain("ledger verified");

    const db = new Database(dbPath());
    let position: number;
    try {
      const charge = db
        .query<{ position: number; data: string }, []>(
          "SELECT position, data FROM events WHERE type = 'CreditsCharged' ORDER BY position LIMIT 1 OFFSET 1",
        )
        .get()!;
      position = charge.position;
      const data = JSON.parse(charge.data);
      expect(() =>
        db.run("UPDATE events SET data = ? WHERE position = ?", [
          JSON.stringify({ ...data, amount: data.amount - 1 }),
          position,
        ]),
      ).toThrow(/append-only/);
      db.run("DROP TRIGGER events_no_update");
      db.run("UPDATE events SET data = ? WHERE position = ?", [
        JSON.stringify({ ...data, amount: data.amount - 1 }),
        position,
      ]);
    } finally {
      db.close();
    }

    const tampered = await runCli(["ledger", "verify"], env);
    expect(tampered.code).not.toBe(0);
    expect(tampered.stdout).toMatch(new RegExp(`MISMATCH at position ${position}\\b`));
    expect(tampered.stdout).toContain("FAILED");

    const json = await runCli(["ledger", "verify", "--json"], env);
    expect(json.code).not.toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.problems.some((p: { position?: number }) => p.position === position)).toBe(true);
  });
});
