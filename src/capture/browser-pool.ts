import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { timed } from "../phases";

/** What Chromium needs on this machine: no sandbox as root, and no background traffic to hosts it cannot reach. */
export const BASE_CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The features playwright-core's launch turns off. Chromium reads only the last --disable-features, so ours
 * restates Playwright's list (test/browser-flags.test.ts compares it with what Playwright passes).
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion",
];

/**
 * Every context (a job's, a render's) got two renderer processes besides its page's: a spare one kept for a
 * next navigation that a fresh context never makes, and the omnibox pop-up's WebUI of the context's window,
 * which headless never shows. Starting them cost more CPU than the page: a job's Chromium time fell by about
 * 45% without them (docs/performance.md).
 */
const ASSAY_DISABLED_FEATURES = ["SpareRendererForSitePerProcess", "WebUIOmniboxPopup", "WebUIOmniboxAimPopup"];

/**
 * Flags this machine needs (no sandbox as root, no background traffic), then the network lock-down.
 *
 * Chromium never needs a network of its own: the capture engine routes every http(s) request and every
 * WebSocket of a page through the network guard and answers it from the server side (route.fulfill).
 * So everything that could leave around that routing is pointed at nothing:
 * - a proxy that cannot be reached, for every host including loopback (`<-loopback>`: without it Chromium
 *   sends loopback requests around a configured proxy): preconnects, speculation-rules prefetch/prerender,
 *   anything else Chromium starts itself, fail instead of connecting;
 * - a host resolver that resolves nothing (`MAP * ~NOTFOUND`), so no name, the proxy's included, is looked
 *   up: DNS prefetch and network prediction cannot leak a lookup (Chromium 156 has no switch that turns
 *   them off: --dns-prefetch-disable is gone from it);
 * - WebRTC may not send UDP except through the proxy (there is none), so ICE/STUN cannot reach an address
 *   (--force-webrtc-ip-handling-policy is not a switch of Chromium 156; this one is, and works);
 * - QUIC off (UDP again).
 * Service workers are blocked per context (serviceWorkers: "block"). test/ssrf-browser.test.ts shows a page
 * with no routing at all getting nothing out under these flags, and the same page getting out without them.
 */
export const CHROMIUM_ARGS = [
  ...BASE_CHROMIUM_ARGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...ASSAY_DISABLED_FEATURES].join(",")}`,
  "--disable-dev-shm-usage",
  "--proxy-server=http://assay-no-direct-network.invalid:9",
  "--proxy-bypass-list=<-loopback>",
  "--host-resolver-rules=MAP * ~NOTFOUND",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  // A page that allocates without end crashes its renderer at this heap size instead of taking the machine's memory.
  "--js-flags=--max-old-space-size=1024",
];

export function findChromium(configured?: string): string | undefined {
  if (configured) return configured;
  for (const dir of (process.env.PATH ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]) {
      const p = `${dir}/${name}`;
      if (dir && existsSync(p)) return p;
    }
  }
  return undefined;
}

/**
 * Warm Chromium browsers; each job takes the least busy one and opens its own context. At most `pagesPerBrowser`
 * contexts per browser are open at once; the rest wait their turn in arrival order. Without that bound every job
 * started at once and took its share of two cores: 23 jobs arriving together each took 25 times as long as one,
 * and none finished sooner for it.
 */
export class BrowserPool {
  private browsers: Array<{ browser: Promise<Browser>; active: number }> = [];
  private inUse = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(
    private readonly executablePath: string,
    private readonly size: number,
    private readonly pagesPerBrowser = 1,
  ) {}

  /** How many uses wait for a turn now (JobService refuses a job before its charge past a limit). */
  get waiting(): number {
    return this.waiters.length;
  }

  /** How many uses may run at once: browsers × pages per browser. */
  get capacity(): number {
    return this.size * this.pagesPerBrowser;
  }

  /** What /healthz shows of the pool: where its browsers run and how busy each is. */
  describe(): { mode: "local" | "remote"; browsers: Array<{ endpoint?: string; connected: boolean; active: number; capacity: number }> } {
    return { mode: "local", browsers: this.browsers.map((b) => ({ connected: true, active: b.active, capacity: this.pagesPerBrowser })) };
  }

  /** How many browsers have been started (none until the pool is warmed or first used). */
  get launched(): number {
    return this.browsers.length;
  }

  /**
   * Starts the browsers now (those not running), so the first job does not pay for the launch. Rejects with the
   * launch's failure when none can be launched; the failed ones are dropped, so the next call launches again.
   * JobService asks this before it accepts a job, so a job is never charged for a browser that cannot start.
   */
  async warm(): Promise<void> {
    this.fill();
    const slots = [...this.browsers];
    const failures = await Promise.all(slots.map((b) => b.browser.then(() => null, (e: Error) => e)));
    const failed = new Set(slots.filter((_, i) => failures[i] !== null));
    this.browsers = this.browsers.filter((b) => !failed.has(b));
    if (failed.size === slots.length) throw failures[0];
  }

  /**
   * Runs `fn` on the least busy browser once a turn is free (relaunched first if it went away). What `fn` hands
   * to `finishLater` (closing its context) runs on after `fn`'s answer is returned, and the turn is held until it
   * ends: the caller does not wait for Chromium to tear down a renderer, and the renderers alive stay bounded.
   */
  async use<T>(fn: (browser: Browser, finishLater: (cleanup: Promise<unknown>) => void) => Promise<T>): Promise<T> {
    await timed("queue", () => this.turn());
    const cleanups: Promise<unknown>[] = [];
    let slot: (typeof this.browsers)[number] | undefined;
    try {
      this.fill();
      slot = this.browsers.reduce((a, b) => (b.active < a.active ? b : a));
      slot.active++;
      let browser = await slot.browser;
      if (!browser.isConnected()) {
        slot.browser = this.launch();
        browser = await slot.browser;
      }
      return await fn(browser, (cleanup) => cleanups.push(cleanup));
    } finally {
      const release = () => {
        if (slot) slot.active--;
        this.handOver();
      };
      if (cleanups.length) void Promise.allSettled(cleanups).then(release);
      else release();
    }
  }

  private async turn(): Promise<void> {
    if (this.inUse < this.capacity) {
      this.inUse++;
      return;
    }
    // The use that ends hands its turn over (handOver), so a waiter never races a newcomer for it.
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private handOver(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.inUse--;
  }

  async close(): Promise<void> {
    const all = this.browsers;
    this.browsers = [];
    await Promise.all(all.map(async (b) => (await b.browser.catch(() => null))?.close().catch(() => {})));
  }

  private fill(): void {
    while (this.browsers.length < this.size) {
      const browser = this.launch();
      // A failed launch is reported by warm() or by the use() that awaits it, not as an unhandled rejection.
      browser.catch(() => {});
      this.browsers.push({ browser, active: 0 });
    }
  }

  private launch(): Promise<Browser> {
    // Playwright turns Chromium's pop-up blocker off; on, window.open without a user's gesture opens nothing, as in a reader's browser.
    return chromium.launch({ executablePath: this.executablePath, headless: true, args: CHROMIUM_ARGS, ignoreDefaultArgs: ["--disable-popup-blocking"] });
  }
}
