import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { WebhookVerificationError } from "standardwebhooks";
import {
  eventCount,
  eventsOf,
  expectError,
  readNodeFile,
  startServer,
  tempDataDir,
  type TestServer,
} from "../support/harness";
import { checkToolResult } from "../support/contracts";
import { trailheadMessage } from "../support/smtp-session";
import { webhookSecret } from "../../src/domain/webhooks";
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Webhooks through the real interface: endpoints registered over HTTP and MCP, a real receiver on loopback getting
 * signed job.completed deliveries after an email job and after a url job (verified with standardwebhooks, as a
 * receiver verifies them), retries with back-off when it answers 500, giving up after the retry window, the delivery
 * log, replay, secret rotation, the network guard at registration and again at delivery (DNS changed), the endpoint
 * limit, deletion, and tenant isolation. The back-off is 1 s and the window 8 s, so retries happen in seconds.
 */

setDefaultTimeout(120_000);

const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];
const LIMIT = 3;

let server: TestServer;
let receiver: WebhookReceiver;
let dnsFile: string;
const dataDirs: string[] = [];

/** The test's DNS: hooks.example.test resolves to the address given (loopback while it may be called). */
const resolveHooksTo = (address: string) =>
  writeFileSync(dnsFile, JSON.stringify({ "hooks.example.test": { A: [address] } }));

beforeAll(async () => {
  receiver = startWebhookReceiver();
  const dir = tempDataDir();
  dataDirs.push(dir);
  dnsFile = join(dir, "dns.json");
  resolveHooksTo("127.0.0.1");
  server = await startServer({
    ASSAY_ALLOW_PRIVATE_TARGETS: "1",
    ASSAY_DNS_FIXTURES: dnsFile,
    ASSAY_WEBHOOK_RETRY_BASE_SECONDS: "1",
    ASSAY_WEBHOOK_RETRY_WINDOW_SECONDS: "8",
    ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION: String(LIMIT),
  });
});
afterAll(async () => {
  await server?.stop();
  receiver?.stop();
});

const transport = () =>
  nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });

async function register(key: string, path: string, extra: Record<string, unknown> = {}) {
  const res = await server.api("POST", "/api/webhooks", {
    key,
    body: { url: receiver.url(path), events: ["job.completed"], ...extra },
  });
  expect(res.status).toBe(201);
  return res.body as { endpointId: string; secret: string; url: string };
}

/** An email job completed by a real message through the inbox: no browser involved. */
async function completedEmailJob(key: string): Promise<string> {
  const job = await server.api("POST", "/api/jobs", { key, body: { type: "email", validations: EMAIL_CHECKS } });
  expect(job.status).toBe(200);
  await transport().sendMail(trailheadMessage(job.body.testEmail));
  return job.body.jobId;
}

async function deliveries(key: string, endpointId: string) {
  const res = await server.api("GET", `/api/webhooks/${endpointId}/deliveries`, { key });
  expect(res.status).toBe(200);
  return res.body.deliveries as any[];
}

/** Waits until the endpoint's newest delivery is no longer pending (or has `attempts` attempts), and answers it. */
async function settledDelivery(key: string, endpointId: string, attempts = 1) {
  for (let i = 0; i < 1200; i++) {
    const [d] = await deliveries(key, endpointId);
    if (d && d.attemptCount >= attempts && d.status !== "pending") return d;
    await Bun.sleep(50);
  }
  throw new Error(`the delivery to ${endpointId} never settled`);
}

describe("deliveries", () => {
  test("an email job's completion reaches the receiver, signed: standardwebhooks verifies it, the payload says how it went", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/email", { description: "CI <email>" });
    expect(endpoint.endpointId).toMatch(/^whe_/);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({
      url: receiver.url("/email"),
      events: ["job.completed"],
      description: "CI <email>",
      secretRotatedAt: null,
      deliveries: { pending: 0, delivered: 0, failed: 0 },
    });
    const jobId = await completedEmailJob(org.apiKey);
    const [request] = await receiver.waitFor("/email", 1);
    const delivered = verifyDelivery(endpoint.secret, request!);
    expect(delivered).toEqual({
      type: "job.completed",
      timestamp: expect.any(String),
      data: {
        jobId,
        status: "completed",
        decision: "pass",
        summary: { pass: 2, fail: 0, error: 0, passed: true },
        url: `${server.baseUrl}/api/jobs/${jobId}`,
      },
    });
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,/);
    // The payload's timestamp is the job's completion, as the job itself tells it.
    const job = (await server.api("GET", `/api/jobs/${jobId}`, { key: org.apiKey })).body;
    expect(delivered.timestamp).toBe(job.completedAt);

    const [d] = await deliveries(org.apiKey, endpoint.endpointId);
    expect(d).toMatchObject({
      deliveryId: request!.headers["webhook-id"],
      eventType: "job.completed",
      subjectId: jobId,
      status: "delivered",
      attemptCount: 1,
      nextAttemptAt: null,
      attempts: [{ attempt: 1, status: "delivered", httpStatus: 204, error: null, nextAttemptAt: null }],
    });
    const { secret: _, ...shown } = endpoint;
    const listed = (await server.api("GET", "/api/webhooks", { key: org.apiKey })).body.endpoints;
    expect(listed).toEqual([{ ...shown, deliveries: { pending: 0, delivered: 1, failed: 0 } }]);
  });

  test("a url job's completion too, with the job's decision and summary", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/url");
    const page = `${receiver.url("/page")}`;
    receiver.answer("/page", 200, 200, 200);
    const job = await server.api("POST", "/api/jobs", {
      key: org.apiKey,
      body: { type: "url", url: page, validations: ["page-title"] },
    });
    expect(job.status).toBe(200);
    const [request] = await receiver.waitFor("/url", 1);
    const { data } = verifyDelivery(endpoint.secret, request!);
    expect(data).toEqual({
      jobId: job.body.jobId,
      status: "completed",
      decision: job.body.overallPassPolicy.decision,
      summary: job.body.summary,
      url: `${server.baseUrl}/api/jobs/${job.body.jobId}`,
    });
    expect(data.summary.fail).toBe(1);
  });

  test("a run is announced once, as run.completed, and as run.regressed too when it has new failures; its pages announce nothing of their own", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/runs", {
      events: ["job.completed", "run.completed", "run.regressed"],
    });
    const page = (title: string) => ({
      type: "static_html",
      html: `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>Shop</h1></body></html>`,
      baseUrl: "https://shop.example/",
      validations: ["page-title"],
    });
    const run = async (title: string) => {
      const res = await server.api("POST", "/api/runs", {
        key: org.apiKey,
        body: { project: "shop", branch: "main", failOn: "new", wait: true, pages: [page(title)] },
      });
      expect([res.status, res.body.status]).toEqual([200, "completed"]);
      return res.body;
    };
    const first = await run("Shop: the spring sale");
    const [completed] = await receiver.waitFor("/runs", 1);
    const announced = verifyDelivery(endpoint.secret, completed!);
    expect(announced).toMatchObject({
      type: "run.completed",
      data: {
        runId: first.runId,
        project: "shop",
        branch: "main",
        status: "completed",
        decision: "pass",
        counts: { pages: 1, passed: 1, newFailures: 0 },
        newFailures: [],
        url: `${server.baseUrl}/api/runs/${first.runId}`,
      },
    });

    const second = await run("");
    const requests = await receiver.waitFor("/runs", 3);
    const later = requests.slice(1).map((r) => verifyDelivery(endpoint.secret, r));
    expect(later.map((d) => d.type).sort()).toEqual(["run.completed", "run.regressed"]);
    for (const d of later) {
      expect(d.data).toMatchObject({
        runId: second.runId,
        decision: "blocked",
        counts: { newFailures: 1 },
        newFailures: [{ pageKey: "https://shop.example/", validationId: "page-title" }],
      });
    }
    await Bun.sleep(500);
    const log = await deliveries(org.apiKey, endpoint.endpointId);
    expect(log.map((d) => [d.eventType, d.subjectId]).sort()).toEqual(
      [
        ["run.completed", first.runId],
        ["run.completed", second.runId],
        ["run.regressed", second.runId],
      ].sort(),
    );
  });

  test("a receiver answering 500 then 2xx gets the retry after the back-off, with the same webhook-id; the log shows each attempt", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/flaky");
    receiver.answer("/flaky", 500);
    await completedEmailJob(org.apiKey);
    const [first, second] = await receiver.waitFor("/flaky", 2);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    for (const r of [first!, second!]) expect(verifyDelivery(endpoint.secret, r).type).toBe("job.completed");
    const d = await settledDelivery(org.apiKey, endpoint.endpointId, 2);
    expect(d.status).toBe("delivered");
    const [failed, delivered] = d.attempts;
    expect(failed).toMatchObject({
      attempt: 1,
      status: "retrying",
      httpStatus: 500,
      error: null,
      responseExcerpt: "answered 500",
    });
    // Retried no sooner than the back-off said (1 s), and when it said.
    expect(Date.parse(failed.nextAttemptAt) - Date.parse(failed.attemptedAt)).toBe(1000);
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(900);
    expect(Date.parse(delivered.attemptedAt)).toBeGreaterThanOrEqual(Date.parse(failed.nextAttemptAt));
    expect(delivered).toMatchObject({ attempt: 2, status: "delivered", httpStatus: 204, nextAttemptAt: null });
  });

  test("a receiver that never takes it: retried with doubling back-off until the window ends, then given up and recorded", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/down");
    receiver.answer("/down", ...Array(20).fill(503));
    await completedEmailJob(org.apiKey);
    const d = await settledDelivery(org.apiKey, endpoint.endpointId, 2);
    expect(d.status).toBe("failed");
    expect(d.nextAttemptAt).toBeNull();
    const gaps = d.attempts.slice(0, -1).map((a: any) => Date.parse(a.nextAttemptAt) - Date.parse(a.attemptedAt));
    // 1 s, then 2 s, 4 s, ..., the last retry at the window's end.
    for (const [i, gap] of gaps.entries()) expect(gap).toBeLessThanOrEqual(1000 * 2 ** i);
    expect(gaps[0]).toBe(1000);
    expect(d.attempts.slice(0, -1).every((a: any) => a.status === "retrying" && a.httpStatus === 503)).toBe(true);
    expect(d.attempts.at(-1)).toMatchObject({ status: "failed", httpStatus: 503, nextAttemptAt: null });
    expect(receiver.received("/down")).toHaveLength(d.attemptCount);
    const window = Date.parse(d.attempts.at(-1).attemptedAt) - Date.parse(d.createdAt);
    expect(window).toBeGreaterThanOrEqual(8000);
    const given = eventsOf(server).filter(
      (e) => e.type === "WebhookDeliveryAttempted" && (e.data as any).deliveryId === d.deliveryId,
    );
    expect(given.map((e) => (e.data as any).status)).toEqual([...Array(d.attemptCount - 1).fill("retrying"), "failed"]);
    // Nothing about the delivery touched the job: it completed and was charged as any job.
    const job = (await server.api("GET", `/api/jobs/${d.subjectId}`, { key: org.apiKey })).body;
    expect(job.status).toBe("completed");
  });

  test("replay delivers again, with the same webhook-id and payload, signed again", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/replay");
    await completedEmailJob(org.apiKey);
    const [first] = await receiver.waitFor("/replay", 1);
    const d = await settledDelivery(org.apiKey, endpoint.endpointId);
    const before = eventCount(server);
    const replayed = await server.api(
      "POST",
      `/api/webhooks/${endpoint.endpointId}/deliveries/${d.deliveryId}/replay`,
      { key: org.apiKey },
    );
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ deliveryId: d.deliveryId, status: "pending", attemptCount: 1 });
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["WebhookDeliveryReplayed"]);
    const [, again] = await receiver.waitFor("/replay", 2);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(verifyDelivery(endpoint.secret, again!)).toEqual(verifyDelivery(endpoint.secret, first!));
    const after = await settledDelivery(org.apiKey, endpoint.endpointId, 2);
    expect(after.attempts.map((a: any) => [a.attempt, a.status])).toEqual([
      [1, "delivered"],
      [2, "delivered"],
    ]);
  });

  test("a rotated secret signs the deliveries after it; the old secret no longer verifies them", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/rotate");
    const rotated = await server.api("POST", `/api/webhooks/${endpoint.endpointId}/rotate-secret`, {
      key: org.apiKey,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.secretRotatedAt).toEqual(expect.any(String));
    await completedEmailJob(org.apiKey);
    const [request] = await receiver.waitFor("/rotate", 1);
    expect(verifyDelivery(rotated.body.secret, request!).type).toBe("job.completed");
    expect(() => verifyDelivery(endpoint.secret, request!)).toThrow(WebhookVerificationError);
  });

  test("the secrets are in no event and no read table: only the nonce they derive from, with the server's signing secret", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/secretless");
    const rotated = (
      await server.api("POST", `/api/webhooks/${endpoint.endpointId}/rotate-secret`, { key: org.apiKey })
    ).body;
    const log = JSON.stringify(eventsOf(server));
    const tables = readNodeFile(server, (db) =>
      JSON.stringify(
        ["webhook_endpoints", "webhook_deliveries", "webhook_delivery_attempts"].map((t) =>
          db.query(`SELECT * FROM ${t}`).all(),
        ),
      ),
    );
    for (const secret of [endpoint.secret, rotated.secret]) {
      const key = secret.slice("whsec_".length);
      expect(log.includes(key)).toBe(false);
      expect(tables.includes(key)).toBe(false);
    }
    expect(log).toContain(endpoint.endpointId);
    // Each secret is the one the nonce the log holds and the share links' secret make.
    const serverSecret = Buffer.from(readFileSync(join(server.dataDir, "share-link.secret"), "utf8").trim(), "hex");
    const nonces = eventsOf(server)
      .filter((e) => (e.data as { endpointId?: string }).endpointId === endpoint.endpointId)
      .flatMap((e) => ((e.data as { secretNonce?: string }).secretNonce ? [(e.data as any).secretNonce] : []));
    expect(nonces.map((nonce) => webhookSecret(serverSecret, endpoint.endpointId, nonce))).toEqual([
      endpoint.secret,
      rotated.secret,
    ]);
  });
});

describe("the network guard", () => {
  test("a private, internal or credentialed URL is refused at registration with WEBHOOK_URL_INVALID, and nothing is registered", async () => {
    const org = await server.signup();
    const before = eventCount(server);
    for (const [url, reason] of [
      ["http://10.0.0.1/hook", "private"],
      ["http://169.254.169.254/latest", "link-local"],
      ["ftp://hooks.example.test/", "scheme"],
      ["http://intranet/hook", "internal-name"],
      ["https://nowhere.example.test/hook", "unresolvable"],
      [`http://user:pass@127.0.0.1:${new URL(receiver.url("/")).port}/`, "credentials"],
    ]) {
      const res = await server.api("POST", "/api/webhooks", {
        key: org.apiKey,
        body: { url, events: ["job.completed"] },
      });
      expectError(res, 400, "WEBHOOK_URL_INVALID");
      expect([url, res.body.details]).toEqual([url, { field: "url", reason }]);
    }
    expect(eventCount(server)).toBe(before);
    expect((await server.api("GET", "/api/webhooks", { key: org.apiKey })).body.endpoints).toEqual([]);
  });

  test("checked again at each delivery: once the name resolves to a private address the attempt is refused and recorded; replayed once it resolves back, it is delivered", async () => {
    const org = await server.signup();
    const port = new URL(receiver.url("/")).port;
    const registered = await server.api("POST", "/api/webhooks", {
      key: org.apiKey,
      body: { url: `http://hooks.example.test:${port}/rebound`, events: ["job.completed"] },
    });
    expect(registered.status).toBe(201);
    const endpointId = registered.body.endpointId;
    resolveHooksTo("10.1.2.3");
    try {
      await completedEmailJob(org.apiKey);
      const d = await settledDelivery(org.apiKey, endpointId, 2);
      expect(d.status).toBe("failed");
      for (const a of d.attempts) {
        expect(a.httpStatus).toBeNull();
        expect(a.error).toContain("refused by the network guard");
        expect(a.error).toContain("10.1.2.3");
      }
      expect(receiver.received("/rebound")).toEqual([]);
      resolveHooksTo("127.0.0.1");
      const replayed = await server.api("POST", `/api/webhooks/${endpointId}/deliveries/${d.deliveryId}/replay`, {
        key: org.apiKey,
      });
      expect(replayed.status).toBe(202);
      const [request] = await receiver.waitFor("/rebound", 1);
      expect(request!.headers.host).toBe(`hooks.example.test:${port}`);
      expect(verifyDelivery(registered.body.secret, request!).data.status).toBe("completed");
    } finally {
      resolveHooksTo("127.0.0.1");
    }
  });
});

describe("endpoints", () => {
  test(`an organization has at most ${LIMIT} endpoints: one more is WEBHOOK_LIMIT_REACHED and registers nothing; deleting one makes room`, async () => {
    const org = await server.signup();
    const made = [];
    for (let i = 0; i < LIMIT; i++) made.push(await register(org.apiKey, `/many-${i}`));
    const before = eventCount(server);
    const refused = await server.api("POST", "/api/webhooks", {
      key: org.apiKey,
      body: { url: receiver.url("/one-more"), events: ["job.completed"] },
    });
    expectError(refused, 409, "WEBHOOK_LIMIT_REACHED");
    expect(refused.body.details).toEqual({ limit: LIMIT });
    expect(eventCount(server)).toBe(before);
    const deleted = await server.api("DELETE", `/api/webhooks/${made[0]!.endpointId}`, { key: org.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ endpointId: made[0]!.endpointId, removedAt: expect.any(String) });
    await register(org.apiKey, "/one-more");
    const listed = (await server.api("GET", "/api/webhooks", { key: org.apiKey })).body.endpoints;
    expect(listed.map((e: any) => e.url)).toEqual([
      receiver.url("/many-1"),
      receiver.url("/many-2"),
      receiver.url("/one-more"),
    ]);
  });

  test("a deleted endpoint gets nothing more: its pending deliveries and log go with it", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/deleted");
    receiver.answer("/deleted", ...Array(20).fill(500));
    await completedEmailJob(org.apiKey);
    await receiver.waitFor("/deleted", 1);
    expect((await server.api("DELETE", `/api/webhooks/${endpoint.endpointId}`, { key: org.apiKey })).status).toBe(200);
    const gone = await server.api("GET", `/api/webhooks/${endpoint.endpointId}/deliveries`, { key: org.apiKey });
    expectError(gone, 404, "WEBHOOK_NOT_FOUND");
    const again = await server.api("DELETE", `/api/webhooks/${endpoint.endpointId}`, { key: org.apiKey });
    expectError(again, 404, "WEBHOOK_NOT_FOUND");
    const removed = eventsOf(server).findLast((e) => e.type === "WebhookEndpointRemoved")!;
    expect(removed.data).toEqual({ endpointId: endpoint.endpointId, customerId: org.customerId });
    // Retries were due every second or two: none comes once the endpoint is gone (a few sweeps later).
    const received = receiver.received("/deleted").length;
    const attempts = eventsOf(server).filter((e) => e.type === "WebhookDeliveryAttempted").length;
    await Bun.sleep(3000);
    expect(receiver.received("/deleted").length).toBeLessThanOrEqual(received + 1);
    expect(eventsOf(server).filter((e) => e.type === "WebhookDeliveryAttempted").length).toBeLessThanOrEqual(
      attempts + 1,
    );
  });

  test("another organization can neither list, read the deliveries of, rotate, delete nor replay an endpoint: the same 404 as a missing one, nothing changes", async () => {
    const owner = await server.signup();
    const stranger = await server.signup();
    const endpoint = await register(owner.apiKey, "/private-to-owner");
    await completedEmailJob(owner.apiKey);
    const d = await settledDelivery(owner.apiKey, endpoint.endpointId);
    const strangers = await register(stranger.apiKey, "/strangers");
    const before = eventCount(server);
    expect((await server.api("GET", "/api/webhooks", { key: stranger.apiKey })).body.endpoints).toEqual([
      expect.objectContaining({ endpointId: strangers.endpointId }),
    ]);
    const base = `/api/webhooks/${endpoint.endpointId}`;
    for (const [method, path] of [
      ["GET", `${base}/deliveries`],
      ["POST", `${base}/rotate-secret`],
      ["DELETE", base],
      ["POST", `${base}/deliveries/${d.deliveryId}/replay`],
    ] as const)
      expectError(await server.api(method, path, { key: stranger.apiKey }), 404, "WEBHOOK_NOT_FOUND");
    // The owner's delivery under the stranger's own endpoint: not one of its deliveries.
    const crossed = await server.api(
      "POST",
      `/api/webhooks/${strangers.endpointId}/deliveries/${d.deliveryId}/replay`,
      { key: stranger.apiKey },
    );
    expectError(crossed, 404, "WEBHOOK_DELIVERY_NOT_FOUND");
    expect(crossed.body.details).toEqual({ deliveryId: d.deliveryId });
    expect(eventCount(server)).toBe(before);
    // The stranger's endpoint got nothing of the owner's job.
    expect(receiver.received("/strangers")).toEqual([]);
    expect((await deliveries(owner.apiKey, endpoint.endpointId)).map((x) => x.attemptCount)).toEqual([1]);
  });

  test("the delivery log pages, newest first", async () => {
    const org = await server.signup();
    const endpoint = await register(org.apiKey, "/paged");
    const jobs = [await completedEmailJob(org.apiKey), await completedEmailJob(org.apiKey)];
    await receiver.waitFor("/paged", 2);
    const first = await server.api("GET", `/api/webhooks/${endpoint.endpointId}/deliveries?limit=1`, {
      key: org.apiKey,
    });
    expect(first.body.deliveries).toHaveLength(1);
    const second = await server.api(
      "GET",
      `/api/webhooks/${endpoint.endpointId}/deliveries?limit=1&cursor=${first.body.nextCursor}`,
      { key: org.apiKey },
    );
    expect(second.body.nextCursor).toBeNull();
    expect(new Set([first.body.deliveries[0].subjectId, second.body.deliveries[0].subjectId])).toEqual(new Set(jobs));
  });
});

describe("MCP", () => {
  test("create_webhook, list_webhooks, list_webhook_deliveries and delete_webhook, as their HTTP routes", async () => {
    const org = await server.signup();
    const mcp = new Client({ name: "assay-webhooks-test", version: "1.0.0" });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${org.apiKey}` } },
      }),
    );
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
        checkToolResult(name, result);
        expect([name, result.isError ?? false]).toEqual([name, false]);
        return result.structuredContent as any;
      };
      const made = await call("create_webhook", { url: receiver.url("/mcp"), events: ["job.completed"] });
      expect(made.secret).toMatch(/^whsec_/);
      expect(await call("list_webhooks", {})).toEqual(
        (await server.api("GET", "/api/webhooks", { key: org.apiKey })).body,
      );
      const jobId = await completedEmailJob(org.apiKey);
      const [request] = await receiver.waitFor("/mcp", 1);
      expect(verifyDelivery(made.secret, request!).data.jobId).toBe(jobId);
      const log = await settledDelivery(org.apiKey, made.endpointId);
      expect((await call("list_webhook_deliveries", { endpointId: made.endpointId })).deliveries).toEqual([log]);
      expect(await call("delete_webhook", { endpointId: made.endpointId })).toEqual({
        endpointId: made.endpointId,
        removedAt: expect.any(String),
      });
      expect((await call("list_webhooks", {})).endpoints).toEqual([]);
      const missing = (await mcp.callTool({
        name: "delete_webhook",
        arguments: { endpointId: made.endpointId },
      })) as CallToolResult;
      expect([missing.isError, (missing.structuredContent as any).code]).toEqual([true, "WEBHOOK_NOT_FOUND"]);
    } finally {
      await mcp.close();
    }
  });
});
