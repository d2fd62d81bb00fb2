/**
 * The full-size site run (issue 26, section 6): a 1,000-page sitemap run on two `assay serve` nodes sharing one
 * PostgreSQL log, rendering in two remote browser workers (`assay browser-worker`), every page charged once and settled
 * once. The site is served on loopback (the site-run bench's pages, web-essentials with captureSizes all three) with a
 * sitemap; the run is made as a user makes it, by the client's `assay site --config` (the config names the sitemap)
 * against one node, timed from the command's start to its exit; the run is then read on the other node, and the log
 * audited: one CreditsCharged and one JobSettled per page's job, one RunCompleted, and `assay ledger verify` clean.
 *
 * It takes minutes (1,000 pages took 26 minutes on 2 cores shared with other work), so `npm run bench` runs it only when asked:
 * BENCH_CLUSTER_RUN_PAGES=1000 (or any size up to 1,000); `bun bench/cluster-run-bench.ts` runs it alone, at 1,000
 * pages unless BENCH_CLUSTER_RUN_PAGES says otherwise. test/service/cluster-runs.test.ts is the test, at 60 pages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { CAPTURE_SIZES } from "../src/capture/vocabulary";
import {
  runCli,
  runClient,
  spawnBrowserWorker,
  spawnServer,
  tempDataDir,
  type BrowserWorkerProcess,
  type ServerProcess,
} from "../test/support/harness";
import { startPostgres, type TestPostgres } from "../test/support/postgres";
import { serveSite } from "./site-run-bench";
import { nowMs, printTable, type Row } from "./support";

/** The size `bun bench/cluster-run-bench.ts` runs at, and the most a run takes (ASSAY_RUN_MAX_PAGES's default). */
export const CLUSTER_RUN_PAGES = 1000;
const WORKERS = 2;

export interface ClusterRunResult {
  pages: number;
  /** From `assay site`'s start to its exit: discovery, the run's admission, every page, the client's last poll. */
  wallMs: number;
  /** The run's own span: createdAt to completedAt. */
  runMs: number;
  status: string;
  decision: string;
  credits: { charged: number; refunded: number };
  /** What the log says of the run's jobs, counted per job. */
  ledger: {
    jobs: number;
    chargedOnce: number;
    settledOnce: number;
    runCompletions: number;
    verifyProblems: unknown[];
    verifyExit: number;
  };
  /** Jobs each node settled (by the node named on the event). */
  settledBy: Record<string, number>;
  load: { start: number; end: number };
}

export async function benchClusterRun(pages: number, log: (m: string) => void = () => {}): Promise<ClusterRunResult> {
  const start = loadavg()[0]!;
  const dirs: string[] = [];
  const dir = () => {
    const d = tempDataDir();
    dirs.push(d);
    return d;
  };
  const site = serveSite(pages);
  let postgres: TestPostgres | undefined;
  let workers: BrowserWorkerProcess[] = [];
  const nodes: ServerProcess[] = [];
  try {
    postgres = await startPostgres();
    workers = await Promise.all(Array.from({ length: WORKERS }, () => spawnBrowserWorker(["--port", "0"])));
    const shared = dir();
    const env = {
      ASSAY_DATABASE_URL: postgres.url,
      ASSAY_SHARED_DIR: shared,
      ASSAY_BROWSER_ENDPOINTS: workers.map((w) => w.endpoint).join(","),
      ASSAY_SIGNUP_CREDITS: "1000000",
    };
    nodes.push(...(await Promise.all([spawnServer(dir(), env), spawnServer(dir(), env)])));
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const { apiKey } = await a.signup();
    const work = mkdtempSync(join(tmpdir(), "assay-cluster-run-"));
    dirs.push(work);
    writeFileSync(
      join(work, "assay.config.json"),
      JSON.stringify({
        project: "tidewater",
        branch: "main",
        sitemap: { url: `http://127.0.0.1:${site.port}/sitemap.xml`, maxPages: pages },
        defaults: { validationSetId: "web-essentials", captureSizes: [...CAPTURE_SIZES] },
      }),
    );
    log(`cluster run: ${pages} pages from the sitemap through \`assay site\` on node A (${WORKERS} browser workers)`);
    const started = nowMs();
    const site_ = await runClient(
      ["site", "--format", "json", "--output", "run.json", "--timeout", "7200"],
      { ASSAY_BASE_URL: a.baseUrl, ASSAY_API_KEY: apiKey },
      work,
    );
    const wallMs = nowMs() - started;
    // 0 pass, 1 blocked: either is a run that completed; 2 is one that did not.
    if (site_.code !== 0 && site_.code !== 1)
      throw new Error(`assay site exited ${site_.code}: ${site_.stderr.slice(0, 2000)}`);
    const runId = JSON.parse(readFileSync(join(work, "run.json"), "utf8")).run.runId as string;
    // Read on the node that did not take it.
    const run = (await b.api("GET", `/api/runs/${runId}`, { key: apiKey })).body;
    if (run.totals.pages !== pages) throw new Error(`the run has ${run.totals.pages} pages, not ${pages}`);
    log(`cluster run: ${run.status} in ${(wallMs / 1000).toFixed(1)} s; auditing the log`);

    const sql = new SQL(postgres.url, { max: 1 });
    let counts: Array<{ type: string; job: string; n: string; node: string }>;
    let completions: unknown[];
    try {
      const ids = run.pages.map((p: { jobId: string }) => `'${p.jobId}'`).join(",");
      counts = await sql.unsafe(
        `SELECT type, data::json->>'jobId' AS job, COUNT(*) AS n, MIN(metadata::json->>'node') AS node FROM events
         WHERE type IN ('CreditsCharged', 'JobSettled') AND data::json->>'jobId' IN (${ids}) GROUP BY 1, 2`,
      );
      completions = await sql.unsafe(
        `SELECT position FROM events WHERE type = 'RunCompleted' AND data::json->>'runId' = '${runId}'`,
      );
    } finally {
      await sql.close();
    }
    const once = (type: string) => counts.filter((c) => c.type === type && Number(c.n) === 1).length;
    const settledBy: Record<string, number> = {};
    for (const c of counts.filter((c) => c.type === "JobSettled")) settledBy[c.node] = (settledBy[c.node] ?? 0) + 1;
    const verify = await runCli(["ledger", "verify", "--json"], { DATA_DIR: dir(), ASSAY_DATABASE_URL: postgres.url });
    return {
      pages,
      wallMs,
      runMs: Date.parse(run.completedAt) - Date.parse(run.createdAt),
      status: run.status,
      decision: run.decision,
      credits: { charged: run.totals.credits.charged, refunded: run.totals.credits.refunded },
      ledger: {
        jobs: run.pages.length,
        chargedOnce: once("CreditsCharged"),
        settledOnce: once("JobSettled"),
        runCompletions: completions.length,
        verifyProblems: JSON.parse(verify.stdout).problems,
        verifyExit: verify.code,
      },
      settledBy,
      load: { start, end: loadavg()[0]! },
    };
  } finally {
    for (const n of nodes) await n.kill("SIGTERM").catch(() => {});
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
    site.stop(true);
    await postgres?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

const perMinute = (pages: number, ms: number) => (pages / ms) * 60_000;

/** Whether every page was charged once and settled once, the run completed once and the ledger verifies. */
export const ledgerHolds = ({ pages, ledger }: ClusterRunResult) =>
  ledger.jobs === pages &&
  ledger.chargedOnce === pages &&
  ledger.settledOnce === pages &&
  ledger.runCompletions === 1 &&
  ledger.verifyProblems.length === 0 &&
  ledger.verifyExit === 0;

export function clusterRunRows(r: ClusterRunResult): Row[] {
  return [
    {
      name: `cluster run: ${r.pages}-page sitemap, 2 nodes on PostgreSQL, ${WORKERS} browser workers, web-essentials with captureSizes all three (assay site, start to exit)`,
      value: `${(r.wallMs / 1000).toFixed(1)} s, ${perMinute(r.pages, r.wallMs).toFixed(0)} pages/min`,
      baseline: `run's own span ${(r.runMs / 1000).toFixed(1)} s (${perMinute(r.pages, r.runMs).toFixed(0)}/min)`,
      ratio: "-",
      target: `every page charged and settled once, ledger verified: ${ledgerHolds(r) ? "met" : "NOT met"}`,
    },
  ];
}

export function clusterRunNotes(r: ClusterRunResult): string[] {
  const { ledger } = r;
  return [
    `- cluster run: ${r.pages} pages listed by a sitemap on 127.0.0.1, run by \`assay site --config\` against node A of two \`assay serve\` nodes on one PostgreSQL log, ` +
      `rendering in ${WORKERS} \`assay browser-worker\` processes on this machine (1 page each at once); the run ${r.status}, ${r.decision}, ` +
      `${r.credits.charged} credits charged, ${r.credits.refunded} refunded; read back on node B. ` +
      `The log: ${ledger.chargedOnce} of ${ledger.jobs} jobs charged exactly once, ${ledger.settledOnce} settled exactly once ` +
      `(settled by ${Object.entries(r.settledBy)
        .map(([node, n]) => `${node}: ${n}`)
        .join(", ")}), RunCompleted ${ledger.runCompletions} time(s); ` +
      `assay ledger verify exit ${ledger.verifyExit}, ${ledger.verifyProblems.length} problem(s). ` +
      `1-min load average ${r.load.start.toFixed(1)} before, ${r.load.end.toFixed(1)} after.`,
  ];
}

if (import.meta.main) {
  const pages = Math.min(CLUSTER_RUN_PAGES, Number(process.env.BENCH_CLUSTER_RUN_PAGES) || CLUSTER_RUN_PAGES);
  const result = await benchClusterRun(pages, (m) => console.error(`[cluster run] ${m}`));
  console.log(
    `Assay cluster-run bench: bun ${Bun.version}, ${cpus().length} cores, ${new Date().toISOString()}, 1-min load average ${result.load.start.toFixed(1)} at start, ${result.load.end.toFixed(1)} at end`,
  );
  printTable(clusterRunRows(result));
  for (const line of clusterRunNotes(result)) console.log(line);
  process.exit(ledgerHolds(result) ? 0 : 1);
}
