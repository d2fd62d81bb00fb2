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
  /**
   * CPU seconds per job (user + system): this process, and its Chromium processes (exited ones included, through
   * their parents), in all and by Chromium's process kind.
   */
  cpu: { bun: number; chromium: number; byProcess: Record<ChromiumProcess, number> } | null;
}

const TICKS_PER_SECOND = 100;

/**
 * Chromium's processes by what they do: the browser process (contexts, the DevTools protocol, routing), the renderers
 * (a page's parse, style, layout, scripts, raster; exited ones counted through the zygote that reaped them), the GPU
 * process (compositing, software here) and the utility processes (network, storage).
 */
type ChromiumProcess = "browser" | "renderers" | "gpu" | "utility";

function processKind(cmdline: string): ChromiumProcess {
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (!type) return "browser";
  if (type === "renderer" || type === "zygote") return "renderers";
  return type === "gpu-process" ? "gpu" : "utility";
}

/** user + system CPU of the Chromium subtree under this process (and children it reaped), in seconds, by kind. */
function chromiumCpuSeconds(): Record<ChromiumProcess, number> {
  const ticks: Record<ChromiumProcess, number> = { browser: 0, renderers: 0, gpu: 0, utility: 0 };
  for (const pid of descendants(process.pid, new Set())) {
    if (pid === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const kind = processKind(readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " "));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields 14-17 of stat (utime, stime, cutime, cstime), counted from state = field 3.
      ticks[kind] += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {}
  }
  for (const kind of Object.keys(ticks) as ChromiumProcess[]) ticks[kind] /= TICKS_PER_SECOND;
  return ticks;
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

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
  let chromiumBefore: Record<ChromiumProcess, number> | undefined;
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
  let cpu: JobProfile["cpu"] = null;
  if (hasProc && chromiumBefore) {
    const after = chromiumCpuSeconds();
    const byProcess = { ...after };
    for (const kind of Object.keys(after) as ChromiumProcess[])
      byProcess[kind] = (after[kind] - chromiumBefore[kind]) / n;
    cpu = { bun: (bunCpuSeconds() - bunBefore) / n, chromium: sum(byProcess), byProcess };
  }
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
        ? `CPU ${p.cpu.bun.toFixed(2)} s bun + ${p.cpu.chromium.toFixed(2)} s Chromium per job (${Object.entries(
            p.cpu.byProcess,
          )
            .map(([kind, s]) => `${kind} ${s.toFixed(2)}`)
            .join(", ")})`
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
