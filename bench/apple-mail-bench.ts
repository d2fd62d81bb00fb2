/**
 * What WebKit costs, per render and per email job, in the same run:
 *
 * - one WebKit render of the bench's marketing message at Apple Mail's iPhone viewport, on one engine: cold (a fresh
 *   MiniBrowser session, as a webpage render gets) and warm (a sealed render on the engine's warm session, as a mail
 *   render gets), alternating;
 * - the email job (the marketing set over SMTP, end of DATA to completed) with Apple Mail's renders laid out again in
 *   WebKit and without (Chromium's emulation), BATCH jobs at a time (the accuracy run's load), alternating batches
 *   on one server (the setting is flipped between batches; every other part of the server is shared).
 *
 * `bun bench/apple-mail-bench.ts` runs it alone; `npm run bench` as a section.
 */
import { loadavg } from "node:os";
import { WebKitEngine } from "../src/capture/engines/webkit";
import { nowMs, fmtMs, fmtRatio, printTable, removeTempDirs, summary, tempDir, type Row } from "./support";
import { composeMessage, marketingSelection, send, startEmailApp } from "./email-bench";

const RENDER_PAIRS = Number(process.env.BENCH_WEBKIT_RENDER_PAIRS) || 8;
const BATCH_PAIRS = Number(process.env.BENCH_APPLE_MAIL_BATCHES) || 4;
const BATCH = 4;
const SETTLE_TIMEOUT_MS = 300_000;

export interface AppleMailBenchResult {
  rows: Row[];
  notes: string[];
}

type Log = (m: string) => void;

/** One engine; a webpage-style render (fresh session) and a mail-style one (warm session), in turn. */
async function renderCosts(html: string) {
  const engine = await WebKitEngine.start();
  const viewport = { width: 375, height: 667 };
  const options = { canvas: "#ffffff", fullPageUpTo: 8000 };
  try {
    await engine.renderSealed(html, viewport, "return 1", options);
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < RENDER_PAIRS; i++) {
      let t = nowMs();
      await engine.capture({ html }, [viewport], { check: async () => ({ allowed: false }) } as never, "return 1", {
        ...options,
        browserArgs: ["--enable-javascript=false"],
      });
      cold.push(nowMs() - t);
      // The fresh session above ended the warm one: one sealed render warms it again, untimed.
      await engine.renderSealed(html, viewport, "return 1", options);
      t = nowMs();
      await engine.renderSealed(html, viewport, "return 1", options);
      warm.push(nowMs() - t);
    }
    return { cold: summary(cold), warm: summary(warm) };
  } finally {
    await engine.close();
  }
}

export async function benchAppleMail(log: Log = () => {}): Promise<AppleMailBenchResult> {
  const dir = tempDir("apple-mail");
  const { raw, fixtures, html } = await composeMessage(dir);
  const load: number[] = [loadavg()[0]!];
  log(`apple mail: ${RENDER_PAIRS} WebKit renders cold and warm, in turn`);
  const renders = await renderCosts(html);
  load.push(loadavg()[0]!);
  log(`apple mail: WebKit render cold p50 ${fmtMs(renders.cold.p50)}, warm p50 ${fmtMs(renders.warm.p50)}`);

  const selection = marketingSelection();
  const { config, running, baseUrl, signup } = await startEmailApp(dir, fixtures, "apple-mail-bench");
  try {
    const oneJob = async () => {
      const res = await fetch(`${baseUrl}/api/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${signup.apiKey}` },
        body: JSON.stringify({ type: "email", ...selection.body }),
      });
      const job = (await res.json()) as { jobId: string; testEmail: string };
      await send(running.smtpPort, job.testEmail, raw);
      const accepted = nowMs();
      for (;;) {
        const now = running.assay.jobs.get(signup.customerId, job.jobId)!;
        if (now.status !== "pending") {
          if (now.status !== "completed") throw new Error(`email job ${job.jobId} ended ${now.status}`);
          return { ms: nowMs() - accepted, jobId: job.jobId };
        }
        if (nowMs() - accepted > SETTLE_TIMEOUT_MS) throw new Error(`email job ${job.jobId} still pending`);
        await Bun.sleep(1);
      }
    };
    const batch = async (inWebKit: boolean) => {
      running.assay.config.appleMailInWebkit = inWebKit;
      return Promise.all(Array.from({ length: BATCH }, oneJob));
    };
    /** The engines Apple Mail's renders of a job were laid out in, as the API shows them. */
    const engineOfApple = async (jobId: string) => {
      const res = await fetch(`${baseUrl}/api/jobs/${jobId}?detail=verbose`, {
        headers: { authorization: `Bearer ${signup.apiKey}` },
      });
      const job = (await res.json()) as { results: Array<{ renders?: Array<{ clientId: string; engine: string }> }> };
      const renders = job.results.flatMap((r) => r.renders ?? []).filter((r) => r.clientId.startsWith("apple-mail"));
      return `${renders.length} Apple Mail renders in ${[...new Set(renders.map((r) => r.engine))].join(", ") || "-"}`;
    };
    log(`apple mail: one untimed batch each way, then ${BATCH_PAIRS} pairs of ${BATCH} email jobs at a time`);
    const warmOn = await batch(true);
    await batch(false);
    const on: number[] = [];
    const off: number[] = [];
    let engineOff = "";
    for (let i = 0; i < BATCH_PAIRS; i++) {
      on.push(...(await batch(true)).map((j) => j.ms));
      log(
        `apple mail: pair ${i + 1}, in WebKit ${on
          .slice(-BATCH)
          .map((ms) => fmtMs(ms))
          .join(", ")}`,
      );
      const offBatch = await batch(false);
      engineOff ||= await engineOfApple(offBatch[0]!.jobId);
      off.push(...offBatch.map((j) => j.ms));
      log(
        `apple mail: pair ${i + 1}, in Chromium ${off
          .slice(-BATCH)
          .map((ms) => fmtMs(ms))
          .join(", ")}`,
      );
    }
    load.push(loadavg()[0]!);
    const a = summary(on);
    const b = summary(off);
    const rows: Row[] = [
      {
        name: `WebKit render, Apple Mail iPhone viewport, warm session, p50 (n=${renders.warm.n})`,
        value: fmtMs(renders.warm.p50),
        baseline: `${fmtMs(renders.cold.p50)} cold (fresh session)`,
        ratio: fmtRatio(renders.warm.p50 / renders.cold.p50),
        target: "-",
      },
      {
        name: `email job with Apple Mail in WebKit, ${BATCH} at a time, end of DATA to completed, p50 (n=${a.n})`,
        value: fmtMs(a.p50),
        baseline: `${fmtMs(b.p50)} Apple Mail in Chromium`,
        ratio: fmtRatio(a.p50 / b.p50),
        target: `<= 1.30x: ${a.p50 / b.p50 <= 1.3 ? "met" : "NOT met"}`,
      },
      {
        name: `  the same, p95 (n=${a.n})`,
        value: fmtMs(a.p95),
        baseline: `${fmtMs(b.p95)} Apple Mail in Chromium`,
        ratio: fmtRatio(a.p95 / b.p95),
        target: "-",
      },
    ];
    const notes = [
      `- apple mail: WebKit render of the marketing message at 375x667, full page, JavaScript off, on one engine: cold p50 ${fmtMs(renders.cold.p50)} ` +
        `(p95 ${fmtMs(renders.cold.p95)}), warm p50 ${fmtMs(renders.warm.p50)} (p95 ${fmtMs(renders.warm.p95)}). Email jobs (${selection.label}) ` +
        `in batches of ${BATCH}, alternating with Apple Mail in WebKit (${await engineOfApple(warmOn[0]!.jobId)}) and without ` +
        `(${engineOff}); ASSAY_WEBKIT_SESSIONS ${config.webkitSessions}. 1-min load average ${load.map((l) => l.toFixed(1)).join(" / ")} ` +
        "(start / after the renders / end; other sessions share this machine).",
    ];
    return { rows, notes };
  } finally {
    await running.stop();
  }
}

if (import.meta.main) {
  const started = nowMs();
  try {
    const r = await benchAppleMail((m) => console.error(`[${((nowMs() - started) / 1000).toFixed(1)}s] ${m}`));
    printTable(r.rows);
    for (const n of r.notes) console.log(n);
    removeTempDirs();
    process.exit(0);
  } catch (e) {
    removeTempDirs();
    console.error("apple mail bench crashed:", e);
    process.exit(1);
  }
}
