import { nowMs, RssSampler, summary } from "./support";
import type { BenchApp } from "./bench-app";

export interface SoakResult {
  clients: number;
  seconds: number;
  /** From the first request to the last answer (jobs started before the deadline are let finish). */
  elapsedMs: number;
  completed: number;
  failed: number;
  firstFailure?: string;
  jobsPerMinute: number;
  latency: ReturnType<typeof summary>;
  /** Every completed job's latency, in the order they finished (to pool several soaks' samples). */
  times: number[];
  /** Peak memory of bun + its Chromium processes during the soak only. */
  memory: { peakPss: number; peakRss: number; peakSelf: number; processes: number; hasProc: boolean };
}

/**
 * `clients` concurrent clients, each with its own account, posting the three-size web-essentials job
 * back to back for `seconds`, against the in-process app. Memory is sampled twice a second by a
 * sampler of its own, so the figure is the soak's peak. A failed job is counted, not fatal.
 */
export async function benchSoak(app: BenchApp, clients: number, seconds: number): Promise<SoakResult> {
  const keys = await Promise.all(Array.from({ length: clients }, () => app.newApiKey()));
  // One job per client first, untimed, so every client's account and connection is warm.
  await Promise.all(keys.map((k) => app.runJob(k)));

  const sampler = new RssSampler(500);
  const times: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  sampler.start();
  const started = nowMs();
  const deadline = started + seconds * 1000;
  try {
    await Promise.all(
      keys.map(async (key) => {
        while (nowMs() < deadline) {
          try {
            times.push((await app.runJob(key)).ms);
          } catch (e) {
            failed++;
            firstFailure ??= (e as Error).message.slice(0, 300);
          }
        }
      }),
    );
  } finally {
    sampler.stop();
  }
  const elapsedMs = nowMs() - started;
  if (times.length === 0) throw new Error(`soak: no job completed (${failed} failed; first: ${firstFailure})`);
  return {
    clients,
    seconds,
    elapsedMs,
    completed: times.length,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    jobsPerMinute: times.length / (elapsedMs / 60_000),
    latency: summary(times),
    times,
    memory: {
      peakPss: sampler.peakService,
      peakRss: sampler.peakServiceRss,
      peakSelf: sampler.peakSelf,
      processes: sampler.peakProcesses,
      hasProc: sampler.hasProc,
    },
  };
}
