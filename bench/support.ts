import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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
 * Peak memory, sampled. `peakSelf` is this Bun process's RSS (process.memoryUsage().rss), sampled
 * every 100 ms and from synchronous loops. `peakService` is the proportional set size (PSS, so shared
 * pages are not counted once per process) of this process plus its descendants (the app's Chromium),
 * read from /proc every `treeIntervalMs` (default 1 s); `peakServiceRss` is the plain RSS sum of the
 * same processes at the same moments (an upper bound: pages shared between Chromium's processes are
 * counted once per process). Subtrees under `exclude` (the baselines' own Chromium, Lighthouse) are
 * left out; `release` drops an exclusion once that process is gone, so a reused pid is counted again.
 */
export class RssSampler {
  peakSelf = 0;
  peakService = 0;
  peakServiceRss = 0;
  /** How many processes the tree had at the moment of peakService. */
  peakProcesses = 0;
  readonly exclude = new Set<number>();
  private timers: Array<ReturnType<typeof setInterval>> = [];
  readonly hasProc = existsSync("/proc/self/smaps_rollup");

  constructor(private readonly treeIntervalMs = 1000) {}

  start(): void {
    this.sample();
    this.sampleTree();
    this.timers.push(
      setInterval(() => this.sample(), 100),
      setInterval(() => this.sampleTree(), this.treeIntervalMs),
    );
  }

  /** Excludes the subtrees of processes that were started since `before` (a childPids() snapshot); returns them. */
  excludeNewChildren(before: Set<number>): number[] {
    const added = [...childPids(process.pid)].filter((pid) => !before.has(pid));
    for (const pid of added) this.exclude.add(pid);
    return added;
  }

  release(pids: Iterable<number>): void {
    for (const pid of pids) this.exclude.delete(pid);
  }

  stop(): void {
    for (const t of this.timers.splice(0)) clearInterval(t);
    this.sample();
    this.sampleTree();
  }

  /** Cheap enough to call from synchronous loops, where the interval timers cannot fire. */
  sample(): void {
    const self = process.memoryUsage().rss;
    if (self > this.peakSelf) this.peakSelf = self;
  }

  sampleTree(): void {
    if (!this.hasProc) return;
    let pss = 0;
    let rss = 0;
    const tree = descendants(process.pid, this.exclude);
    for (const pid of tree) {
      const m = memoryOf(pid);
      pss += m.pss;
      rss += m.rss;
    }
    if (pss > this.peakService) {
      this.peakService = pss;
      this.peakProcesses = tree.size;
    }
    if (rss > this.peakServiceRss) this.peakServiceRss = rss;
  }
}

function parentMap(): Map<number, number> {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      parentOf.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  return parentOf;
}

/** Direct children of a process (used to tell which Chromium a launch started). */
export function childPids(pid: number): Set<number> {
  if (!existsSync("/proc")) return new Set();
  const out = new Set<number>();
  for (const [child, parent] of parentMap()) if (parent === pid) out.add(child);
  return out;
}

/** The process and all its descendants, minus excluded subtrees. */
export function descendants(root: number, exclude: Set<number>): Set<number> {
  const parentOf = parentMap();
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parentOf) {
      if (!inTree.has(pid) && inTree.has(ppid) && !exclude.has(pid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  return inTree;
}

function memoryOf(pid: number): { pss: number; rss: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0) * 1024;
    return { pss: kb("Pss"), rss: kb("Rss") };
  } catch {
    return { pss: 0, rss: 0 };
  }
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
  const headers: Row = {
    name: "benchmark",
    value: "value",
    baseline: "baseline (same run)",
    ratio: "ratio",
    target: "target",
  };
  const cols = Object.keys(headers) as Array<keyof Row>;
  const width = Object.fromEntries(
    cols.map((c) => [c, Math.max(headers[c].length, ...rows.map((r) => r[c].length))]),
  ) as Record<keyof Row, number>;
  const line = (r: Row) => cols.map((c) => r[c].padEnd(width[c])).join(" | ");
  console.log(line(headers));
  console.log(cols.map((c) => "-".repeat(width[c])).join("-|-"));
  for (const r of rows) console.log(line(r));
}

export const fmtInt = (n: number) => Math.round(n).toLocaleString("en-US");
export const fmtMs = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
export const fmtMb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const fmtRatio = (r: number) => `${r.toFixed(2)}x`;
