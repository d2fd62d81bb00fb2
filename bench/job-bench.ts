import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM_ARGS } from "../src/capture/chromium-launch";
import { childPids, nowMs, summary, type RssSampler } from "./support";
import { LANDING_PAGE_HTML, LANDING_PAGE_TITLE } from "./landing-page";
import type { BenchApp } from "./bench-app";

export interface JobBenchResult {
  jobs: ReturnType<typeof summary>;
  /** The bare harness: DOM read + full-page JPEG at each of the three sizes. */
  harness: ReturnType<typeof summary>;
  /** The same harness without the screenshots (the job's web-essentials checks read no screenshot). */
  harnessDom: ReturnType<typeof summary>;
  pageHeights: Record<string, number>;
  screenshotBytes: number;
  htmlBytes: number;
  verdicts: string;
  charged: number;
}

/** The three capture sizes, in the order the app visits them (it loads at desktop-md, then resizes). */
const SIZES = [
  { id: "desktop-md", width: 1280, height: 800 },
  { id: "tablet-portrait", width: 768, height: 1024 },
  { id: "mobile-sm", width: 375, height: 667 },
] as const;

/** What a raw script reads for web-essentials: title, metas, headings, images, visible text. Runs in the page. */
function readPage() {
  const visible = (el: Element) => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && cs.display !== "none";
  };
  return {
    lang: document.documentElement.getAttribute("lang"),
    title: document.title,
    metas: Array.from(document.querySelectorAll("meta"), (m) => ({
      name: m.getAttribute("name"),
      content: m.getAttribute("content"),
    })),
    headings: Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"), (h) => ({
      level: Number(h.tagName[1]),
      text: (h.textContent ?? "").trim(),
      visible: visible(h),
    })),
    images: Array.from(document.images, (i) => ({
      src: i.currentSrc || i.src,
      alt: i.getAttribute("alt"),
      naturalWidth: i.naturalWidth,
      visible: visible(i),
    })),
    text: document.body.innerText,
    scrollWidth: document.documentElement.scrollWidth,
    scrollHeight: document.documentElement.scrollHeight,
  };
}

/**
 * The app's job (POST /api/jobs over HTTP, web-essentials at three sizes) against a bare playwright-core
 * harness with its own warm Chromium (same flags as the app's) gathering the same artifacts:
 * newContext + newPage + setContent, then per size setViewportSize + one evaluate + a full-page JPEG
 * (quality 80, like the app's captures), close. A second harness variant skips the screenshots.
 * Runs rotate job, harness, harness without screenshots, so all three see the same machine state.
 */
export async function benchJobs(
  app: BenchApp,
  rss: RssSampler,
  opts = { warmup: 5, runs: 40 },
): Promise<JobBenchResult> {
  const apiKey = await app.newApiKey();
  let bare: Browser | undefined;
  let barePids: number[] = [];
  try {
    // The app's pool launches its browsers on the first job; then the harness launches its own, and
    // its process subtree is left out of the service's memory figure.
    let last = (await app.runJob(apiKey)).body;
    const before = childPids(process.pid);
    bare = await chromium.launch({ executablePath: app.executablePath, headless: true, args: CHROMIUM_ARGS });
    barePids = rss.excludeNewChildren(before);
    const browser = bare;

    let screenshotBytes = 0;
    const runHarness = async (screenshots: boolean): Promise<number> => {
      const started = nowMs();
      const context = await browser.newContext({ viewport: { width: SIZES[0].width, height: SIZES[0].height } });
      try {
        const page: Page = await context.newPage();
        await page.setContent(LANDING_PAGE_HTML);
        let bytes = 0;
        for (const size of SIZES) {
          await page.setViewportSize({ width: size.width, height: size.height });
          const read = await page.evaluate(readPage);
          if (read.title !== LANDING_PAGE_TITLE) throw new Error(`harness read title ${JSON.stringify(read.title)}`);
          if (screenshots) bytes += (await page.screenshot({ type: "jpeg", quality: 80, fullPage: true })).byteLength;
        }
        if (screenshots) screenshotBytes = bytes;
      } finally {
        await context.close();
      }
      return nowMs() - started;
    };

    // Warm-up (the first job above counts as one).
    for (let i = 0; i < opts.warmup; i++) {
      if (i > 0) last = (await app.runJob(apiKey)).body;
      await runHarness(true);
      await runHarness(false);
    }
    // One untimed measurement of the page's rendered height at each size.
    const pageHeights: Record<string, number> = {};
    const probe = await browser.newContext();
    const probePage = await probe.newPage();
    await probePage.setContent(LANDING_PAGE_HTML);
    for (const size of SIZES) {
      await probePage.setViewportSize({ width: size.width, height: size.height });
      pageHeights[size.id] = await probePage.evaluate(() => document.documentElement.scrollHeight);
    }
    await probe.close();

    const jobTimes: number[] = [];
    const harnessTimes: number[] = [];
    const domTimes: number[] = [];
    for (let i = 0; i < opts.runs; i++) {
      const job = await app.runJob(apiKey);
      jobTimes.push(job.ms);
      last = job.body;
      harnessTimes.push(await runHarness(true));
      domTimes.push(await runHarness(false));
    }

    const results = last.results as Array<{ verdict: string; validationId: string }>;
    const counts: Record<string, number> = {};
    for (const r of results) counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    const failing = results.filter((r) => r.verdict !== "pass").map((r) => `${r.validationId}=${r.verdict}`);
    return {
      jobs: summary(jobTimes),
      harness: summary(harnessTimes),
      harnessDom: summary(domTimes),
      pageHeights,
      screenshotBytes,
      htmlBytes: Buffer.byteLength(LANDING_PAGE_HTML),
      verdicts:
        Object.entries(counts)
          .map(([v, n]) => `${n} ${v}`)
          .join(", ") + (failing.length ? ` (${failing.join(", ")})` : ""),
      charged: last.credits?.charged ?? 0,
    };
  } finally {
    await bare?.close().catch(() => {});
    rss.release(barePids);
  }
}
