/**
 * A run is not slower than its jobs: a 50-page static site served on loopback (Bun.serve), each page web-essentials
 * with captureSizes all three (its checks read desktop-md alone, so that size alone is rendered), checked once as one
 * run (POST /api/runs with wait: true, timed to its answer) and once as 50 bare POST /api/jobs from one client keeping
 * as many in flight as the pool renders at once (the run feeds its pages with that concurrency too), timed to the
 * last answer. Rounds alternate which goes first, so both see the same warm pool and the same machine. Before the
 * rounds, a few pages as lone jobs one at a time are profiled (phases, CPU by process). Part of `npm run bench`;
 * `bun bench/site-run-bench.ts` runs it alone.
 */
import { cpus, loadavg } from "node:os";
import { CAPTURE_SIZES } from "../src/capture/vocabulary";
import { startBenchApp, type BenchApp } from "./bench-app";
import { LANDING_PAGE_HTML } from "./landing-page";
import { profileJobs, profileRows, type JobProfile } from "./profile";
import { fmtRatio, nowMs, printTable, removeTempDirs, summary, type Row } from "./support";

export const SITE_PAGES = 50;
/** Browsers in the pool, as the soak's: pages per browser follow from the cores. */
const POOL_SIZE = 2;
/** Pages profiled one at a time before the rounds (where a page's time and CPU go). */
const PROFILED_PAGES = 10;

export interface SiteRunBenchResult {
  pages: number;
  rounds: number;
  /** Pages in flight at once: the pool's capacity, for the run and for the client of bare jobs. */
  concurrency: number;
  run: ReturnType<typeof summary>;
  jobs: ReturnType<typeof summary>;
  decision: string;
  creditsPerRun: number;
  /** One page's job, one at a time: its phases and its CPU by process. */
  profile: JobProfile;
  load: { start: number; end: number };
}

/**
 * The site: page i at /p/i/, the landing page with a title of its own, linking to the next page; /sitemap.xml lists
 * `pages` of them (the cluster run's sitemap).
 */
export function serveSite(pages = SITE_PAGES) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const { pathname, origin } = new URL(req.url);
      if (pathname === "/sitemap.xml") {
        const urls = Array.from({ length: pages }, (_, i) => `<url><loc>${origin}/p/${i}/</loc></url>`);
        return new Response(
          `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
          { headers: { "content-type": "application/xml" } },
        );
      }
      const m = /^\/p\/(\d+)\/$/.exec(pathname);
      if (!m) return new Response("not found", { status: 404 });
      const html = LANDING_PAGE_HTML.replace(/<title>[^<]*<\/title>/, `<title>Page ${m[1]} | Tidewater</title>`);
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  });
}

async function post(app: BenchApp, apiKey: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export async function benchSiteRun(
  log: (m: string) => void = () => {},
  rounds = Math.max(1, Number(process.env.BENCH_SITE_RUN_ROUNDS) || 3),
): Promise<SiteRunBenchResult> {
  const start = loadavg()[0]!;
  const site = serveSite();
  const app = await startBenchApp(POOL_SIZE, { ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
  try {
    const apiKey = await app.newApiKey();
    const pages = Array.from({ length: SITE_PAGES }, (_, i) => ({
      type: "url",
      url: `http://127.0.0.1:${site.port}/p/${i}/`,
      validationSetId: "web-essentials",
      captureSizes: [...CAPTURE_SIZES],
    }));
    const concurrency = app.capacity;
    // One page of each kind first: the pool, the guard and the app warm.
    await post(app, apiKey, "/api/jobs", pages[0]);
    await post(app, apiKey, "/api/runs", { project: "warm-up", pages: pages.slice(0, 2), wait: true });
    let profiled = 0;
    const profile = await profileJobs(
      "a site's url page as a lone job, web-essentials, captureSizes all three",
      PROFILED_PAGES,
      async () => {
        const started = nowMs();
        await post(app, apiKey, "/api/jobs", pages[profiled++ % pages.length]);
        return nowMs() - started;
      },
    );

    const asJobs = async () => {
      const queue = [...pages];
      const started = nowMs();
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          for (let page = queue.shift(); page; page = queue.shift()) {
            const job = await post(app, apiKey, "/api/jobs", page);
            if (job.status !== "completed") throw new Error(`job ${job.jobId} ended ${job.status}`);
          }
        }),
      );
      return nowMs() - started;
    };
    let decision = "";
    let creditsPerRun = 0;
    const asRun = async (round: number) => {
      const started = nowMs();
      const run = await post(app, apiKey, "/api/runs", {
        project: "site",
        branch: `round-${round}`,
        pages,
        wait: true,
      });
      const ms = nowMs() - started;
      if (run.status !== "completed" || run.totals.settled !== SITE_PAGES)
        throw new Error(`run ${run.runId} ended ${run.status} with ${run.totals.settled} pages settled`);
      decision = run.decision;
      creditsPerRun = run.totals.credits.net;
      return ms;
    };
    const runMs: number[] = [];
    const jobsMs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        jobsMs.push(await asJobs());
        runMs.push(await asRun(round));
      } else {
        runMs.push(await asRun(round));
        jobsMs.push(await asJobs());
      }
      log(
        `site run round ${round + 1}/${rounds}: run ${(runMs[round]! / 1000).toFixed(1)} s, 50 bare jobs ${(jobsMs[round]! / 1000).toFixed(1)} s`,
      );
    }
    return {
      pages: SITE_PAGES,
      rounds,
      concurrency,
      run: summary(runMs),
      jobs: summary(jobsMs),
      decision,
      creditsPerRun,
      profile,
      load: { start, end: loadavg()[0]! },
    };
  } finally {
    await app.close();
    site.stop(true);
  }
}

const perMinute = (pages: number, ms: number) => (pages / ms) * 60_000;

export function siteRunRows(r: SiteRunBenchResult): Row[] {
  const ratio = r.run.p50 / r.jobs.p50;
  const rate = perMinute(r.pages, r.run.p50);
  return [
    {
      name: `site run: ${r.pages} url pages on loopback, web-essentials with captureSizes all three, one run, p50 of ${r.rounds}`,
      value: `${(r.run.p50 / 1000).toFixed(2)} s, ${rate.toFixed(0)} pages/min`,
      baseline: `${(r.jobs.p50 / 1000).toFixed(2)} s as ${r.pages} bare POST /api/jobs, ${r.concurrency} at once (${perMinute(r.pages, r.jobs.p50).toFixed(0)}/min)`,
      ratio: fmtRatio(ratio),
      target: `<= 1.1x: ${ratio <= 1.1 ? "met" : "NOT met"}; >= 300 pages/min on ${cpus().length} cores: ${rate >= 300 ? "met" : "NOT met"}`,
    },
  ];
}

export function siteRunNotes(r: SiteRunBenchResult): string[] {
  return [
    `- site run: ${r.pages} copies of the landing page served by Bun.serve on 127.0.0.1 (ASSAY_ALLOW_PRIVATE_TARGETS=1), each a url page with web-essentials and captureSizes ${CAPTURE_SIZES.join(", ")} (rendered at desktop-md alone: the set's checks are offered at no other size, docs/jobs.md); ` +
      `as one POST /api/runs (wait: true; the run feeds ${r.concurrency} pages at once, the pool's capacity) and as ${r.pages} POST /api/jobs from one client with ${r.concurrency} in flight, rounds alternating which goes first; ` +
      `run min ${(r.run.min / 1000).toFixed(2)} s, max ${(r.run.max / 1000).toFixed(2)} s; jobs min ${(r.jobs.min / 1000).toFixed(2)} s, max ${(r.jobs.max / 1000).toFixed(2)} s; ` +
      `each run ${r.decision}, ${r.creditsPerRun} credits net; 1-min load average ${r.load.start.toFixed(1)} before, ${r.load.end.toFixed(1)} after.`,
  ];
}

if (import.meta.main) {
  try {
    const result = await benchSiteRun((m) => console.error(`[site run] ${m}`));
    console.log(
      `Assay site-run bench: bun ${Bun.version}, ${cpus().length} cores, ${new Date().toISOString()}, 1-min load average ${result.load.start.toFixed(1)} at start, ${result.load.end.toFixed(1)} at end`,
    );
    printTable([...siteRunRows(result), ...profileRows(result.profile)]);
    for (const line of siteRunNotes(result)) console.log(line);
  } finally {
    removeTempDirs();
  }
}
