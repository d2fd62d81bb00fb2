/**
 * Jobs per minute of one node rendering in a local pool of 2 browsers, against the same node rendering in two remote
 * browser workers (`assay browser-worker`, each its own process with its own Chromium, on this machine): the soak's
 * harness (benchSoak: the same clients, the same job, the same duration) run once on each, local first. Both pools
 * have the same turns (2 browsers, the same pages per browser), so the ratio is what rendering over Playwright's
 * protocol costs or saves. Part of `npm run bench`; `bun bench/remote-browsers-bench.ts` runs it alone.
 */
import { availableParallelism } from "node:os";
import { spawnBrowserWorker } from "../test/support/harness";
import { startBenchApp } from "./bench-app";
import { benchSoak, type SoakResult } from "./soak-bench";
import { fmtMs, fmtRatio, printTable, removeTempDirs, type Row } from "./support";

const BROWSERS = 2;

export interface RemoteBrowsersResult {
  pagesPerBrowser: number;
  local: SoakResult;
  remote: SoakResult;
}

export async function benchRemoteBrowsers(clients: number, seconds: number, log: (m: string) => void): Promise<RemoteBrowsersResult> {
  // The local pool's default on this machine, given to the workers too (a node does not know a worker's cores).
  const pagesPerBrowser = Math.max(1, Math.floor(availableParallelism() / BROWSERS));
  const pages = { ASSAY_BROWSER_PAGES: String(pagesPerBrowser) };

  log(`remote browsers: ${clients} clients x ${seconds} s on one node with a local pool of ${BROWSERS}`);
  const localApp = await startBenchApp(BROWSERS, pages);
  let local: SoakResult;
  try {
    local = await benchSoak(localApp, clients, seconds);
  } finally {
    await localApp.close();
  }

  log(`remote browsers: the same on one node with ${BROWSERS} workers (assay browser-worker)`);
  const workers = await Promise.all(Array.from({ length: BROWSERS }, () => spawnBrowserWorker()));
  let remote: SoakResult;
  try {
    const remoteApp = await startBenchApp(BROWSERS, { ...pages, ASSAY_BROWSER_ENDPOINTS: workers.map((w) => w.endpoint).join(",") });
    try {
      remote = await benchSoak(remoteApp, clients, seconds);
    } finally {
      await remoteApp.close();
    }
  } finally {
    await Promise.all(workers.map((w) => w.kill("SIGTERM")));
  }
  return { pagesPerBrowser, local, remote };
}

export function remoteBrowserRows({ pagesPerBrowser, local, remote }: RemoteBrowsersResult): Row[] {
  const setup = `${remote.clients} clients x ${remote.seconds} s, ${BROWSERS} browsers x ${pagesPerBrowser} page(s)`;
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
