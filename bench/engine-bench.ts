import { loadavg } from "node:os";
import { LANDING_PAGE_HTML } from "./landing-page";
import { startBenchApp, type BenchApp } from "./bench-app";
import { fmtMs, fmtRatio, printTable, summary, type Row } from "./support";

/**
 * The cost of rendering a page in WebKit and in Gecko beside Chromium, in the same run: the two layout checks that
 * take engines (layout-not-broken at desktop-md, no-horizontal-overflow at mobile-sm) on the landing page, judged in
 * Chromium alone, then in Chromium and WebKit, then in Chromium and Gecko, one job of each in turn. The WebKit render
 * (a fresh MiniBrowser session) and the Gecko one (a fresh user context in a running Firefox), each the page loaded
 * once, read and shot at both sizes, run beside the Chromium capture, each with a turn of the pool.
 * `bun bench/engine-bench.ts` runs it alone.
 */

export interface EngineBenchResult {
  chromium: ReturnType<typeof summary>;
  withWebKit: ReturnType<typeof summary>;
  withGecko: ReturnType<typeof summary>;
  /** Load average (1 min) before and after the timed jobs. */
  load: [number, number];
  verdicts: string;
}

const bodyIn = (engines: string[]) => ({
  type: "static_html",
  html: LANDING_PAGE_HTML,
  baseUrl: "https://example.com/",
  validations: ["layout-not-broken", "no-horizontal-overflow"].map((id) => ({ id, engines })),
});

export async function benchEngines(
  app: BenchApp,
  rounds = Number(process.env.BENCH_ENGINE_ROUNDS) || 8,
): Promise<EngineBenchResult> {
  const key = await app.newApiKey();
  const chromium = bodyIn(["chromium"]);
  const both = bodyIn(["chromium", "webkit"]);
  const gecko = bodyIn(["chromium", "gecko"]);
  // Warm-up: the first WebKit job starts Xvfb and WebKitWebDriver, the first Gecko job Firefox.
  await app.runJob(key, chromium);
  const warm = await app.runJob(key, both);
  const warmGecko = await app.runJob(key, gecko);
  const load: [number, number] = [loadavg()[0]!, 0];
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  for (let i = 0; i < rounds; i++) {
    a.push((await app.runJob(key, chromium)).ms);
    b.push((await app.runJob(key, both)).ms);
    c.push((await app.runJob(key, gecko)).ms);
  }
  load[1] = loadavg()[0]!;
  const verdicts = [...warm.body.results, ...warmGecko.body.results].map(
    (r: { validationId: string; verdict: string }) => `${r.validationId} ${r.verdict}`,
  );
  return {
    chromium: summary(a),
    withWebKit: summary(b),
    withGecko: summary(c),
    load,
    verdicts: verdicts.join(", "),
  };
}

export function engineRows(r: EngineBenchResult): Row[] {
  return [
    {
      name: `layout-not-broken + no-horizontal-overflow, Chromium and WebKit, p50 (n=${r.withWebKit.n})`,
      value: fmtMs(r.withWebKit.p50),
      baseline: `${fmtMs(r.chromium.p50)} Chromium alone`,
      ratio: fmtRatio(r.withWebKit.p50 / r.chromium.p50),
      target: `- (a WebKit render adds ${fmtMs(r.withWebKit.p50 - r.chromium.p50)} at p50; load ${r.load[0].toFixed(1)} to ${r.load[1].toFixed(1)})`,
    },
    {
      name: `  the same, p95 (n=${r.withWebKit.n})`,
      value: fmtMs(r.withWebKit.p95),
      baseline: `${fmtMs(r.chromium.p95)} Chromium alone`,
      ratio: fmtRatio(r.withWebKit.p95 / r.chromium.p95),
      target: "-",
    },
    {
      name: `layout-not-broken + no-horizontal-overflow, Chromium and Gecko, p50 (n=${r.withGecko.n})`,
      value: fmtMs(r.withGecko.p50),
      baseline: `${fmtMs(r.chromium.p50)} Chromium alone`,
      ratio: fmtRatio(r.withGecko.p50 / r.chromium.p50),
      target: `- (a Gecko render adds ${fmtMs(r.withGecko.p50 - r.chromium.p50)} at p50)`,
    },
    {
      name: `  the same, p95 (n=${r.withGecko.n})`,
      value: fmtMs(r.withGecko.p95),
      baseline: `${fmtMs(r.chromium.p95)} Chromium alone`,
      ratio: fmtRatio(r.withGecko.p95 / r.chromium.p95),
      target: "-",
    },
  ];
}

if (import.meta.main) {
  const app = await startBenchApp(1);
  try {
    const r = await benchEngines(app);
    printTable(engineRows(r));
    console.log(`verdicts (with WebKit, then with Gecko): ${r.verdicts}`);
  } finally {
    await app.close();
  }
}
