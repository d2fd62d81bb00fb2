import { channel } from "node:diagnostics_channel";

/**
 * Where a job's time goes: each phase (waiting for a browser, opening the context, navigation, each gatherer,
 * each check, the judge, the appends) is published on the diagnostics channel `assay.phase` as it ends.
 * Nothing is timed unless someone subscribes (`npm run bench` does, and prints the profile); an operator can
 * subscribe the same way. Phases of jobs running at the same time interleave: read them one job at a time.
 */
export const PHASE_CHANNEL = "assay.phase";

export interface PhaseTiming {
  /** `queue`, `context`, `navigation`, `settle`, `gather:<artifact>`, `check:<id>`, `judge`, `accept`, `settlement`, … */
  phase: string;
  ms: number;
}

const phases = channel(PHASE_CHANNEL);

/** Runs `fn` and publishes how long it took under `phase` (only while the channel has a subscriber). */
export async function timed<T>(phase: string, fn: () => Promise<T>): Promise<T> {
  if (!phases.hasSubscribers) return fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    phases.publish({ phase, ms: performance.now() - started } satisfies PhaseTiming);
  }
}

/** The synchronous twin of `timed`, for the log's appends and the checks that need no await. */
export function timedSync<T>(phase: string, fn: () => T): T {
  if (!phases.hasSubscribers) return fn();
  const started = performance.now();
  try {
    return fn();
  } finally {
    phases.publish({ phase, ms: performance.now() - started } satisfies PhaseTiming);
  }
}
