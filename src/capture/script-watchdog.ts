import type { CDPSession } from "playwright-core";

/** How long a script may hold a page's main thread while it loads before it is stopped (the capture's default). */
export const SCRIPT_STALL_MS = 5_000;

/** How often the watchdog asks whether the page's main thread is free. */
const PROBE_INTERVAL_MS = 500;

/**
 * Stops a script that holds a page's main thread while the page loads and settles: a trivial evaluation is
 * sent every PROBE_INTERVAL_MS, and when one has not been answered within stallMs, the running script is
 * terminated with CDP's Runtime.terminateExecution (Chromium delivers it while the thread is busy, as it does
 * Debugger.pause) and the page carries on. An endless loop while loading then no longer holds the load until
 * the navigation time-out, nor one just after load every gatherer until the capture's total time-out. When no
 * script was running (the thread was busy laying out a huge page), the termination does nothing (tried with
 * Chromium 156: the next evaluation runs normally), but the stall is still reported.
 *
 * It watches only until the gatherers start (finish()): from then on the page's thread also runs Assay's own
 * code, which may legitimately hold it for seconds on a huge page, and a stall could not be told apart.
 */
export class ScriptWatchdog {
  private running = true;
  /** A probe went unanswered and none has been answered since: one stall, reported once however long it lasts. */
  private stalled = false;
  private wake: (() => void) | null = null;
  private readonly watching: Promise<void>;

  constructor(
    private readonly cdp: CDPSession,
    private readonly stallMs: number,
    /** Called after each script the watchdog stopped. */
    private readonly onStop: () => void,
  ) {
    this.watching = this.watch();
  }

  /** Ends the watch once the page answers: a script still holding it is stopped first. */
  async finish(): Promise<void> {
    this.stop();
    await this.watching;
    await this.check();
  }

  /** Ends the watch now (the capture is over). */
  stop(): void {
    this.running = false;
    this.wake?.();
  }

  private async watch(): Promise<void> {
    while (this.running) {
      await this.check();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PROBE_INTERVAL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * One probe: answered within stallMs, or the script holding the thread is terminated (and given stallMs to let go).
   * While the thread stays held, every probe terminates again (a termination that reached the renderer between two
   * tasks does nothing), but the stall is reported once: a loaded machine can take longer than stallMs to answer
   * after the loop was stopped, and that is not a second script.
   */
  private async check(): Promise<void> {
    let answered = false;
    // "0" reads nothing of the page's; a navigation that swaps the context answers with an error, which is an answer.
    const probe = this.cdp.send("Runtime.evaluate", { expression: "0", returnByValue: true }).then(
      () => void (answered = true),
      () => void (answered = true),
    );
    await within(this.stallMs, probe);
    if (!answered) {
      // Not awaited: a renderer that crashed meanwhile never answers.
      void this.cdp.send("Runtime.terminateExecution").catch(() => {});
      if (!this.stalled) this.onStop();
      this.stalled = true;
      await within(this.stallMs, probe);
    }
    if (answered) this.stalled = false;
  }
}

/** How often the wait for a probe looks at the clock. */
const TICK_MS = 100;

/**
 * Waits for `promise`, at most ms of time this process could watch. Time its own event loop was held (a check
 * computing another job's verdicts, a starved machine) counts as one tick late at most: the probe's answer may be
 * queued behind that hold, and a page must not be blamed for a stall that was Assay's (seen under load as a false
 * console-errors fail on a page without scripts).
 */
async function within(ms: number, promise: Promise<void>): Promise<void> {
  let settled = false;
  void promise.finally(() => (settled = true));
  let watched = 0;
  let last = performance.now();
  while (!settled && watched < ms) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, TICK_MS)))]).finally(() =>
      clearTimeout(timer),
    );
    const now = performance.now();
    watched += Math.min(now - last, 2 * TICK_MS);
    last = now;
  }
}
