import { chromium, type Browser } from "playwright-core";
import { createAssay, type Assay } from "../src/app";
import { createHttpApp } from "../src/http/app";
import { loadConfig } from "../src/config";
import { CHROMIUM_ARGS, findChromium } from "../src/capture/browser-pool";
import { childPids, nowMs, summary, tempDir, type RssSampler } from "./support";
import { LANDING_PAGE_HTML, LANDING_PAGE_TITLE } from "./landing-page";

export interface JobBenchResult {
  jobs: ReturnType<typeof summary>;
  baseline: ReturnType<typeof summary>;
  pageHeight: number;
  htmlBytes: number;
  verdicts: string;
  charged: number;
}

const JOB_BODY = { type: "static_html", html: LANDING_PAGE_HTML, baseUrl: "https://example.com/", validationSetId: "web-essentials" };

/**
 * The real app in-process on an ephemeral port (one warm browser), timed end to end over HTTP,
 * against a bare playwright-core script with its own warm Chromium doing the floor of the same work:
 * newContext + newPage + setContent + one evaluate. Runs alternate, job then baseline, so both see
 * the same machine state.
 */
export async function benchJobs(rss: RssSampler, opts = { warmup: 5, runs: 40 }): Promise<JobBenchResult> {
  const dataDir = tempDir("jobs");
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PORT: "0",
    ASSAY_BROWSER_POOL_SIZE: "1",
    ASSAY_SIGNUP_CREDITS: "1000000",
  });
  const executablePath = findChromium(config.chromiumPath);
  if (!executablePath) throw new Error("No Chromium found: set CHROMIUM_PATH, or run `npm run bench`, which installs it.");

  let assay: Assay | undefined;
  let server: { stop(): Promise<void> | void } | undefined;
  let bare: Browser | undefined;
  try {
    assay = createAssay(config);
    const app = createHttpApp(assay).listen({ port: 0 });
    server = { stop: async () => void (await app.stop()) };
    const baseUrl = `http://127.0.0.1:${app.server!.port}`;
    assay.config.publicBaseUrl = baseUrl;

    const signup = await fetch(`${baseUrl}/api/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `bench-${Date.now()}@example.com` }),
    });
    if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
    const { apiKey } = (await signup.json()) as { apiKey: string };
    const payload = JSON.stringify(JOB_BODY);

    let last: any;
    const runJob = async (): Promise<number> => {
      const started = nowMs();
      const res = await fetch(`${baseUrl}/api/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: payload,
      });
      const text = await res.text();
      const elapsed = nowMs() - started;
      if (res.status !== 200) throw new Error(`POST /api/jobs answered ${res.status}: ${text.slice(0, 500)}`);
      last = JSON.parse(text);
      if (last.status !== "completed") throw new Error(`job ${last.jobId} ended ${last.status}: ${last.interruption ?? ""}`);
      return elapsed;
    };

    // The app's pool launches its browser on the first job; then the baseline launches its own, and
    // its process subtree is left out of the service's memory figure.
    await runJob();
    const before = childPids(process.pid);
    bare = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
    for (const pid of childPids(process.pid)) if (!before.has(pid)) rss.exclude.add(pid);
    const browser = bare;
    const runBaseline = async (): Promise<number> => {
      const started = nowMs();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.setContent(LANDING_PAGE_HTML);
        const title = await page.evaluate(() => document.title);
        if (title !== LANDING_PAGE_TITLE) throw new Error(`baseline read title ${JSON.stringify(title)}`);
      } finally {
        await context.close();
      }
      return nowMs() - started;
    };

    // Warm-up (the first job above counts as one).
    for (let i = 0; i < opts.warmup; i++) {
      if (i > 0) await runJob();
      await runBaseline();
    }
    // One untimed measurement of the page's rendered height at desktop-md.
    const probe = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const probePage = await probe.newPage();
    await probePage.setContent(LANDING_PAGE_HTML);
    const pageHeight = await probePage.evaluate(() => document.documentElement.scrollHeight);
    await probe.close();

    const jobTimes: number[] = [];
    const baseTimes: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      jobTimes.push(await runJob());
      baseTimes.push(await runBaseline());
    }

    const counts: Record<string, number> = {};
    for (const r of last.results as Array<{ verdict: string; validationId: string }>) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    const failing = (last.results as Array<{ verdict: string; validationId: string }>).filter((r) => r.verdict !== "pass").map((r) => `${r.validationId}=${r.verdict}`);
    return {
      jobs: summary(jobTimes),
      baseline: summary(baseTimes),
      pageHeight,
      htmlBytes: Buffer.byteLength(LANDING_PAGE_HTML),
      verdicts: Object.entries(counts).map(([v, n]) => `${n} ${v}`).join(", ") + (failing.length ? ` (${failing.join(", ")})` : ""),
      charged: last.credits?.charged ?? 0,
    };
  } finally {
    await bare?.close().catch(() => {});
    await server?.stop();
    await assay?.close();
  }
}
