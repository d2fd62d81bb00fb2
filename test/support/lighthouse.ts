import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { BASE_CHROMIUM_ARGS } from "../../src/capture/chromium-launch";

/**
 * The flags Lighthouse's Chromium gets: the base flags of the app's Chromium without its network
 * lock-down (an unreachable proxy and a resolver that resolves nothing), because Lighthouse must load
 * a real URL: a page served on 127.0.0.1.
 */
const LIGHTHOUSE_CHROME_FLAGS = ["--headless", ...BASE_CHROMIUM_ARGS];

export interface LighthouseReport {
  lighthouseVersion: string;
  userAgent: string;
  timing?: { total: number };
  categories: Record<string, { id: string; score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, { id: string; title: string; score: number | null }>;
}

/**
 * One Lighthouse CLI run (the `lighthouse` npm package, mobile emulation) on `url`, with the app's Chromium binary
 * (--chrome-path, launched by chrome-launcher), in its own Node process (Lighthouse 12 supports Node 18+).
 * `categories` narrows the run (all by default); the JSON report is written under `dir`.
 */
export async function runLighthouse(
  url: string,
  executablePath: string,
  dir: string,
  opts: { categories?: string[]; onStart?: (pid: number) => void; onEnd?: (pid: number) => void } = {},
): Promise<{ ok: true; report: LighthouseReport } | { ok: false; error: string }> {
  let cli: string;
  try {
    cli = join(createRequire(import.meta.url).resolve("lighthouse/package.json"), "..", "cli", "index.js");
  } catch {
    return { ok: false, error: "the lighthouse package is not installed (npm install)" };
  }
  const out = join(dir, "report.json");
  const proc = Bun.spawn(
    [
      Bun.which("node") ?? process.execPath,
      cli,
      url,
      `--chrome-path=${executablePath}`,
      `--chrome-flags=${LIGHTHOUSE_CHROME_FLAGS.join(" ")}`,
      ...(opts.categories ? [`--only-categories=${opts.categories.join(",")}`] : []),
      "--output=json",
      `--output-path=${out}`,
      "--quiet",
      "--no-enable-error-reporting",
    ],
    { stdout: "ignore", stderr: "pipe", env: { ...process.env, CHROME_PATH: executablePath } },
  );
  opts.onStart?.(proc.pid);
  const code = await proc.exited;
  opts.onEnd?.(proc.pid);
  const stderr = await new Response(proc.stderr).text();
  if (code !== 0 || !existsSync(out))
    return { ok: false, error: `exit ${code}: ${stderr.trim().split("\n").slice(-3).join(" / ")}` };
  const report = JSON.parse(readFileSync(out, "utf8"));
  if (report.runtimeError) return { ok: false, error: `${report.runtimeError.code}: ${report.runtimeError.message}` };
  return { ok: true, report };
}
