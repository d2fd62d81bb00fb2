import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Milliseconds since an arbitrary origin, from Bun's monotonic nanosecond clock. */
export const nowMs = () => Bun.nanoseconds() / 1e6;

/** Nearest-rank percentile (p in 0..100) of a list of samples. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export function summary(samples: number[]) {
  const sum = samples.reduce((a, b) => a + b, 0);
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    min: Math.min(...samples),
    max: Math.max(...samples),
    mean: sum / samples.length,
  };
}

// ---------------------------------------------------------------- temp dirs

const tempDirs: string[] = [];

export function tempDir(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), `assay-bench-${tag}-`));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------- memory

/**
 * Peak resident memory, sampled. `self` is this Bun process (process.memoryUsage().rss); `tree` adds
 * every descendant process (the Chromium browsers), read from /proc where it exists.
 */
export class RssSampler {
  peakSelf = 0;
  peakTree = 0;
  private timer?: ReturnType<typeof setInterval>;
  private lastTree = 0;
  private readonly hasProc = (() => {
    try {
      readFileSync("/proc/self/stat");
      return true;
    } catch {
      return false;
    }
  })();

  start(intervalMs = 100): void {
    this.sample(true);
    this.timer = setInterval(() => this.sample(true), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.sample(true);
  }

  /** Cheap enough to call from synchronous loops, where the interval timer cannot fire. */
  sample(withTree = false): void {
    const self = process.memoryUsage().rss;
    if (self > this.peakSelf) this.peakSelf = self;
    if (withTree && this.hasProc) {
      this.lastTree = self + descendantsRss(process.pid);
    }
    const tree = Math.max(self, this.lastTree);
    if (tree > this.peakTree) this.peakTree = tree;
  }
}

function descendantsRss(root: number): number {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may contain spaces, so parse after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(name), Number(rest[1]));
    } catch {}
  }
  const inTree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parentOf) {
      if (!inTree.has(pid) && inTree.has(ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let total = 0;
  for (const pid of inTree) {
    if (pid === root) continue;
    try {
      const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) total += Number(m[1]) * 1024;
    } catch {}
  }
  return total;
}

// ---------------------------------------------------------------- output

export interface Row {
  name: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
}

export function printTable(rows: Row[]): void {
  const headers: Row = { name: "benchmark", value: "value", baseline: "baseline (same run)", ratio: "ratio", target: "target" };
  const cols = Object.keys(headers) as Array<keyof Row>;
  const width = Object.fromEntries(cols.map((c) => [c, Math.max(headers[c].length, ...rows.map((r) => r[c].length))])) as Record<keyof Row, number>;
  const line = (r: Row) => cols.map((c) => r[c].padEnd(width[c])).join(" | ");
  console.log(line(headers));
  console.log(cols.map((c) => "-".repeat(width[c])).join("-|-"));
  for (const r of rows) console.log(line(r));
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");
export const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
export const fmtMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const fmtRatio = (r: number) => `${r.toFixed(2)}x`;
