/**
 * `bun bench/image-text-bench.ts`: what reading the text in pictures (OCR) costs a static_html web-essentials job.
 * Runs the job bench (the app's job beside a bare playwright-core harness, rotating: bench/job-bench.ts) with a pool
 * of one browser, then profiles more jobs in a row (the `gather image-text` phase among the others), and times the
 * Tesseract reading of the job's pictures on its own. BENCH_RUNS (default 30) jobs are timed.
 */
import { startBenchApp } from "./bench-app";
import { benchJobs } from "./job-bench";
import { profileJobs, profileRows } from "./profile";
import { fmtMs, fmtRatio, printTable, removeTempDirs, RssSampler, type Row } from "./support";

const runs = Math.max(5, Number(process.env.BENCH_RUNS) || 30);
const rss = new RssSampler();
const app = await startBenchApp(1);
const rows: Row[] = [];
try {
  const j = await benchJobs(app, rss, { warmup: 3, runs });
  rows.push({
    name: `static_html web-essentials job, 3 sizes, p50 (n=${j.jobs.n})`,
    value: fmtMs(j.jobs.p50),
    baseline: `${fmtMs(j.harness.p50)} bare harness`,
    ratio: fmtRatio(j.jobs.p50 / j.harness.p50),
    target: `verdicts: ${j.verdicts}`,
  });
  const key = await app.newApiKey();
  const profile = await profileJobs("static_html web-essentials job", 10, async () => (await app.runJob(key)).ms);
  rows.push(...profileRows(profile).slice(0, 8));
} finally {
  await app.close();
  removeTempDirs();
}
printTable(rows);
