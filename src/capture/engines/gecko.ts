import puppeteer, { type Browser } from "puppeteer-core";
import type { NetworkGuard } from "../network-guard";
import { type GuardedProxy, startGuardedProxy } from "./guarded-proxy";
import type { CaptureOptions, WebKitPageCapture, WebKitShot, WebKitTarget } from "./webkit";

/**
 * Gecko as Thunderbird and Firefox use it, from Debian's firefox-esr, driven headless over WebDriver BiDi by
 * puppeteer-core (no display, no geckodriver). One browser per engine, kept running (its start costs seconds); each
 * render is a fresh user context (a browser context: no cookies, storage or cache kept from the render before), whose
 * BiDi proxy is a guarded proxy of its own (guarded-proxy.ts), so renders of one engine run side by side. The
 * browser-wide proxy, set in the profile, is a guarded proxy that refuses everything: what Firefox asks for outside a
 * render (its own background traffic, quietened by GECKO_PREFS) never leaves it. A browser that died is replaced
 * by the next render. docs/engines.md has the evidence and the figures.
 */

/** Debian's package, where `scripts/setup.mjs` installs it (ASSAY_FIREFOX_PATH overrides). */
export const FIREFOX_ESR = "/usr/bin/firefox-esr";
const START_TIMEOUT_MS = 60_000;
const PAGE_LOAD_TIMEOUT_MS = 30_000;
/** Cap on one BiDi command: a browser that stops answering fails the render instead of hanging it. */
const COMMAND_TIMEOUT_MS = PAGE_LOAD_TIMEOUT_MS + 15_000;

/** Refuses every request: the browser-wide proxy, for anything Firefox asks for outside a render. */
const REFUSE_BACKGROUND = {
  check: async () => ({ allowed: false, reason: "refused", detail: "nothing is fetched outside a render" }),
} as unknown as NetworkGuard;

/**
 * The profile's preferences beyond puppeteer's own (which already turn off updates of add-ons and search, safe
 * browsing's lists, the new-tab page and session restore). Every request through the proxy: loopback included
 * (allow_hijacking_localhost), no name bypassing it, no fallback to a direct connection when the proxy refuses,
 * hostnames resolved by the proxy (never looked up here: no DNS prefetch, no speculative connections, no DNS over
 * HTTPS). WebRTC off (its UDP would not go through an HTTP proxy). Firefox's own traffic off: updates, telemetry,
 * captive-portal and connectivity checks, remote settings and the blocklist, push, region and geolocation lookups,
 * media plugin downloads, OCSP (remote settings still ask: see network.dns.forceResolve).
 */
const GECKO_PREFS: Record<string, unknown> = {
  "network.proxy.type": 1,
  "network.proxy.share_proxy_settings": true,
  "network.proxy.no_proxies_on": "",
  "network.proxy.allow_hijacking_localhost": true,
  "network.proxy.failover_direct": false,
  "network.proxy.socks_remote_dns": true,
  "network.dns.disablePrefetch": true,
  "network.dns.disablePrefetchFromHTTPS": true,
  "network.predictor.enabled": false,
  "network.prefetch-next": false,
  "network.http.speculative-parallel-limit": 0,
  "network.http.http3.enable": false,
  "network.trr.mode": 5,
  // Every name Firefox resolves itself answers 192.0.2.1 (TEST-NET-1, never routed): its remote-settings client
  // connects directly as well as through the proxy (failover_direct notwithstanding), and so asked the resolver for
  // firefox.settings.services.mozilla.com; with this no lookup leaves and such a connection goes nowhere.
  "network.dns.forceResolve": "192.0.2.1",
  "media.peerconnection.enabled": false,
  "media.peerconnection.ice.proxy_only": true,
  "app.update.auto": false,
  "app.update.enabled": false,
  "app.update.disabledForTesting": true,
  "toolkit.telemetry.enabled": false,
  "toolkit.telemetry.unified": false,
  "toolkit.telemetry.server": "",
  "datareporting.policy.dataSubmissionEnabled": false,
  "datareporting.healthreport.uploadEnabled": false,
  "browser.ping-centre.telemetry": false,
  "network.captive-portal-service.enabled": false,
  "captivedetect.canonicalURL": "",
  "network.connectivity-service.enabled": false,
  "browser.safebrowsing.blockedURIs.enabled": false,
  "browser.safebrowsing.update.enabled": false,
  "browser.safebrowsing.provider.google4.updateURL": "",
  "browser.safebrowsing.provider.mozilla.updateURL": "",
  "services.settings.server": "http://remote-settings.invalid/v1",
  "extensions.blocklist.enabled": false,
  "security.remote_settings.crlite_filters.enabled": false,
  "security.remote_settings.intermediates.enabled": false,
  "security.OCSP.enabled": 0,
  "dom.push.connection.enabled": false,
  "dom.push.serverURL": "",
  "browser.region.update.enabled": false,
  "browser.region.network.url": "",
  "geo.provider.network.url": "",
  "media.gmp-manager.updateEnabled": false,
  "media.gmp-manager.url": "",
  "extensions.systemAddon.update.enabled": false,
  "extensions.getAddons.cache.enabled": false,
};

type Viewport = { width: number; height: number };

export interface GeckoCaptureOptions extends Pick<CaptureOptions, "fullPageUpTo"> {
  /** The page's own scripts off: its document is served with `Content-Security-Policy: script-src 'none'`. */
  scriptsOff?: boolean;
}

export class GeckoEngine {
  private exited = false;

  private constructor(
    private readonly browser: Browser,
    /** The browser-wide proxy (REFUSE_BACKGROUND): what reached it is Firefox's own traffic, refused. */
    private readonly background: GuardedProxy,
  ) {
    browser.process()?.once("exit", () => {
      this.exited = true;
    });
  }

  /** Launches firefox-esr headless with a fresh profile whose proxy is a guarded proxy that refuses everything. */
  static async start(executablePath = FIREFOX_ESR): Promise<GeckoEngine> {
    const background = await startGuardedProxy(REFUSE_BACKGROUND);
    const [host, port] = background.address.split(":");
    try {
      const browser = await puppeteer.launch({
        browser: "firefox",
        executablePath,
        headless: true,
        timeout: START_TIMEOUT_MS,
        protocolTimeout: COMMAND_TIMEOUT_MS,
        extraPrefsFirefox: {
          ...GECKO_PREFS,
          "network.proxy.http": host,
          "network.proxy.http_port": Number(port),
          "network.proxy.ssl": host,
          "network.proxy.ssl_port": Number(port),
        },
      });
      return new GeckoEngine(browser, background);
    } catch (e) {
      await background.close();
      throw new Error(`Firefox could not start: ${(e as Error).message.split("\n")[0]}`);
    }
  }

  /** False once the browser has gone (crashed or closed): the engine is then replaced. */
  get alive(): boolean {
    return !this.exited && this.browser.connected;
  }

  /**
   * Loads the page once in a user context of its own, then at each viewport in turn: sizes the viewport, runs
   * `readScript` (a function body, as WebKit's execute/sync takes it, evaluated in the page's own world) and takes the
   * viewport's screenshot. Renders run side by side, each in its context, behind its own guarded proxy.
   */
  async capture(
    target: WebKitTarget,
    viewports: Viewport[],
    guard: NetworkGuard,
    readScript?: string,
    options: GeckoCaptureOptions = {},
  ): Promise<WebKitPageCapture> {
    const proxy = await startGuardedProxy(
      guard,
      "html" in target ? target.html : undefined,
      options.scriptsOff ? { "content-security-policy": "script-src 'none'" } : {},
    );
    const context = await this.browser.createBrowserContext({ proxyServer: proxy.address }).catch(async (e) => {
      await proxy.close();
      throw e;
    });
    try {
      const page = await context.newPage();
      await page.setViewport(viewports[0]!);
      const url = "url" in target ? target.url : proxy.documentUrl;
      await page.goto(url, { waitUntil: "load", timeout: PAGE_LOAD_TIMEOUT_MS });
      const refused = proxy.requests.find((r) => r.url === url && r.outcome !== "allowed" && r.outcome !== "document");
      if (refused)
        throw new Error(`the page itself was not loaded: ${url} was ${refused.outcome} at the network guard`);
      const shots: WebKitShot[] = [];
      for (const [i, viewport] of viewports.entries()) {
        if (i > 0) await page.setViewport(viewport);
        const reading = readScript ? await page.evaluate(`(function () {${readScript}\n})()`) : null;
        if (options.fullPageUpTo) {
          // The viewport grown to the document's height (capped): the screenshot is the whole page, as Chromium's are.
          const height = (await page.evaluate("document.documentElement.scrollHeight")) as number;
          if (height > viewport.height)
            await page.setViewport({ width: viewport.width, height: Math.min(height, options.fullPageUpTo) });
        }
        const png = Buffer.from(await page.screenshot({ type: "png" }));
        shots.push({ png: new Uint8Array(png), width: png.readUInt32BE(16), height: png.readUInt32BE(20), reading });
      }
      return { shots, requests: [...proxy.requests], browserVersion: (await this.browser.version()).split("/")[1]! };
    } finally {
      // Closed after the answer, not before it: a user context takes 0.1 to 0.3 s to close under load.
      void context
        .close()
        .catch(() => {})
        .then(() => proxy.close());
    }
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => {});
    await this.background.close();
  }
}
