import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync } from "node:fs";
import { SQL } from "bun";
import {
  runCli,
  spawnBrowserWorker,
  spawnServer,
  tempDataDir,
  type BrowserWorkerProcess,
  type ServerProcess,
} from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Runs on two `assay serve` nodes sharing one PostgreSQL log, rendering in two remote browser workers: a 60-page
 * sitemap-like run (url pages on loopback) on one node while another organization's run goes on the other, each
 * page charged once and settled once, the run read alike on both nodes; and a node killed with SIGKILL mid-run,
 * whose jobs a survivor closes (interrupted, refunded) and whose run it completes, once. The shared log verifies.
 */
setDefaultTimeout(300_000);

const PAGES = 60;

let postgres: TestPostgres;
const shared = tempDataDir();
const dirs: string[] = [shared];
const nodes: ServerProcess[] = [];
let workers: BrowserWorkerProcess[] = [];
let site: ReturnType<typeof Bun.serve>;
/** Requests for `/stalled/...`: they never answer, so a page on them stays in capture until its node dies. */
let stalledRequests = 0;

beforeAll(async () => {
  postgres = await startPostgres();
  site = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path.startsWith("/stalled/")) {
        stalledRequests++;
        return new Promise<Response>(() => {});
      }
      const title = path === "/" ? "Home" : path.slice(1).replace(/\//g, " ");
      return new Response(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | Trailhead</title></head><body><h1>${title}</h1><a href="/">Home</a></body></html>`,
        { headers: { "content-type": "text/html" } },
      );
    },
  });
  workers = await Promise.all([spawnBrowserWorker(["--port", "0"]), spawnBrowserWorker(["--port", "0"])]);
});
afterAll(async () => {
  for (const n of nodes) await n.kill().catch(() => {});
  await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  site?.stop(true);
  await postgres?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startNode(): Promise<ServerProcess> {
  const dataDir = tempDataDir();
  dirs.push(dataDir);
  const node = await spawnServer(dataDir, {
    ASSAY_DATABASE_URL: postgres.url,
    ASSAY_SHARED_DIR: shared,
    ASSAY_NODE_TIMEOUT_SECONDS: "3",
    ASSAY_BROWSER_ENDPOINTS: workers.map((w) => w.endpoint).join(","),
    ASSAY_SIGNUP_CREDITS: "1000",
  });
  nodes.push(node);
  return node;
}

/** Rows of the shared log, read as an auditor would. */
async function query<T = any>(text: string): Promise<T[]> {
  const sql = new SQL(postgres.url, { max: 1 });
  try {
    return await sql.unsafe(text);
  } finally {
    await sql.close();
  }
}

async function settledRun(node: ServerProcess, key: string, runId: string): Promise<any> {
  for (let i = 0; i < 3000; i++) {
    const res = await node.api("GET", `/api/runs/${runId}`, { key });
    expect(res.status).toBe(200);
    if (res.body.status !== "running") return res.body;
    await Bun.sleep(100);
  }
  throw new Error(`run ${runId} never completed`);
}

/** Each page of a run charged once and settled once in the shared log, its credits in the ledger as on its job. */
async function expectSettledOnce(node: ServerProcess, key: string, run: any) {
  const credits = (await node.api("GET", "/api/credits?limit=200", { key })).body;
  for (const p of run.pages) {
    const job = (await node.api("GET", `/api/jobs/${p.jobId}`, { key })).body;
    const entries = credits.ledger.filter((e: any) => e.jobId === p.jobId);
    expect(entries.filter((e: any) => e.type === "CreditsCharged").map((e: any) => -e.amount)).toEqual([
      job.credits.charged,
    ]);
    expect(
      entries.filter((e: any) => e.type === "CreditsRefunded").reduce((n: number, e: any) => n + e.amount, 0),
    ).toBe(job.credits.refunded);
  }
  const ids = run.pages.map((p: any) => `'${p.jobId}'`).join(",");
  const settlements = await query<{ job: string; n: string }>(
    `SELECT data::json->>'jobId' AS job, COUNT(*) AS n FROM events WHERE type = 'JobSettled' AND data::json->>'jobId' IN (${ids}) GROUP BY 1`,
  );
  expect(settlements).toHaveLength(run.pages.length);
  for (const s of settlements) expect(Number(s.n)).toBe(1);
  const completions = await query(
    `SELECT position FROM events WHERE type = 'RunCompleted' AND data::json->>'runId' = '${run.runId}'`,
  );
  expect(completions).toHaveLength(1);
}

let a: ServerProcess;
let b: ServerProcess;

test(`a ${PAGES}-page run on one node and another organization's run on the other: every page charged once and settled once, the run alike on both nodes`, async () => {
  [a, b] = await Promise.all([startNode(), startNode()]);
  const big = await a.signup();
  const small = await b.signup();
  const urls = Array.from({ length: PAGES }, (_, i) => `http://127.0.0.1:${site.port}/section-${i % 6}/page-${i}`);
  const [bigRun, smallRun] = await Promise.all([
    a.api("POST", "/api/runs", {
      key: big.apiKey,
      body: {
        project: "trailhead",
        branch: "main",
        pages: urls.map((url) => ({ type: "url", url, validations: ["page-title", "html-lang", "single-h1"] })),
      },
    }),
    b.api("POST", "/api/runs", {
      key: small.apiKey,
      body: {
        project: "blog",
        pages: urls.slice(0, 8).map((url) => ({ type: "url", url, validations: ["page-title"] })),
      },
    }),
  ]);
  expect([bigRun.status, smallRun.status]).toEqual([202, 202]);

  // Read from the node that did not take it.
  const bigDone = await settledRun(b, big.apiKey, bigRun.body.runId);
  const smallDone = await settledRun(a, small.apiKey, smallRun.body.runId);
  expect(bigDone).toMatchObject({ status: "completed", decision: "pass" });
  expect(bigDone.totals).toMatchObject({ pages: PAGES, settled: PAGES, passed: PAGES, blocked: 0 });
  expect(smallDone).toMatchObject({ status: "completed", decision: "pass" });
  expect((await a.api("GET", `/api/runs/${bigRun.body.runId}`, { key: big.apiKey })).body).toEqual(bigDone);
  await expectSettledOnce(b, big.apiKey, bigDone);
  await expectSettledOnce(a, small.apiKey, smallDone);

  // The node that took each run executed its pages (their acceptance and settlement carry its name).
  const [nodeA, nodeB] = await Promise.all([a, b].map(async (n) => (await n.api("GET", "/healthz")).body.node));
  const runners = await query<{ node: string; n: string }>(
    `SELECT metadata::json->>'node' AS node, COUNT(*) AS n FROM events WHERE type = 'JobSettled' AND data::json->>'jobId' IN (${bigDone.pages.map((p: any) => `'${p.jobId}'`).join(",")}) GROUP BY 1`,
  );
  expect(runners).toEqual([{ node: nodeA, n: String(PAGES) }]);
  expect(nodeB).not.toBe(nodeA);

  const verify = await runCli(["ledger", "verify", "--json"], {
    DATA_DIR: tempDataDir(),
    ASSAY_DATABASE_URL: postgres.url,
  });
  expect(JSON.parse(verify.stdout).problems).toEqual([]);
  expect(verify.code).toBe(0);
});

test("a node killed with SIGKILL mid-run: a survivor closes its pages interrupted and refunded and completes the run, once", async () => {
  const victim = await startNode();
  const org = await victim.signup();
  const opening = (await b.api("GET", "/api/credits", { key: org.apiKey })).body.balance as number;
  const before = stalledRequests;
  const pages = Array.from({ length: 5 }, (_, i) => ({
    type: "url",
    url: `http://127.0.0.1:${site.port}/stalled/${i}`,
    validations: ["page-title", "html-lang"],
  }));
  const started = await victim.api("POST", "/api/runs", { key: org.apiKey, body: { project: "doomed", pages } });
  expect(started.status).toBe(202);
  // Both workers' turns taken by its first pages; the others wait on the victim.
  while (stalledRequests < before + 2) await Bun.sleep(20);
  await victim.kill("SIGKILL");

  const run = await settledRun(a, org.apiKey, started.body.runId);
  expect(run).toMatchObject({ status: "interrupted", decision: "undecided" });
  expect(run.pages.map((p: any) => p.status)).toEqual(Array(5).fill("interrupted"));
  expect(run.totals.credits.refunded).toBe(run.totals.credits.charged);
  expect((await a.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(opening);
  await expectSettledOnce(b, org.apiKey, run);
  const verify = await runCli(["ledger", "verify"], { DATA_DIR: tempDataDir(), ASSAY_DATABASE_URL: postgres.url });
  expect(verify.code).toBe(0);
});
