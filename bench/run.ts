/**
 * `npm run bench`: prints figures for the event store, replay and a static_html job, each next to a
 * baseline measured in the same run. It never fails on a figure; it exits non-zero only if something
 * crashed. Targets come from ARCHITECTURE.md, section "Targets".
 */
import { cpus, loadavg } from "node:os";
import { benchAppends } from "./store-bench";
import { benchReplay } from "./replay-bench";
import { benchJobs } from "./job-bench";
import { fmtInt, fmtMb, fmtMs, fmtRatio, nowMs, printTable, removeTempDirs, RssSampler, type Row } from "./support";

const started = nowMs();
const loadAtStart = loadavg()[0]!;
const rss = new RssSampler();
const log = (m: string) => console.error(`[bench ${((nowMs() - started) / 1000).toFixed(1)}s] ${m}`);

async function main(): Promise<void> {
  rss.start();
  const rows: Row[] = [];

  log("event store: appends through openStore() vs raw bun:sqlite INSERT");
  const a = benchAppends(rss);
  rows.push(
    {
      name: `append, 1 event per call (${fmtInt(a.singleCount)} calls, ${fmtInt(a.streams)} streams)`,
      value: `${fmtInt(a.singleRate)} ev/s`,
      baseline: `${fmtInt(a.rawSingleRate)} ev/s raw INSERT, 1 row/tx`,
      ratio: fmtRatio(a.singleRate / a.rawSingleRate),
      target: `>= 20,000 ev/s: ${a.singleRate >= 20_000 ? "met" : "NOT met"}`,
    },
    {
      name: `append, ${a.batchSize} events per call (${fmtInt(a.batchCalls)} calls)`,
      value: `${fmtInt(a.batchRate)} ev/s`,
      baseline: `${fmtInt(a.rawBatchRate)} ev/s raw INSERT, ${a.batchSize} rows/tx`,
      ratio: fmtRatio(a.batchRate / a.rawBatchRate),
      target: `>= 20,000 ev/s: ${a.batchRate >= 20_000 ? "met" : "NOT met"}`,
    },
  );

  log("replay: building a 100,000-event log, then rebuildProjections()");
  const r = await benchReplay(rss);
  log(`log built in ${(r.buildMs / 1000).toFixed(1)} s (${r.accounts} accounts, ${fmtInt(r.jobs)} jobs)`);
  rows.push(
    {
      name: `replay ${fmtInt(r.events)} events (rebuildProjections)`,
      value: `${(r.replayMs / 1000).toFixed(2)} s, ${fmtInt(r.rate)} ev/s`,
      baseline: "-",
      ratio: "-",
      target: `read models identical: ${r.balancesMatch ? "yes (balances)" : "NO"}`,
    },
    {
      name: "replay 1,000,000 events (linear extrapolation)",
      value: `${r.extrapolatedMillionS.toFixed(1)} s`,
      baseline: "60 s (ARCHITECTURE target)",
      ratio: fmtRatio(r.extrapolatedMillionS / 60),
      target: `<= 60 s: ${r.extrapolatedMillionS <= 60 ? "met" : "NOT met"}`,
    },
  );

  log("static_html job over HTTP vs bare playwright-core setContent (alternating)");
  const j = await benchJobs(rss);
  rows.push(
    {
      name: `static_html web-essentials job, p50 (n=${j.jobs.n})`,
      value: fmtMs(j.jobs.p50),
      baseline: `${fmtMs(j.baseline.p50)} bare setContent`,
      ratio: fmtRatio(j.jobs.p50 / j.baseline.p50),
      target: `p50 <= 500 ms: ${j.jobs.p50 <= 500 ? "met" : "NOT met"}`,
    },
    {
      name: `static_html web-essentials job, p95 (n=${j.jobs.n})`,
      value: fmtMs(j.jobs.p95),
      baseline: `${fmtMs(j.baseline.p95)} bare setContent`,
      ratio: fmtRatio(j.jobs.p95 / j.baseline.p95),
      target: "-",
    },
  );

  rss.stop();
  rows.push(
    {
      name: "peak RSS, bun process (sampled)",
      value: fmtMb(rss.peakSelf),
      baseline: "-",
      ratio: "-",
      target: "-",
    },
    {
      name: "peak PSS, bun + the app's Chromium (sampled 1/s)",
      value: rss.hasProc ? fmtMb(rss.peakService) : "n/a (no /proc)",
      baseline: "-",
      ratio: "-",
      target: "<= 1.5 GB at 4 clients (1 client here)",
    },
  );

  console.log("");
  console.log(
    `Assay bench: bun ${Bun.version}, ${cpus().length} cores, ${new Date().toISOString()}, ` +
      `1-min load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
  );
  console.log("");
  printTable(rows);
  console.log("");
  console.log("Notes:");
  console.log(
    `- append: CreditsGranted events through openStore() (schema check, expectedVersion, hash chain, projections in the same transaction); ` +
      `batches are 10 stream writes x 10 events. Baseline: the same rows into a bare table with the same pragmas and transaction boundaries.`,
  );
  console.log(
    `- replay log: ${r.accounts} signups, ${fmtInt(r.jobs)} web-essentials jobs (charge, accept, 9 results, settle, some refunds), topped up with grants; ` +
      `built in ${(r.buildMs / 1000).toFixed(1)} s (${fmtInt((r.events / r.buildMs) * 1000)} ev/s through the store).`,
  );
  console.log(
    `- job: POST /api/jobs end to end (HTTP, auth, charge, capture in Chromium, 9 checks, settle), page ${fmtInt(j.htmlBytes)} bytes, ` +
      `${j.pageHeight} px tall at 1280 wide; last job: ${j.verdicts}, charged ${j.charged}.`,
  );
  console.log(
    `  job      min ${fmtMs(j.jobs.min)}, mean ${fmtMs(j.jobs.mean)}, max ${fmtMs(j.jobs.max)}; ` +
      `baseline min ${fmtMs(j.baseline.min)}, mean ${fmtMs(j.baseline.mean)}, max ${fmtMs(j.baseline.max)} (newContext + newPage + setContent + evaluate + close).`,
  );
  console.log(`- memory: peak RSS of this Bun process, and peak PSS of it plus the app's Chromium processes (the baseline's Chromium excluded).`);
  console.log(`- total bench time ${((nowMs() - started) / 1000).toFixed(1)} s`);
}

try {
  await main();
  removeTempDirs();
  process.exit(0);
} catch (e) {
  rss.stop();
  removeTempDirs();
  console.error("bench crashed:", e);
  process.exit(1);
}
