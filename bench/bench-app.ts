import { createAssay, type Assay } from "../src/app";
import { createHttpApp } from "../src/http/app";
import { loadConfig } from "../src/config";
import { findChromium } from "../src/capture/chromium-launch";
import { CAPTURE_SIZES } from "../src/capture/vocabulary";
import { nowMs, tempDir } from "./support";
import { LANDING_PAGE_HTML } from "./landing-page";

/** The job every job figure times: web-essentials on the landing page, rendered at every capture size. */
export const JOB_BODY = {
  type: "static_html",
  html: LANDING_PAGE_HTML,
  baseUrl: "https://example.com/",
  validationSetId: "web-essentials",
  captureSizes: [...CAPTURE_SIZES],
};

export interface JobAnswer {
  ms: number;
  body: any;
}

export interface BenchApp {
  baseUrl: string;
  executablePath: string;
  poolSize: number;
  /** Pages the pool renders at once (browsers x pages per browser). */
  capacity: number;
  /** Signs up a fresh account (one per client) and returns its API key. */
  newApiKey(): Promise<string>;
  /** POST /api/jobs with JOB_BODY (or `body`), timed end to end; throws unless the job completed. */
  runJob(apiKey: string, body?: unknown): Promise<JobAnswer>;
  close(): Promise<void>;
}

/**
 * The real app in-process on an ephemeral port on 127.0.0.1, with its own data dir and a browser pool of
 * `poolSize`. The model judge is switched off whatever the environment says (web-essentials has no visual
 * check, and the bench sends nothing off this machine). `extraEnv` goes on top of the configuration (the remote
 * browsers bench names its workers in ASSAY_BROWSER_ENDPOINTS).
 */
export async function startBenchApp(poolSize: number, extraEnv: Record<string, string> = {}): Promise<BenchApp> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("ASSAY_VISION_")) delete env[key];
  const config = loadConfig({
    ...env,
    DATA_DIR: tempDir("jobs"),
    PORT: "0",
    ASSAY_BROWSER_POOL_SIZE: String(poolSize),
    ASSAY_SIGNUP_CREDITS: "1000000",
    // The bench opens an organization per client it simulates, all from 127.0.0.1.
    ASSAY_SIGNUPS_PER_ADDRESS: "100000",
    ...extraEnv,
  });
  const executablePath = findChromium(config.chromiumPath);
  if (!executablePath)
    throw new Error("No Chromium found: set CHROMIUM_PATH, or run `npm run bench`, which installs it.");

  const assay: Assay = await createAssay(config);
  let listening: ReturnType<ReturnType<typeof createHttpApp>["listen"]> | undefined;
  try {
    listening = createHttpApp(assay).listen({ port: 0, hostname: "127.0.0.1" });
    // Every browser of the pool up before anything is timed, and before the harness notes which
    // processes are its own.
    await assay.pool.warm();
  } catch (e) {
    await listening?.stop();
    await assay.close();
    throw e;
  }
  const app = listening;
  const baseUrl = `http://127.0.0.1:${app.server!.port}`;
  assay.config.publicBaseUrl = baseUrl;
  const payload = JSON.stringify(JOB_BODY);
  let accounts = 0;

  return {
    baseUrl,
    executablePath,
    poolSize,
    capacity: assay.pool.capacity,
    async newApiKey() {
      const res = await fetch(`${baseUrl}/api/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `bench-${Date.now()}-${++accounts}@example.com` }),
      });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { apiKey: string }).apiKey;
    },
    async runJob(apiKey, request) {
      const started = nowMs();
      const res = await fetch(`${baseUrl}/api/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: request === undefined ? payload : JSON.stringify(request),
      });
      const text = await res.text();
      const ms = nowMs() - started;
      if (res.status !== 200) throw new Error(`POST /api/jobs answered ${res.status}: ${text.slice(0, 500)}`);
      const body = JSON.parse(text);
      if (body.status !== "completed")
        throw new Error(`job ${body.jobId} ended ${body.status}: ${body.interruption ?? ""}`);
      return { ms, body };
    },
    async close() {
      await app.stop();
      await assay.close();
    },
  };
}
