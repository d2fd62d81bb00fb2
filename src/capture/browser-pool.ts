import { chromium, type Browser } from "playwright-core";
import type { Config } from "../config";
import { timed } from "../phases";
import { findChromium, LAUNCH_OPTIONS } from "./chromium-launch";

/** Where the pool's browsers come from: launched here, or connected to browser workers (ASSAY_BROWSER_ENDPOINTS). */
export type BrowserPoolOptions =
  | { executablePath: string; browsers: number; pagesPerBrowser?: number }
  | { endpoints: string[]; pagesPerBrowser?: number };

/** What /healthz shows of the pool: each browser, whether it is up, and its turns in use out of its capacity. */
export interface PoolDescription {
  mode: "local" | "remote";
  /** `endpoint` is a worker's scheme, host and port: its path is left out, being the only secret of a worker's endpoint. */
  browsers: Array<{ endpoint?: string; connected: boolean; active: number; capacity: number }>;
}

/**
 * A worker that went away (or could not be reached) is not tried again before 2 s, then 4, 8… up to a minute
 * after each further failure: a job arriving meanwhile goes to another worker instead of waiting on a dead one.
 */
const FIRST_RETRY_MS = 2_000;
const LAST_RETRY_MS = 60_000;
/** A worker that does not answer the connection within this long counts as unreachable. */
const CONNECT_TIMEOUT_MS = 10_000;

/** A use waiting for a turn. */
interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (e: Error) => void;
}

/**
 * One admission lane while it has uses waiting or holding a turn: the waiting ones in arrival order, and when the lane
 * was last given a turn (the pool's `served` count then; 0 for a lane that has had none since it came).
 */
interface Lane {
  waiters: Waiter[];
  active: number;
  lastServed: number;
}

/** The lane of uses that name none. */
const SHARED_LANE = "";

/** One browser of the pool: a local launch, or a connection to one worker. */
interface Slot {
  /** The worker's ws:// or wss:// endpoint; none for a browser launched here. */
  readonly endpoint?: string;
  /** The launch or connection in progress or made; null before the first and once the browser went away. */
  opening: Promise<Browser> | null;
  /** The browser once it is up; null while opening and once it went away. */
  browser: Browser | null;
  /** Turns running on this browser now. */
  active: number;
  /** Failed connections in a row, for the back-off. */
  failures: number;
  /** A worker that went away is not tried again before this time (ms since the epoch); 0 for a local browser. */
  retryAt: number;
  /** Why the browser is down, for the operator's log and the unavailable error. */
  lastError?: string;
}

/**
 * Warm Chromium browsers, launched here or running in browser workers (`assay browser-worker`, or any playwright-core
 * launchServer) that the pool connects to over Playwright's protocol. Each use takes a turn on the browser with the
 * most free turns, and opens its own context there. At most `pagesPerBrowser` contexts per browser are open at once;
 * the rest wait their turn. Without that bound every job started at once and took its share of two cores: 23 jobs
 * arriving together each took 25 times as long as one, and none finished sooner for it.
 *
 * Waiting is fair across admission lanes: each use names an opaque lane (the job runner passes the organization's
 * id; the pool knows no organizations), a free turn goes to the lane with waiters that was given a turn longest ago (a
 * lane holding none first), and within a lane in arrival order. So while another lane waits, a run of a thousand
 * pages in one lane gets at most every other turn, and a single job of another lane waits for the first turn that
 * ends, not for the run.
 *
 * Routing stays on this side of the protocol (the capture engine's Playwright routes), so the network guard decides
 * every request a worker's page makes. A browser that goes away ('disconnected': a worker killed, its connection
 * cut) gets no new turn; a local one is launched again on the next use, a worker is connected again after a back-off.
 */
export class BrowserPool {
  private readonly slots: Slot[];
  private readonly pagesPerBrowser: number;
  /** The lanes with uses waiting or holding turns (one with neither is not kept, so this stays as small as the work). */
  private readonly lanes = new Map<string, Lane>();
  /** Uses waiting for a turn, in every lane. */
  private waiterCount = 0;
  /** How many turns have been given: what a lane's `lastServed` is counted in. */
  private served = 0;
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions) {
    if ("endpoints" in options && options.endpoints.length === 0)
      throw new Error("A remote browser pool needs at least one worker endpoint.");
    this.pagesPerBrowser = Math.max(1, options.pagesPerBrowser ?? 1);
    const slot = (endpoint?: string): Slot => ({
      ...(endpoint ? { endpoint } : {}),
      opening: null,
      browser: null,
      active: 0,
      failures: 0,
      retryAt: 0,
    });
    this.slots =
      "endpoints" in options
        ? options.endpoints.map(slot)
        : Array.from({ length: Math.max(1, options.browsers) }, () => slot());
  }

  /**
   * The pool the configuration asks for: connected to ASSAY_BROWSER_ENDPOINTS when it names workers (no local
   * Chromium needed then), otherwise launching ASSAY_BROWSER_POOL_SIZE browsers here.
   */
  static fromConfig(
    config: Pick<Config, "chromiumPath" | "browserPoolSize" | "browserPagesPerBrowser" | "browserEndpoints">,
  ): BrowserPool {
    if (config.browserEndpoints.length)
      return new BrowserPool({ endpoints: config.browserEndpoints, pagesPerBrowser: config.browserPagesPerBrowser });
    const executablePath = findChromium(config.chromiumPath);
    if (!executablePath)
      throw new Error("No Chromium found: set CHROMIUM_PATH, or run `npm start`, which installs Debian's chromium.");
    return new BrowserPool({
      executablePath,
      browsers: config.browserPoolSize,
      pagesPerBrowser: config.browserPagesPerBrowser,
    });
  }

  get mode(): "local" | "remote" {
    return "endpoints" in this.options ? "remote" : "local";
  }

  /** How many uses wait for a turn now, in every lane (JobService refuses a job before its charge past a limit). */
  get waiting(): number {
    return this.waiterCount;
  }

  /** How many uses may run at once when every browser is up: browsers × pages per browser. */
  get capacity(): number {
    return this.slots.length * this.pagesPerBrowser;
  }

  /** How many browsers have been started or connected to, or are being (none until the pool is warmed or first used). */
  get launched(): number {
    return this.slots.filter((s) => s.opening).length;
  }

  describe(): PoolDescription {
    return {
      mode: this.mode,
      browsers: this.slots.map((s) => ({
        ...(s.endpoint ? { endpoint: withoutPath(s.endpoint) } : {}),
        connected: s.browser?.isConnected() ?? false,
        active: s.active,
        capacity: this.pagesPerBrowser,
      })),
    };
  }

  /**
   * Starts the browsers that are not running (a worker only once its back-off has passed), so the first job does
   * not pay for the launch. When one is up already it returns at once, the others coming up in the background;
   * otherwise it waits for them and rejects, saying why, when none came up. JobService asks this before it accepts
   * a job, so a job is never charged when no browser can run it.
   */
  async warm(): Promise<void> {
    const now = Date.now();
    for (const slot of this.slots) if (!slot.opening && slot.retryAt <= now) void this.open(slot).catch(() => {});
    if (this.slots.some((s) => s.browser?.isConnected())) return;
    await Promise.all(this.slots.map((s) => s.opening?.catch(() => null)));
    if (!this.slots.some((s) => s.browser?.isConnected())) throw this.unavailable({ detailed: true });
  }

  /**
   * Runs `fn` on a browser once a turn is free there. What `fn` hands to `finishLater` (closing its context) runs on
   * after `fn`'s answer is returned, and the turn is held until it ends: the caller does not wait for Chromium to
   * tear down a renderer, and the renderers alive stay bounded. A browser that cannot be had (a worker that went
   * away) gives the turn back and the use moves to another one; with none left, it rejects. `lane` is the admission
   * lane the use waits in (see the class comment); uses that name none share one.
   */
  async use<T>(
    fn: (browser: Browser, finishLater: (cleanup: Promise<unknown>) => void) => Promise<T>,
    lane: string = SHARED_LANE,
  ): Promise<T> {
    for (let tried = 1; ; tried++) {
      const slot = await timed("queue", () => this.acquire(lane));
      let browser: Browser;
      try {
        browser = await this.browserOf(slot);
      } catch {
        this.release(slot, lane);
        if (tried >= this.slots.length || !this.slots.some((s) => this.usable(s))) throw this.unavailable();
        continue;
      }
      return this.run(slot, lane, browser, fn);
    }
  }

  /**
   * A turn on the same budget without a Chromium page: a render in another engine (WebKit, engines/) takes one, so
   * the pages and renders running at once on this machine stay within what the pool admits, fairly across lanes.
   */
  async admit<T>(fn: () => Promise<T>, lane: string = SHARED_LANE): Promise<T> {
    const slot = await timed("queue", () => this.acquire(lane));
    try {
      return await fn();
    } finally {
      this.release(slot, lane);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.dropWaiters()) waiter.reject(new Error("The browser pool closed."));
    // A connected browser's close() ends this node's contexts and connection; the worker and its Chromium stay up.
    await Promise.all(this.slots.map(async (s) => (await s.opening?.catch(() => null))?.close().catch(() => {})));
  }

  private async run<T>(
    slot: Slot,
    lane: string,
    browser: Browser,
    fn: (browser: Browser, finishLater: (cleanup: Promise<unknown>) => void) => Promise<T>,
  ): Promise<T> {
    const cleanups: Promise<unknown>[] = [];
    try {
      return await fn(browser, (cleanup) => cleanups.push(cleanup));
    } finally {
      if (cleanups.length) void Promise.allSettled(cleanups).then(() => this.release(slot, lane));
      else this.release(slot, lane);
    }
  }

  /** A turn: at once when a browser has one free and nobody waits, otherwise in the lane's queue as turns end. */
  private acquire(laneKey: string): Promise<Slot> {
    if (this.closed) return Promise.reject(new Error("The browser pool closed."));
    const lane = this.laneOf(laneKey);
    const slot = this.waiterCount ? undefined : this.pick();
    if (slot) {
      this.give(slot, lane);
      return Promise.resolve(slot);
    }
    if (!this.slots.some((s) => this.usable(s))) {
      this.forget(laneKey, lane);
      return Promise.reject(this.unavailable());
    }
    return new Promise((resolve, reject) => {
      lane.waiters.push({ resolve, reject });
      this.waiterCount++;
    });
  }

  /** The use that ends hands its turn over to a waiter, so a waiter never races a newcomer for it. */
  private release(slot: Slot, laneKey: string): void {
    slot.active--;
    const lane = this.lanes.get(laneKey);
    if (lane) {
      lane.active--;
      this.forget(laneKey, lane);
    }
    this.dispatch();
  }

  private dispatch(): void {
    while (this.waiterCount) {
      const slot = this.pick();
      if (!slot) return;
      const lane = this.nextLane();
      const waiter = lane.waiters.shift()!;
      this.waiterCount--;
      this.give(slot, lane);
      waiter.resolve(slot);
    }
  }

  private give(slot: Slot, lane: Lane): void {
    slot.active++;
    lane.active++;
    lane.lastServed = ++this.served;
  }

  /**
   * The lane with waiters that was given a turn longest ago (one holding none first; between equals, the one that came
   * first): round robin between the lanes that wait.
   */
  private nextLane(): Lane {
    let chosen: Lane | undefined;
    for (const lane of this.lanes.values())
      if (lane.waiters.length && (!chosen || lane.lastServed < chosen.lastServed)) chosen = lane;
    return chosen!;
  }

  private laneOf(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { waiters: [], active: 0, lastServed: 0 }));
    return lane;
  }

  /** Drops a lane with nothing waiting and no turn held. */
  private forget(key: string, lane: Lane): void {
    if (lane.waiters.length === 0 && lane.active === 0) this.lanes.delete(key);
  }

  /** Every waiter of every lane, taken out of the queue (the turns held stay counted until they end). */
  private dropWaiters(): Waiter[] {
    const all: Waiter[] = [];
    for (const [key, lane] of this.lanes) {
      all.push(...lane.waiters.splice(0));
      this.forget(key, lane);
    }
    this.waiterCount = 0;
    return all;
  }

  /**
   * The browser with the most free turns, a browser that is up before one coming up, and that before a worker due
   * for a retry: a job goes to a worker known to answer while there is one.
   */
  private pick(): Slot | undefined {
    const rank = (s: Slot) => (s.browser ? 0 : s.opening ? 1 : 2);
    return this.slots
      .filter((s) => this.usable(s) && s.active < this.pagesPerBrowser)
      .sort((a, b) => rank(a) - rank(b) || a.active - b.active)[0];
  }

  /** Up, coming up, or allowed to be tried (a local browser always is; a worker once its back-off has passed). */
  private usable(slot: Slot): boolean {
    return slot.opening !== null || slot.retryAt <= Date.now();
  }

  private async browserOf(slot: Slot): Promise<Browser> {
    if (slot.browser && !slot.browser.isConnected()) this.lost(slot, slot.browser);
    if (slot.opening) return slot.opening;
    if (!this.usable(slot)) throw this.unavailable();
    return this.open(slot);
  }

  private open(slot: Slot): Promise<Browser> {
    const opening: Promise<Browser> = (
      slot.endpoint
        ? chromium.connect(slot.endpoint, { timeout: CONNECT_TIMEOUT_MS })
        : chromium.launch({
            executablePath: "executablePath" in this.options ? this.options.executablePath : undefined,
            ...LAUNCH_OPTIONS,
          })
    ).then(
      (browser) => {
        if (slot.opening !== opening) {
          void browser.close().catch(() => {});
          throw new Error("The browser pool closed while this browser came up.");
        }
        slot.browser = browser;
        slot.failures = 0;
        slot.lastError = undefined;
        browser.once("disconnected", () => this.lost(slot, browser));
        // A worker that came back takes the turns that waited for one.
        this.dispatch();
        return browser;
      },
      (e: Error) => {
        if (slot.opening === opening) this.down(slot, e.message.split("\n")[0]!);
        throw e;
      },
    );
    slot.opening = opening;
    // A failed start is reported by warm() or by the use() that awaits it, not as an unhandled rejection.
    opening.catch(() => {});
    return opening;
  }

  private lost(slot: Slot, browser: Browser): void {
    if (slot.browser !== browser) return;
    this.down(slot, slot.endpoint ? "the worker went away" : "Chromium went away");
  }

  private down(slot: Slot, reason: string): void {
    slot.browser = null;
    slot.opening = null;
    slot.lastError = reason;
    if (this.closed) return;
    if (slot.endpoint) {
      slot.failures++;
      const delay = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** (slot.failures - 1));
      slot.retryAt = Date.now() + delay;
      console.error(
        `Browser worker ${withoutPath(slot.endpoint)} is unavailable (${reason}); it gets no job until it is tried again, in ${delay / 1000} s at the earliest.`,
      );
    }
    // Nothing left to wait for: the waiting uses fail now rather than wait on workers that are all down.
    if (!this.slots.some((s) => this.usable(s)))
      for (const waiter of this.dropWaiters()) waiter.reject(this.unavailable());
  }

  /**
   * Why no browser can be had. Only warm()'s says which browser failed how (it names hosts and paths, which JobService
   * logs for the operator); a use's is recorded on the job its caller reads, so it says no more than what happened.
   */
  private unavailable({ detailed = false } = {}): Error {
    if (this.closed) return new Error("The browser pool closed.");
    const what = this.mode === "remote" ? "No browser worker of this node is up" : "Chromium could not be launched";
    if (!detailed) return new Error(`${what}, so the page could not be rendered`);
    const why = this.slots.map(
      (s, i) => `${s.endpoint ? withoutPath(s.endpoint) : `browser ${i + 1}`}: ${s.lastError ?? "not started"}`,
    );
    return new Error(`${what} (${why.join("; ")})`);
  }
}

/** A worker's endpoint as logs and /healthz show it: its path, the endpoint's only secret, left out. */
function withoutPath(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.protocol}//${url.host}`;
}
