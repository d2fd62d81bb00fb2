import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { BASE_CHROMIUM_ARGS } from "../src/capture/browser-pool";
import { nowMs, tempDir, type RssSampler } from "./support";
import { LANDING_PAGE_HTML } from "./landing-page";

/**
 * The flags Lighthouse's Chromium gets: the base flags of the app's Chromium without its network
 * lock-down (an unreachable proxy and a resolver that resolves nothing), because Lighthouse must load
 * a real URL: the page, served on 127.0.0.1.
 */
const LIGHTHOUSE_CHROME_FLAGS = ["--headless", ...BASE_CHROMIUM_ARGS];

export type LighthouseResult =
  | {
      ok: true;
      /** Wall time of one `lighthouse <url>` CLI run: Node start, Chromium launch, the audit, the report. */
      wallMs: number;
      /** Lighthouse's own timing.total (the audit, without the process and browser start). */
      auditMs: number;
      version: string;
      scores: string;
      userAgent: string;
    }
  | { ok: false; wallMs: number; error: string };

/**
 * One Lighthouse CLI run (the `lighthouse` npm package, default config: all categories, mobile
 * emulation and throttling) on the landing page served by Bun.serve on 127.0.0.1, with the same
 * Chromium binary as the app (--chrome-path, launched by chrome-launcher). Run in its own Node process
 * (Lighthouse 12 supports Node 18+), so neither it nor its Chromium counts in the service's memory.
 */
export async function benchLighthouse(executablePath: string, rss: RssSampler): Promise<LighthouseResult> {
  let cli: string;
  try {
    const require = createRequire(import.meta.url);
    cli = join(require.resolve("lighthouse/package.json"), "..", "cli", "index.js");
  } catch {
    return { ok: false, wallMs: 0, error: "the lighthouse package is not installed (npm install)" };
  }
  const node = Bun.which("node") ?? process.execPath;
  const out = join(tempDir("lighthouse"), "report.json");
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/"
        ? new Response(LANDING_PAGE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } })
        : new Response("not found", { status: 404 }),
  });
  const url = `http://127.0.0.1:${server.port}/`;
  const started = nowMs();
  try {
    const proc = Bun.spawn(
      [
        node,
        cli,
        url,
        `--chrome-path=${executablePath}`,
        `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS.join(" ")}`,
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--no-enable-error-reporting",
      ],
      { stdout: "ignore", stderr: "pipe", env: { ...process.env, CHROME_PATH: executablePath } },
    );
    rss.exclude.add(proc.pid);
    const code = await proc.exited;
    const wallMs = nowMs() - started;
    rss.release([proc.pid]);
    const stderr = await new Response(proc.stderr).text();
    if (code !== 0 || !existsSync(out)) return { ok: false, wallMs, error: `exit ${code}: ${stderr.trim().split("\n").slice(-3).join(" / ")}` };
    const report = JSON.parse(readFileSync(out, "utf8"));
    if (report.runtimeError) return { ok: false, wallMs, error: `${report.runtimeError.code}: ${report.runtimeError.message}` };
    const scores = Object.values(report.categories as Record<string, { id: string; score: number | null }>)
      .map((c) => `${c.id} ${c.score === null ? "-" : Math.round(c.score * 100)}`)
      .join(", ");
    return { ok: true, wallMs, auditMs: report.timing?.total ?? 0, version: report.lighthouseVersion, scores, userAgent: report.userAgent };
  } finally {
    server.stop(true);
  }
}
