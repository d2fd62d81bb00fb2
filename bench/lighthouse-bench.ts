import { runLighthouse } from "../test/support/lighthouse";
import { nowMs, tempDir, type RssSampler } from "./support";
import { LANDING_PAGE_HTML } from "./landing-page";

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
 * One Lighthouse CLI run (default config: all categories, mobile emulation and throttling) on the landing page
 * served by Bun.serve on 127.0.0.1; its own Node process and Chromium are left out of the service's memory.
 */
export async function benchLighthouse(executablePath: string, rss: RssSampler): Promise<LighthouseResult> {
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) =>
      new URL(req.url).pathname === "/"
        ? new Response(LANDING_PAGE_HTML, { headers: { "content-type": "text/html; charset=utf-8" } })
        : new Response("not found", { status: 404 }),
  });
  const started = nowMs();
  try {
    const run = await runLighthouse(`http://127.0.0.1:${server.port}/`, executablePath, tempDir("lighthouse"), {
      onStart: (pid) => rss.exclude.add(pid),
      onEnd: (pid) => rss.release([pid]),
    });
    const wallMs = nowMs() - started;
    if (!run.ok) return { ok: false, wallMs, error: run.error };
    const scores = Object.values(run.report.categories)
      .map((c) => `${c.id} ${c.score === null ? "-" : Math.round(c.score * 100)}`)
      .join(", ");
    return {
      ok: true,
      wallMs,
      auditMs: run.report.timing?.total ?? 0,
      version: run.report.lighthouseVersion,
      scores,
      userAgent: run.report.userAgent,
    };
  } finally {
    server.stop(true);
  }
}
