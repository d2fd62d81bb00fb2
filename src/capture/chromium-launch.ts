import { existsSync } from "node:fs";
import type { LaunchOptions } from "playwright-core";

// How every Assay Chromium is launched, by the browser pool (browser-pool.ts) and by `assay browser-worker`: the
// flags, the launch options, and where the binary is.

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
 * restates Playwright's list (test/capture/browser-flags.test.ts compares it with what Playwright passes).
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
 * Service workers are blocked per context (serviceWorkers: "block"). test/capture/ssrf-browser.test.ts shows a page
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
  // Media a page plays by itself plays, as for a visitor whose browser lets it (WCAG 1.4.2 judges what the page asks
  // for, W3C ACT 80f0bf); headless Chromium's default would hold back any that is not muted. Heard by no one:
  // Playwright launches with --mute-audio.
  "--autoplay-policy=no-user-gesture-required",
];

/** The Chromium binary: the one configured (CHROMIUM_PATH), else the first of the usual names on PATH. */
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
 * How every Assay Chromium is launched, by the pool and by `assay browser-worker`: headless, with CHROMIUM_ARGS.
 * Playwright turns Chromium's pop-up blocker off; on, window.open without a user's gesture opens nothing, as in a
 * reader's browser.
 */
export const LAUNCH_OPTIONS = {
  headless: true,
  args: CHROMIUM_ARGS,
  ignoreDefaultArgs: ["--disable-popup-blocking"],
} satisfies LaunchOptions;
