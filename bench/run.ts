/**
 * `npm run bench`: prints figures for the event log, replay, a static_html job (beside a bare
 * playwright-core harness and one Lighthouse run), 4 concurrent clients (a local pool, then two remote browser workers),
 * MCP and the command line beside HTTP, the layout checks in WebKit and in Gecko beside Chromium, email jobs over SMTP (and
 * with Apple Mail in WebKit beside without, with a WebKit render's cold and warm cost), and a 50-page site as one run
 * beside its 50 bare jobs, each next to a baseline
 * measured in the same run. It never fails on a figure; it exits non-zero only if something
 * crashed. Targets come from ARCHITECTURE.md, section "Targets".
 *
 * Options (environment): BENCH_SOAK_SECONDS (60), BENCH_SITE_RUN_ROUNDS (3), and BENCH_CLUSTER_RUN_PAGES: the
 * full-size site run (a sitemap of that many pages, up to 1,000, on two nodes on PostgreSQL with two browser workers,
 * every page's charge and settlement audited: bench/cluster-run-bench.ts), left out unless set, since it takes minutes.
 */
import { cpus, loadavg } from "node:os";
import { benchAppends } from "./store-bench";
import { benchPgAppends, benchPgReplay } from "./pg-store-bench";
import { benchReplay } from "./replay-bench";
import { benchJobs } from "./job-bench";
import { benchLighthouse } from "./lighthouse-bench";
import { benchSoak } from "./soak-bench";
import { benchMcp, mcpNotes, mcpRows } from "./mcp-bench";
import { benchEmail } from "./email-bench";
import { benchAppleMail } from "./apple-mail-bench";
import { benchCli, cliRows } from "./cli-run-bench";
import { benchEngines, engineRows } from "./engine-bench";
import { benchRemoteBrowsers, remoteBrowserRows } from "./remote-browsers-bench";
import { startBenchApp } from "./bench-app";
import { benchSiteRun, siteRunNotes, siteRunRows } from "./site-run-bench";
import { benchClusterRun, CLUSTER_RUN_PAGES, clusterRunNotes, clusterRunRows } from "./cluster-run-bench";
import { profileJobs, profileRows, type JobProfile } from "./profile";
import { CAPTURE_SIZES } from "../src/capture/vocabulary";
import { fmtInt, fmtMb, fmtMs, fmtRatio, nowMs, printTable, removeTempDirs, RssSampler, type Row } from "./support";

const started = nowMs();
const loadAtStart = loadavg()[0]!;
const rss = new RssSampler();
const soakSeconds = Math.max(1, Number(process.env.BENCH_SOAK_SECONDS) || 60);
const clusterRunPages = Math.min(CLUSTER_RUN_PAGES, Math.max(0, Number(process.env.BENCH_CLUSTER_RUN_PAGES) || 0));
const SOAK_CLIENTS = 4;
const SOAK_POOL_SIZE = 2;
const PROFILE_JOBS = 20;
const log = (m: string) => console.error(`[bench ${((nowMs() - started) / 1000).toFixed(1)}s] ${m}`);

async function main(): Promise<void> {
  rss.start();
  const rows: Row[] = [];

  log("event log: appends through openSqliteLog() vs raw bun:sqlite INSERT");
  const a = await benchAppends(rss);
  rows.push(
    {
      name: `append, 1 event per call, ${a.callers} callers at once (group commit, ${a.perCommit.toFixed(1)} appends/commit)`,
      value: `${fmtInt(a.groupedRate)} ev/s`,
      baseline: `${fmtInt(a.rawSingleRate)} ev/s raw INSERT, 1 row/tx`,
      ratio: fmtRatio(a.groupedRate / a.rawSingleRate),
      target: `>= 20,000 ev/s: ${a.groupedRate >= 20_000 ? "met" : "NOT met"}`,
    },
    {
      name: `append, 1 event per call, one caller (${fmtInt(a.singleCount)} calls, ${fmtInt(a.streams)} streams, a commit each)`,
      value: `${fmtInt(a.singleRate)} ev/s`,
      baseline: `${fmtInt(a.rawSingleRate)} ev/s raw INSERT, 1 row/tx`,
      ratio: fmtRatio(a.singleRate / a.rawSingleRate),
      target: "- (nothing to group)",
    },
    {
      name: `append, ${a.batchSize} events per call (${fmtInt(a.batchCalls)} calls)`,
      value: `${fmtInt(a.batchRate)} ev/s`,
      baseline: `${fmtInt(a.rawBatchRate)} ev/s raw INSERT, ${a.batchSize} rows/tx`,
      ratio: fmtRatio(a.batchRate / a.rawBatchRate),
      target: `>= 20,000 ev/s: ${a.batchRate >= 20_000 ? "met" : "NOT met"}`,
    },
  );

  log(
    "event log on PostgreSQL: appends through the nodes' log (PgEventLog: replica, projections, advisory lock) vs raw INSERT, on a throwaway cluster from Debian's packages",
  );
  const pg = await benchPgAppends();
  rows.push(
    {
      name: `append on PostgreSQL ${pg.version.split(" ")[0]}, 1 event per call, one caller (${fmtInt(pg.calls)} calls)`,
      value: `${fmtInt(pg.singleRate)} ev/s`,
      baseline: `${fmtInt(pg.rawSingleRate)} ev/s raw INSERT, 1 row/tx`,
      ratio: fmtRatio(pg.singleRate / pg.rawSingleRate),
      target: "-",
    },
    {
      name: `  the same from ${pg.callers} callers on one node (group commit: one lock, one fsync a group)`,
      value: `${fmtInt(pg.groupedRate)} ev/s`,
      baseline: `${fmtInt(pg.sqliteGroupedRate)} ev/s SQLite log, ${pg.callers} callers`,
      ratio: fmtRatio(pg.groupedRate / pg.sqliteGroupedRate),
      target: "-",
    },
    {
      name: `  ${pg.callers} callers on each of two nodes (the advisory lock serializes the nodes' groups)`,
      value: `${fmtInt(pg.twoNodesRate)} ev/s`,
      baseline: `${fmtInt(pg.groupedRate)} ev/s one node`,
      ratio: fmtRatio(pg.twoNodesRate / pg.groupedRate),
      target: "-",
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
  log(
    "replay on PostgreSQL: the same log copied into PostgreSQL (migrate-store's copy), then a node joining with an empty replica pulls and projects it",
  );
  const pgReplay = await benchPgReplay(r.dataDir);
  rows.push({
    name: `a new node's pull of ${fmtInt(pgReplay.events)} events from PostgreSQL (copy + projections)`,
    value: `${(pgReplay.pullMs / 1000).toFixed(2)} s, ${fmtInt((pgReplay.events / pgReplay.pullMs) * 1000)} ev/s`,
    baseline: `${(pgReplay.sqliteReplayMs / 1000).toFixed(2)} s SQLite replay, same events`,
    ratio: fmtRatio(pgReplay.pullMs / pgReplay.sqliteReplayMs),
    target: "-",
  });

  const sizes = CAPTURE_SIZES.join(", ");
  log(`starting the app in-process (browser pool of ${SOAK_POOL_SIZE})`);
  const app = await startBenchApp(SOAK_POOL_SIZE);
  let j: Awaited<ReturnType<typeof benchJobs>>;
  let lh: Awaited<ReturnType<typeof benchLighthouse>>;
  let soak: Awaited<ReturnType<typeof benchSoak>>;
  let mcp: Awaited<ReturnType<typeof benchMcp>>;
  let cli: Awaited<ReturnType<typeof benchCli>>;
  let engines: Awaited<ReturnType<typeof benchEngines>>;
  let webProfile: JobProfile;
  try {
    log(`static_html web-essentials job at ${sizes} over HTTP vs a bare playwright-core harness (rotating)`);
    j = await benchJobs(app, rss);
    log(
      `job p50 ${fmtMs(j.jobs.p50)}, harness p50 ${fmtMs(j.harness.p50)}; profile of ${PROFILE_JOBS} more jobs in a row`,
    );
    const profileKey = await app.newApiKey();
    webProfile = await profileJobs(
      `static_html web-essentials job, 3 sizes`,
      PROFILE_JOBS,
      async () => (await app.runJob(profileKey)).ms,
    );
    log("one Lighthouse CLI run on the same page (127.0.0.1)");
    lh = await benchLighthouse(app.executablePath, rss);
    log(lh.ok ? `Lighthouse ${lh.version}: ${(lh.wallMs / 1000).toFixed(1)} s` : `Lighthouse failed: ${lh.error}`);
    log(`${SOAK_CLIENTS} concurrent clients for ${soakSeconds} s (BENCH_SOAK_SECONDS), pool of ${SOAK_POOL_SIZE}`);
    soak = await benchSoak(app, SOAK_CLIENTS, soakSeconds);
    log("MCP vs HTTP: tools/call list_validations vs GET /api/validations, tools/call run_job vs POST /api/jobs");
    mcp = await benchMcp(app);
    log("the command line: assay run request.json vs the bare POST /api/jobs, and assay --version");
    cli = await benchCli(app);
    log(
      "the layout checks in Chromium alone, then with WebKit (WebKitGTK under Xvfb), then with Gecko (Firefox ESR), one job of each in turn",
    );
    engines = await benchEngines(app);
  } finally {
    await app.close();
  }

  const jobRatio = j.jobs.p50 / j.harness.p50;
  rows.push(
    {
      name: `static_html web-essentials job, 3 sizes, p50 (n=${j.jobs.n})`,
      value: fmtMs(j.jobs.p50),
      baseline: `${fmtMs(j.harness.p50)} bare harness`,
      ratio: fmtRatio(jobRatio),
      target: `p50 <= 500 ms: ${j.jobs.p50 <= 500 ? "met" : "NOT met"}; <= 1.5x harness: ${jobRatio <= 1.5 ? "met" : "NOT met"}`,
    },
    {
      name: `static_html web-essentials job, 3 sizes, p95 (n=${j.jobs.n})`,
      value: fmtMs(j.jobs.p95),
      baseline: `${fmtMs(j.harness.p95)} bare harness`,
      ratio: fmtRatio(j.jobs.p95 / j.harness.p95),
      target: "-",
    },
    {
      name: `  same job vs harness without screenshots, p50`,
      value: fmtMs(j.jobs.p50),
      baseline: `${fmtMs(j.harnessDom.p50)} harness, DOM only`,
      ratio: fmtRatio(j.jobs.p50 / j.harnessDom.p50),
      target: "- (the job's checks read no screenshot)",
    },
    {
      name: `  same job vs harness without screenshots, p95`,
      value: fmtMs(j.jobs.p95),
      baseline: `${fmtMs(j.harnessDom.p95)} harness, DOM only`,
      ratio: fmtRatio(j.jobs.p95 / j.harnessDom.p95),
      target: "-",
    },
    lh.ok
      ? {
          name: "one Lighthouse CLI run, same page (wall time)",
          value: `${(lh.wallMs / 1000).toFixed(2)} s`,
          baseline: `${fmtMs(j.jobs.p50)} job p50`,
          ratio: fmtRatio(lh.wallMs / j.jobs.p50),
          target: `Lighthouse >= 20x job p50: ${lh.wallMs / j.jobs.p50 >= 20 ? "met" : "NOT met"}`,
        }
      : {
          name: "one Lighthouse CLI run, same page (wall time)",
          value: "failed",
          baseline: "-",
          ratio: "-",
          target: lh.error.slice(0, 80),
        },
    {
      name: `${soak.clients} clients x ${soak.seconds} s, pool ${SOAK_POOL_SIZE}: throughput`,
      value: `${soak.jobsPerMinute.toFixed(1)} jobs/min`,
      baseline: `${fmtInt(soak.completed)} done, ${soak.failed} failed`,
      ratio: "-",
      target: `>= 100 jobs/min: ${soak.jobsPerMinute >= 100 ? "met" : "NOT met"}`,
    },
    {
      name: `${soak.clients} clients: job latency p50 / p95`,
      value: `${fmtMs(soak.latency.p50)} / ${fmtMs(soak.latency.p95)}`,
      baseline: `${fmtMs(j.jobs.p50)} / ${fmtMs(j.jobs.p95)} at 1 client`,
      ratio: fmtRatio(soak.latency.p95 / j.jobs.p95),
      target: "-",
    },
    {
      name: `${soak.clients} clients: peak RSS, bun + app Chromium (sum)`,
      value: soak.memory.hasProc ? fmtMb(soak.memory.peakRss) : "n/a (no /proc)",
      baseline: soak.memory.hasProc ? `${fmtMb(soak.memory.peakPss)} PSS` : "-",
      ratio: "-",
      target: soak.memory.hasProc
        ? `<= 1.5 GB: ${soak.memory.peakRss <= 1.5 * 1024 ** 3 ? "met" : "NOT met"} (RSS); ${soak.memory.peakPss <= 1.5 * 1024 ** 3 ? "met" : "NOT met"} (PSS)`
        : "-",
    },
  );

  const remote = await benchRemoteBrowsers(SOAK_CLIENTS, soakSeconds, log);
  rows.push(...remoteBrowserRows(remote));

  const email = await benchEmail(log);
  rows.push(...email.rows);
  const appleMail = await benchAppleMail(log);
  rows.push(...appleMail.rows);

  rows.push(...mcpRows(mcp));
  rows.push(...cliRows(cli));
  rows.push(...engineRows(engines));

  log(
    "a 50-page site on loopback as one run vs 50 bare POST /api/jobs with the same concurrency (BENCH_SITE_RUN_ROUNDS)",
  );
  const siteRun = await benchSiteRun(log);
  rows.push(...siteRunRows(siteRun));

  const clusterRun = clusterRunPages ? await benchClusterRun(clusterRunPages, log) : undefined;
  if (clusterRun) rows.push(...clusterRunRows(clusterRun));

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
      name: "peak PSS, bun + the app's Chromium (whole run, sampled 1/s)",
      value: rss.hasProc ? fmtMb(rss.peakService) : "n/a (no /proc)",
      baseline: rss.hasProc ? `${fmtMb(rss.peakServiceRss)} RSS sum` : "-",
      ratio: "-",
      target: "-",
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
  console.log(
    "Where the time goes (phases published on the assay.phase channel, src/phases.ts; parallel phases overlap):",
  );
  console.log("");
  printTable([...profileRows(webProfile!), ...profileRows(siteRun.profile), ...profileRows(email.profile)]);
  console.log("");
  console.log("Notes:");
  console.log(
    `- append: CreditsGranted events through openSqliteLog() (schema check, expectedVersion, hash chain, projections in the same transaction); ` +
      `batches are 10 stream writes x 10 events. Baseline: the same rows into a bare table with the same pragmas and transaction boundaries.`,
  );
  console.log(
    `- replay log: ${r.accounts} signups, ${fmtInt(r.jobs)} web-essentials jobs (charge, accept, 9 results, settle, some refunds), topped up with grants; ` +
      `built in ${(r.buildMs / 1000).toFixed(1)} s (${fmtInt((r.events / r.buildMs) * 1000)} ev/s through the log).`,
  );
  console.log(
    `- job: POST /api/jobs end to end (HTTP, auth, charge, capture in Chromium: load through the app's routing, DOM snapshot at ${sizes}, 9 checks, settle), ` +
      `page ${fmtInt(j.htmlBytes)} bytes, ${Object.entries(j.pageHeights)
        .map(([k, v]) => `${v} px tall at ${k}`)
        .join(", ")}; last job: ${j.verdicts}, charged ${j.charged}. ` +
      `web-essentials checks read the DOM only, so the job takes no screenshot.`,
  );
  console.log(
    `  job      min ${fmtMs(j.jobs.min)}, mean ${fmtMs(j.jobs.mean)}, max ${fmtMs(j.jobs.max)}; ` +
      `harness min ${fmtMs(j.harness.min)}, mean ${fmtMs(j.harness.mean)}, max ${fmtMs(j.harness.max)}; ` +
      `DOM-only harness min ${fmtMs(j.harnessDom.min)}, mean ${fmtMs(j.harnessDom.mean)}, max ${fmtMs(j.harnessDom.max)}.`,
  );
  console.log(
    `- harness: its own warm Chromium (the app's flags); per run newContext + newPage + setContent, then per size setViewportSize + one evaluate ` +
      `(title, metas, headings, images, visible text) + a full-page JPEG q80 (${fmtInt(j.screenshotBytes)} bytes for the three), close. ` +
      `The DOM-only variant is the same without the screenshots. Runs rotate job, harness, DOM-only harness.`,
  );
  console.log(
    lh.ok
      ? `- Lighthouse ${lh.version} CLI (default config: all categories, mobile emulation, simulated throttling) in its own Node process, ` +
          `--chrome-path ${app.executablePath} with the base flags only (no network lock-down), page served by Bun.serve on 127.0.0.1; ` +
          `wall ${(lh.wallMs / 1000).toFixed(2)} s, of which its own timing.total ${(lh.auditMs / 1000).toFixed(2)} s; scores: ${lh.scores}.`
      : `- Lighthouse did not complete: ${lh.error}`,
  );
  console.log(
    `- soak: ${soak.clients} clients, each with its own account, posting the same job back to back for ${soak.seconds} s (BENCH_SOAK_SECONDS); ` +
      `${fmtInt(soak.completed)} jobs in ${(soak.elapsedMs / 1000).toFixed(1)} s (jobs started before the deadline finish), ${soak.failed} failed` +
      `${soak.firstFailure ? ` (first: ${soak.firstFailure})` : ""}; latency min ${fmtMs(soak.latency.min)}, mean ${fmtMs(soak.latency.mean)}, max ${fmtMs(soak.latency.max)}. ` +
      `Memory sampled from /proc twice a second during the soak: bun and its ${soak.memory.processes} descendant processes at the PSS peak; ` +
      `bun alone peaked at ${fmtMb(soak.memory.peakSelf)} RSS. The RSS sum counts pages shared between Chromium's processes once per process (an upper bound); PSS splits them.`,
  );
  console.log(
    `- remote browsers: the soak's clients, job and duration on a node with a local pool of 2 browsers and on a node rendering in 2 ` +
      `\`assay browser-worker\` processes on this machine (ASSAY_BROWSER_ENDPOINTS), ${remote.pagesPerBrowser} page(s) per browser in both; ` +
      `both nodes up at once, their soaks alternating in 3 rounds; ${remote.local.completed} and ${remote.remote.completed} jobs done.`,
  );
  for (const line of email.notes) console.log(line);
  for (const line of appleMail.notes) console.log(line);
  for (const line of mcpNotes(mcp)) console.log(line);
  for (const line of siteRunNotes(siteRun)) console.log(line);
  if (clusterRun) for (const line of clusterRunNotes(clusterRun)) console.log(line);
  else
    console.log(
      `- cluster run: left out; BENCH_CLUSTER_RUN_PAGES=${CLUSTER_RUN_PAGES} runs a ${CLUSTER_RUN_PAGES}-page sitemap on two nodes on PostgreSQL with remote browser workers (minutes), or \`bun bench/cluster-run-bench.ts\` alone.`,
    );
  console.log(
    `- memory rows: peak RSS of this Bun process, and peak PSS of it plus the app's Chromium processes over the whole run (the harness's Chromium and Lighthouse excluded).`,
  );
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
