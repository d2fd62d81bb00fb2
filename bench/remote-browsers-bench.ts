/**
 * Jobs per minute of one node rendering in a local pool of 2 browsers, against the same node rendering in two remote
 * browser workers (`assay browser-worker`, each its own process with its own Chromium, on this machine): the soak's
 * harness (benchSoak: the same clients, the same job) on each. Both nodes are up at once and their soaks alternate in
 * rounds, so whatever else the machine does weighs on both alike. Both pools have the same turns (2 browsers, the
 * same pages per browser), so the ratio is what rendering over Playwright's protocol costs or saves. Part of
 * `npm run bench`; `bun bench/remote-browsers-bench.ts` runs it alone.
 */
import { availableParallelism } from "node:os";
import { spawnBrowserWorker } from "../test/support/harness";
import { startBenchApp, type BenchApp } from "./bench-app";
import { benchSoak, type SoakResult } from "./soak-bench";
import { fmtMs, fmtRatio, printTable, removeTempDirs, summary, type Row } from "./support";

const BROWSERS = 2;
/** Rounds per node: local, remote, local, remote… each a third of the time. */
const ROUNDS = 3;

/** A node's rounds added up. */
export interface NodeFigures {
  completed: number;
  failed: number;
  jobsPerMinute: number;
  latency: ReturnType<typeof summary>;
}

export interface RemoteBrowsersResult {
  clients: number;
  seconds: number;
  pagesPerBrowser: number;
  local: NodeFigures;
  remote: NodeFigures;
}

export async function benchRemoteBrowsers(
  clients: number,
  seconds: number,
  log: (m: string) => void,
): Promise<RemoteBrowsersResult> {
  // The local pool's default on this machine, given to the workers too (a node does not know a worker's cores).
  const pagesPerBrowser = Math.max(1, Math.floor(availableParallelism() / BROWSERS));
  const pages = { ASSAY_BROWSER_PAGES: String(pagesPerBrowser) };
  const workers = await Promise.all(Array.from({ length: BROWSERS }, () => spawnBrowserWorker()));
  const apps: BenchApp[] = [];
  try {
    apps.push(await startBenchApp(BROWSERS, pages));
    apps.push(
      await startBenchApp(BROWSERS, { ...pages, ASSAY_BROWSER_ENDPOINTS: workers.map((w) => w.endpoint).join(",") }),
    );
    const [localApp, remoteApp] = apps as [BenchApp, BenchApp];
    const rounds: { local: SoakResult[]; remote: SoakResult[] } = { local: [], remote: [] };
    const roundSeconds = seconds / ROUNDS;
    for (let round = 1; round <= ROUNDS; round++) {
      log(
        `remote browsers, round ${round}/${ROUNDS}: ${clients} clients x ${roundSeconds.toFixed(0)} s on a local pool of ${BROWSERS}, then on ${BROWSERS} workers`,
      );
      rounds.local.push(await benchSoak(localApp, clients, roundSeconds));
      rounds.remote.push(await benchSoak(remoteApp, clients, roundSeconds));
    }
    return { clients, seconds, pagesPerBrowser, local: addUp(rounds.local), remote: addUp(rounds.remote) };
  } finally {
    for (const app of apps) await app.close();
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  }
}

function addUp(soaks: SoakResult[]): NodeFigures {
  const times = soaks.flatMap((s) => s.times);
  const elapsedMs = soaks.reduce((n, s) => n + s.elapsedMs, 0);
  return {
    completed: times.length,
    failed: soaks.reduce((n, s) => n + s.failed, 0),
    jobsPerMinute: times.length / (elapsedMs / 60_000),
    latency: summary(times),
  };
}

export function remoteBrowserRows({ clients, seconds, pagesPerBrowser, local, remote }: RemoteBrowsersResult): Row[] {
  const setup = `${clients} clients x ${seconds} s, ${BROWSERS} browsers x ${pagesPerBrowser} page(s)`;
  return [
    {
      name: `${setup}: throughput, ${BROWSERS} remote workers`,
      value: `${remote.jobsPerMinute.toFixed(1)} jobs/min`,
      baseline: `${local.jobsPerMinute.toFixed(1)} jobs/min local pool`,
      ratio: fmtRatio(remote.jobsPerMinute / local.jobsPerMinute),
      target: `- (failed: ${remote.failed} remote, ${local.failed} local)`,
    },
    {
      name: `${setup}: job latency p50 / p95, remote workers`,
      value: `${fmtMs(remote.latency.p50)} / ${fmtMs(remote.latency.p95)}`,
      baseline: `${fmtMs(local.latency.p50)} / ${fmtMs(local.latency.p95)} local pool`,
      ratio: fmtRatio(remote.latency.p50 / local.latency.p50),
      target: "-",
    },
  ];
}

if (import.meta.main) {
  const seconds = Math.max(1, Number(process.env.BENCH_SOAK_SECONDS) || 60);
  try {
    printTable(remoteBrowserRows(await benchRemoteBrowsers(4, seconds, (m) => console.error(m))));
  } finally {
    removeTempDirs();
  }
}
