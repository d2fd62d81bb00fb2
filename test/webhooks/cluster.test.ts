import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { SQL } from "bun";
import { spawnServer, tempDataDir, type ServerProcess } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { startWebhookReceiver, verifyDelivery, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Two Assay nodes, each `assay serve` in its own process, on one PostgreSQL log: every node's sweep looks for due
 * deliveries every second, but only the node holding the deliveries' lease attempts them, so a receiver gets each
 * delivery once, not once per node, and the shared log records one attempt per delivery. The secret one node
 * answered verifies what the other signs: both derive it from the signing secret they share.
 */
setDefaultTimeout(180_000);

let postgres: TestPostgres;
let receiver: WebhookReceiver;
const shared = tempDataDir();
const dirs = [shared];
const nodes: ServerProcess[] = [];

async function startNode(): Promise<ServerProcess> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const node = await spawnServer(dataDir, {
    ASSAY_DATABASE_URL: postgres.url,
    ASSAY_SHARED_DIR: shared,
    ASSAY_NODE_TIMEOUT_SECONDS: "3",
    // Email jobs that get no message expire in 2 seconds: settled jobs, hence deliveries, without a browser.
    ASSAY_EMAIL_WINDOW_SECONDS: "2",
  });
  nodes.push(node);
  return node;
}

beforeAll(async () => {
  postgres = await startPostgres();
  receiver = startWebhookReceiver();
});
afterAll(async () => {
  for (const n of nodes) await n.kill().catch(() => {});
  receiver?.stop();
  await postgres?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function query<T = any>(text: string): Promise<T[]> {
  const sql = new SQL(postgres.url, { max: 1 });
  try {
    return await sql.unsafe(text);
  } finally {
    await sql.close();
  }
}

test("two nodes: each job's delivery reaches the receiver once, attempted once in the shared log, signed with the secret either node answered", async () => {
  const [a, b] = await Promise.all([startNode(), startNode()]);
  const org = await a.signup();
  const registered = await b.api("POST", "/api/webhooks", {
    key: org.apiKey,
    body: { url: receiver.url("/cluster"), events: ["job.completed"] },
  });
  expect(registered.status).toBe(201);
  const { endpointId, secret } = registered.body;

  const made = await Promise.all(
    [a, b, a, b].map((node) =>
      node.api("POST", "/api/jobs", {
        key: org.apiKey,
        body: { type: "email", validations: ["email-subject-length"] },
      }),
    ),
  );
  const jobIds = made.map((r) => r.body.jobId as string);
  const requests = await receiver.waitFor("/cluster", jobIds.length);
  expect(requests.map((r) => verifyDelivery(secret, r).data.jobId).sort()).toEqual([...jobIds].sort());
  for (const r of requests) expect(verifyDelivery(secret, r).data.status).toBe("expired");

  // Either node shows every delivery delivered after one attempt.
  for (const node of [a, b]) {
    for (let i = 0; ; i++) {
      const { body } = await node.api("GET", `/api/webhooks/${endpointId}/deliveries`, { key: org.apiKey });
      if (body.deliveries.length === jobIds.length && body.deliveries.every((d: any) => d.status === "delivered")) {
        expect(body.deliveries.map((d: any) => d.attemptCount)).toEqual(jobIds.map(() => 1));
        break;
      }
      if (i > 200) throw new Error(`deliveries not all delivered on a node: ${JSON.stringify(body)}`);
      await Bun.sleep(50);
    }
  }
  // A few more sweeps on both nodes: still one request per delivery, one attempt per delivery in the log.
  await Bun.sleep(3000);
  expect(receiver.received("/cluster")).toHaveLength(jobIds.length);
  expect(new Set(receiver.received("/cluster").map((r) => r.headers["webhook-id"])).size).toBe(jobIds.length);
  const attempts = await query<{ delivery: string; n: string }>(
    "SELECT data::json->>'deliveryId' AS delivery, COUNT(*) AS n FROM events WHERE type = 'WebhookDeliveryAttempted' GROUP BY 1",
  );
  expect(attempts.map((r) => Number(r.n))).toEqual(jobIds.map(() => 1));

  // One node delivered (the lease's holder); a secret the other one makes signs what the holder sends next.
  const writers = await query<{ node: string }>(
    "SELECT DISTINCT metadata::json->>'node' AS node FROM events WHERE type = 'WebhookDeliveryAttempted'",
  );
  expect(writers).toHaveLength(1);
  const nodeIdOf = (n: ServerProcess) => readFileSync(join(n.dataDir, "node-id"), "utf8").trim();
  const other = [a, b].find((n) => nodeIdOf(n) !== writers[0]!.node)!;
  const rotated = await other.api("POST", `/api/webhooks/${endpointId}/rotate-secret`, { key: org.apiKey });
  expect(rotated.status).toBe(200);
  await other.api("POST", "/api/jobs", {
    key: org.apiKey,
    body: { type: "email", validations: ["email-subject-length"] },
  });
  const [, , , , last] = await receiver.waitFor("/cluster", jobIds.length + 1);
  expect(verifyDelivery(rotated.body.secret, last!).type).toBe("job.completed");
});
