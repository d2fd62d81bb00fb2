/**
 * Where a job's time and CPU go, for `npm run bench`: subscribes to the app's phase channel (src/phases.ts) while
 * jobs run one after another, and reads the CPU time the process and its Chromium used from /proc.
 */
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import { PHASE_CHANNEL, type PhaseTiming } from "../src/phases";
import { descendants, fmtMs, type Row } from "./support";

export interface JobProfile {
  label: string;
  jobs: number;
  /** Mean wall time of a job, as its caller saw it. */
  wallMs: number;
  /** Per phase: mean milliseconds and calls per job (phases that run in parallel overlap, so they may sum past the wall time). */
  phases: Array<{ phase: string; ms: number; calls: number }>;
  /** CPU seconds per job (user + system): this process, and its Chromium processes (exited ones included, through their parents). */
  cpu: { bun: number; chromium: number } | null;
}

const TICKS_PER_SECOND = 100;

/** user + system CPU of the Chromium subtree under this process (and children it reaped), in seconds. */
function chromiumCpuSeconds(): number {
  let ticks = 0;
  for (const pid of descendants(process.pid, new Set())) {
    if (pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields 14-17 of stat (utime, stime, cutime, cstime), counted from state = field 3.
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {}
  }
  return ticks / TICKS_PER_SECOND;
}

const bunCpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Runs `job` `n` times, one at a time, and profiles them; `job` resolves with its wall time in ms. */
export async function profileJobs(label: string, n: number, job: () => Promise<number>): Promise<JobProfile> {
  const totals = new Map<string, { ms: number; calls: number }>();
  const onPhase = (m: unknown) => {
    const { phase, ms } = m as PhaseTiming;
    const t = totals.get(phase) ?? { ms: 0, calls: 0 };
    t.ms += ms;
    t.calls++;
    totals.set(phase, t);
  };
  let hasProc = true;
  let chromiumBefore = 0;
  try {
    chromiumBefore = chromiumCpuSeconds();
  } catch {
    hasProc = false;
  }
  const bunBefore = bunCpuSeconds();
  let wall = 0;
  subscribe(PHASE_CHANNEL, onPhase);
  try {
    for (let i = 0; i < n; i++) wall += await job();
  } finally {
    unsubscribe(PHASE_CHANNEL, onPhase);
  }
  const cpu = hasProc
    ? { bun: (bunCpuSeconds() - bunBefore) / n, chromium: (chromiumCpuSeconds() - chromiumBefore) / n }
    : null;
  const phases = [...totals]
    .map(([phase, t]) => ({ phase, ms: t.ms / n, calls: t.calls / n }))
    .sort((a, b) => b.ms - a.ms);
  return { label, jobs: n, wallMs: wall / n, phases, cpu };
}

/** A profile as rows of the bench's table: the wall time, the CPU, then each phase. */
export function profileRows(p: JobProfile): Row[] {
  const rows: Row[] = [
    {
      name: `profile: ${p.label}, mean of ${p.jobs} jobs in a row`,
      value: fmtMs(p.wallMs),
      baseline: p.cpu
        ? `CPU ${p.cpu.bun.toFixed(2)} s bun + ${p.cpu.chromium.toFixed(2)} s Chromium per job`
        : "CPU n/a (no /proc)",
      ratio: p.cpu ? `${(((p.cpu.bun + p.cpu.chromium) * 1000) / p.wallMs).toFixed(2)} cores` : "-",
      target: "-",
    },
  ];
  for (const ph of p.phases) {
    rows.push({
      name: `  ${ph.phase}${ph.calls === 1 ? "" : ` (x${Number.isInteger(ph.calls) ? ph.calls : ph.calls.toFixed(1)})`}`,
      value: fmtMs(ph.ms),
      baseline: "-",
      ratio: `${((ph.ms / p.wallMs) * 100).toFixed(0)}% of wall`,
      target: "-",
    });
  }
  return rows;
}
