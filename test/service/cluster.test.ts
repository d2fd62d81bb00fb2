import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { rmSync } from "node:fs";
import { SQL } from "bun";
import { htmlJob, runCli, spawnServer, tempDataDir, type ServerProcess } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { smtpSession, trailheadMessage } from "../support/smtp-session";

/**
 * Several Assay nodes on one PostgreSQL log, each `assay serve` in its own process with its own data directory,
 * sharing a directory for captures and messages. Any node takes any request; a job is charged once and settled
 * once whichever node took it and whichever node's sweep expired it; an email job made on one node completes when
 * its message reaches another node's inbox; a node killed with SIGKILL mid-job leaves nothing unsettled once a
 * survivor notices it went silent; the monthly grant is made once across nodes; a per-address limit counts
 * across nodes; `/readyz` fails while the database is away.
 */
setDefaultTimeout(240_000);

const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Walking boots | Trailhead</title></head><body><h1>Walking boots</h1></body></html>`;
const ORGANIZATIONS = 10;
const JOBS_PER_ORGANIZATION = 20;
/** Each organization can pay for some of its jobs, not all: refusals race charges on two nodes. */
const OPENING_CREDITS = 14;

let postgres: TestPostgres;
let url: string;
const shared = tempDataDir();
const dirs: string[] = [shared];
const nodes: ServerProcess[] = [];
/** A page that never answers: a url job on it stays in capture until its node is killed. */
let stalled: ReturnType<typeof Bun.serve>;
let stalledRequests = 0;

function nodeEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    ASSAY_DATABASE_URL: url,
    ASSAY_SHARED_DIR: shared,
    ASSAY_NODE_TIMEOUT_SECONDS: "3",
    ASSAY_EMAIL_WINDOW_SECONDS: "8",
    ASSAY_SIGNUP_CREDITS: String(OPENING_CREDITS),
    ASSAY_BROWSER_QUEUE: "1000",
    ...extra,
  };
}

async function startNode(dataDir = tempDataDir(), extra: Record<string, string> = {}): Promise<ServerProcess> {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const node = await spawnServer(dataDir, nodeEnv(extra));
  nodes.push(node);
  return node;
}

beforeAll(async () => {
  postgres = await startPostgres();
  url = postgres.url;
  stalled = Bun.serve({
    port: 0,
    fetch() {
      stalledRequests++;
      return new Promise<Response>(() => {});
    },
  });
});
afterAll(async () => {
  for (const n of nodes) await n.kill().catch(() => {});
  stalled?.stop(true);
  await postgres?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every job of a key, settled (not pending nor running), read from `node`; waits for the sweeps. */
async function settledJobs(node: ServerProcess, key: string): Promise<any[]> {
  for (let i = 0; i < 600; i++) {
    const { body } = await node.api("GET", "/api/jobs?limit=100&detail=verbose", { key });
    if (body.jobs.every((j: any) => j.status !== "pending" && j.status !== "running")) return body.jobs;
    await Bun.sleep(100);
  }
  throw new Error("jobs never settled");
}

/** Rows of the shared log, read as an auditor would. */
async function query<T = any>(text: string): Promise<T[]> {
  const sql = new SQL(url, { max: 1 });
  try {
    return await sql.unsafe(text);
  } finally {
    await sql.close();
  }
}

const transport = (port: number) =>
  nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });

let a: ServerProcess;
let b: ServerProcess;
const organizations: Array<{ apiKey: string; customerId: string }> = [];

test("200 jobs at once from 10 organizations with tight balances, spread over two nodes: none overdrawn, each charged once and settled once, the shared log verifies", async () => {
  [a, b] = await Promise.all([startNode(), startNode()]);
  for (let i = 0; i < ORGANIZATIONS; i++) organizations.push(await (i % 2 ? b : a).signup());

  // Each organization: 3 webpage jobs and 17 email jobs (2 credits each, expired later by whichever node holds the sweep), sent to both nodes at once.
  const requests = organizations.flatMap((org, o) =>
    Array.from({ length: JOBS_PER_ORGANIZATION }, (_, i) => {
      const node = (o + i) % 2 ? b : a;
      const body = i % 7 === 0 ? htmlJob(PAGE, ["page-title"]) : { type: "email", validations: EMAIL_CHECKS };
      return node.api("POST", "/api/jobs", { key: org.apiKey, body });
    }),
  );
  const answers = await Promise.all(requests);
  const statuses = new Map<number, number>();
  for (const r of answers) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  // Accepted, or refused for want of credits: nothing else.
  expect([...statuses.keys()].sort()).toEqual([200, 402]);
  for (const r of answers) if (r.status === 402) expect(r.body.code).toBe("INSUFFICIENT_CREDITS");
  const accepted = answers.filter((r) => r.status === 200).map((r) => r.body.jobId as string);

  let settled = 0;
  for (const org of organizations) {
    // Either node answers for every job, whichever took it.
    const jobs = await settledJobs(org === organizations[0] ? b : a, org.apiKey);
    const credits = (await b.api("GET", "/api/credits?limit=200", { key: org.apiKey })).body;
    let spent = 0;
    for (const job of jobs) {
      const entries = credits.ledger.filter((e: any) => e.jobId === job.jobId);
      expect(entries.filter((e: any) => e.type === "CreditsCharged").map((e: any) => -e.amount)).toEqual([
        job.credits.charged,
      ]);
      expect(entries.filter((e: any) => e.type === "CreditsRefunded").length).toBeLessThanOrEqual(1);
      expect(["completed", "expired"]).toContain(job.status);
      spent += job.credits.charged - job.credits.refunded;
      settled++;
    }
    expect(credits.balance).toBe(OPENING_CREDITS - spent);
    expect(credits.balance).toBeGreaterThanOrEqual(0);
  }
  expect(settled).toBe(accepted.length);

  // In the shared log: one settlement per job, appends from both nodes, expiries included.
  const twice = await query(
    "SELECT data::json->>'jobId' AS job, COUNT(*) AS n FROM events WHERE type = 'JobSettled' GROUP BY 1 HAVING COUNT(*) > 1",
  );
  expect(twice).toEqual([]);
  const settledJobsInLog = await query<{ n: string }>("SELECT COUNT(*) AS n FROM events WHERE type = 'JobSettled'");
  expect(Number(settledJobsInLog[0]!.n)).toBe(accepted.length);
  const writers = await query<{ node: string }>("SELECT DISTINCT metadata::json->>'node' AS node FROM events");
  expect(writers.length).toBe(2);
  const expired = await query<{ n: string }>(
    "SELECT COUNT(*) AS n FROM events WHERE type = 'JobSettled' AND data::json->>'status' = 'expired'",
  );
  expect(Number(expired[0]!.n)).toBeGreaterThan(0);

  const verify = await runCli(["ledger", "verify", "--json"], { DATA_DIR: tempDataDir(), ASSAY_DATABASE_URL: url });
  const report = JSON.parse(verify.stdout);
  expect(report.problems).toEqual([]);
  expect(verify.code).toBe(0);
});

test("an email job made on one node completes when its message reaches the other node's inbox", async () => {
  const { body: job, status } = await a
    .api("POST", "/api/jobs", { key: organizations[9]!.apiKey, body: { type: "email", validations: EMAIL_CHECKS } })
    .then(async (r) => {
      if (r.status === 200) return r;
      // Out of credits after the first test: the operator tops the organization up, on the shared log.
      const topUp = await runCli(
        ["credits", "grant", "--customer", organizations[9]!.customerId, "--amount", "10", "--reason", "cluster test"],
        { DATA_DIR: tempDataDir(), ASSAY_DATABASE_URL: url },
      );
      expect(topUp.code).toBe(0);
      return a.api("POST", "/api/jobs", {
        key: organizations[9]!.apiKey,
        body: { type: "email", validations: EMAIL_CHECKS },
      });
    });
  expect(status).toBe(200);
  const info = await transport(b.smtpPort).sendMail(trailheadMessage(job.testEmail));
  expect(info.response).toStartWith("250");
  for (let i = 0; ; i++) {
    const { body } = await a.api("GET", `/api/jobs/${job.jobId}`, { key: organizations[9]!.apiKey });
    if (body.status === "completed") {
      expect(body.results.map((r: any) => [r.validationId, r.verdict])).toEqual(EMAIL_CHECKS.map((id) => [id, "pass"]));
      break;
    }
    if (i > 300) throw new Error(`the job never completed: ${JSON.stringify(body)}`);
    await Bun.sleep(100);
  }
  // The raw message is in the shared directory: node A serves what node B's inbox took.
  const raw = await fetch(`${a.baseUrl}/api/jobs/${job.jobId}/email`, {
    headers: { authorization: `Bearer ${organizations[9]!.apiKey}` },
  });
  expect(raw.status).toBe(200);
  expect(await raw.text()).toContain("Spring sale");
});

test("a node killed with SIGKILL mid-job: a survivor closes its job interrupted and refunded once the node is silent", async () => {
  const victimDir = tempDataDir();
  const victim = await startNode(victimDir);
  const victimId = (await victim.api("GET", "/healthz")).body.node as string;
  const { apiKey: key } = await victim.signup();
  const opening = (await b.api("GET", "/api/credits", { key })).body.balance as number;
  const before = stalledRequests;
  const posted = victim
    .api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `http://127.0.0.1:${stalled.port}/never`, validations: ["page-title", "html-lang"] },
    })
    .catch((e: Error) => e);
  while (stalledRequests === before) await Bun.sleep(20);
  // Charged, on the shared log, while the victim renders.
  expect((await b.api("GET", "/api/credits", { key })).body.balance).toBeLessThan(opening);
  await victim.kill("SIGKILL");
  expect(await posted).toBeInstanceOf(Error);

  const [job] = await settledJobs(b, key);
  expect(job.status).toBe("interrupted");
  expect(job.credits.refunded).toBe(job.credits.charged);
  expect(job.results.every((r: any) => r.verdict === "error")).toBe(true);
  expect((await a.api("GET", "/api/credits", { key })).body.balance).toBe(opening);
  const closes = await query(
    `SELECT position FROM events WHERE type = 'JobSettled' AND data::json->>'jobId' = '${job.jobId}'`,
  );
  expect(closes).toHaveLength(1);

  // The node comes back as itself (its id is in its data directory) and catches up with what happened meanwhile.
  const back = await startNode(victimDir);
  expect((await back.api("GET", `/api/jobs/${job.jobId}`, { key })).body.status).toBe("interrupted");
  const health = (await back.api("GET", "/healthz")).body;
  expect(health.store.backend).toBe("postgres");
  expect(health.node).toBe(victimId);
  await back.kill("SIGTERM");
});

test("the monthly grant is made once across nodes, whichever sweeps first", async () => {
  await Promise.all([a.kill("SIGTERM"), b.kill("SIGTERM")]);
  const [a2, b2] = await Promise.all([
    startNode(a.dataDir, { ASSAY_CLOCK_OFFSET_DAYS: "40", ASSAY_GRANT_SWEEP_SECONDS: "1" }),
    startNode(b.dataDir, { ASSAY_CLOCK_OFFSET_DAYS: "40", ASSAY_GRANT_SWEEP_SECONDS: "1" }),
  ]);
  // Both sweep at start and every second; and requests on both grant lazily.
  await Promise.all(organizations.map((org, i) => (i % 2 ? a2 : b2).api("GET", "/api/credits", { key: org.apiKey })));
  await Bun.sleep(2500);
  const grants = await query<{ customer: string; period: string; n: string }>(
    "SELECT data::json->>'customerId' AS customer, data::json->>'period' AS period, COUNT(*) AS n FROM events WHERE type = 'CreditsGranted' AND data::json->>'reason' = 'monthly' GROUP BY 1, 2",
  );
  // Every organization (the ones of this file and the victim's) has this period's grant, once.
  expect(grants.length).toBeGreaterThanOrEqual(ORGANIZATIONS);
  for (const g of grants) expect(Number(g.n)).toBe(1);
  const verify = await runCli(["ledger", "verify"], { DATA_DIR: tempDataDir(), ASSAY_DATABASE_URL: url });
  expect(verify.code).toBe(0);
  a = a2;
  b = b2;
});

test("a per-address limit counts across nodes: sign-in links for one email, asked of both nodes in turn, stop at the limit", async () => {
  const email = `limits-${Date.now()}@example.com`;
  // ASSAY_SIGNIN_LINKS_PER_ADDRESS is 5: each node alone would allow five.
  for (let i = 0; i < 5; i++)
    expect((await (i % 2 ? b : a).api("POST", "/api/session/email", { body: { email } })).status).toBe(202);
  for (const node of [a, b]) {
    const refused = await node.api("POST", "/api/session/email", { body: { email } });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("SIGNIN_RATE_LIMITED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  }
});

test("/readyz fails, requests answer SERVICE_UNAVAILABLE and the inbox 451, while the database is away; /healthz still answers", async () => {
  const key = organizations[0]!.apiKey;
  expect((await a.api("GET", "/readyz")).body).toMatchObject({
    ready: true,
    store: { backend: "postgres", reachable: true },
  });
  await postgres.stop();
  const ready = await a.api("GET", "/readyz");
  expect(ready.status).toBe(503);
  expect(ready.body).toMatchObject({ ready: false, store: { backend: "postgres", reachable: false } });
  expect((await a.api("GET", "/healthz")).status).toBe(200);
  const refused = await a.api("GET", "/api/credits", { key });
  expect(refused.status).toBe(503);
  expect(refused.body.code).toBe("SERVICE_UNAVAILABLE");
  expect(refused.body.details).toMatchObject({ dependency: "event-log" });
  // The inbox cannot look a recipient up: 451, so the sender tries again later.
  const replies = await smtpSession(a.smtpPort, [
    "EHLO cluster.test",
    "MAIL FROM:<offers@trailhead.example>",
    "RCPT TO:<t-anyone@inbox.assay.localhost>",
    "QUIT",
  ]);
  expect(replies[3]).toStartWith("451 4.3.0");
});
