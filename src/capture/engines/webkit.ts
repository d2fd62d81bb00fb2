import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NetworkGuard } from "../network-guard";
import type { PooledEngine } from "./engine-pool";
import { firstLine, freePort, START_TIMEOUT_MS } from "./engine-processes";
import { type GuardedProxy, type ProxiedRequest, startGuardedProxy } from "./guarded-proxy";

/**
 * WebKit as Apple Mail and Safari use it, from Debian's WebKitGTK: WebKitWebDriver (package webkit2gtk-driver)
 * drives MiniBrowser, which needs an X display, so each engine starts its own Xvfb (package xvfb). WebDriver
 * has no request interception: every request goes through a guarded proxy (guarded-proxy.ts), given to
 * MiniBrowser as its --proxy. WebKitWebDriver holds one session at a time, so renders of one engine run one after another
 * (engine-pool.ts keeps a few engines for renders side by side). A page that may script or fetch gets a fresh session
 * (a fresh MiniBrowser, nothing kept from the render before); sealed renders (mail: JavaScript off, nothing fetched)
 * reuse a warm one, which saves most of a render's cost.
 * docs/engines.md has the evidence and the figures.
 */

export const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const PAGE_LOAD_TIMEOUT_MS = 30_000;
/**
 * Cap on one WebDriver command. When WebKit cannot start (without Mesa's swrast_dri.so, package libgl1-mesa-dri,
 * its web process aborts with "Could not create surfaceless EGL display"), WebKitWebDriver never answers the new
 * session: the render fails here instead of hanging.
 */
const COMMAND_TIMEOUT_MS = PAGE_LOAD_TIMEOUT_MS + 15_000;
/** How long a command whose connection failed waits for the driver's exit to be seen. */
const EXIT_GRACE_MS = 2000;
/**
 * GTK's user style sheet for MiniBrowser's own widgets (never the page's): its toolbar otherwise keeps the window at
 * least 447px wide, too wide for a 375px phone viewport; with its widgets shrunk the window goes down to 290px.
 */
const MINIBROWSER_GTK_CSS =
  "* { font-size: 1px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; -gtk-icon-transform: scale(0.01); }\n";

/** What a page is: a URL the browser loads through the proxy, or a document the proxy serves (at a name of its own). */
export type WebKitTarget = { url: string } | { html: string };

/** One viewport's screenshot (PNG) and what the reading script returned there. */
export interface WebKitShot {
  png: Uint8Array;
  width: number;
  height: number;
  reading: unknown;
}

export interface WebKitPageCapture {
  /** One per viewport asked for, in their order. */
  shots: WebKitShot[];
  /** Every request the page made, as the guarded proxy decided it. */
  requests: ProxiedRequest[];
  browserVersion: string;
}

export interface WebKitRender extends Omit<WebKitShot, "reading"> {
  requests: ProxiedRequest[];
  browserVersion: string;
}

type WebDriverAnswer = { value: unknown };
type Viewport = { width: number; height: number };

export interface CaptureOptions {
  /** More MiniBrowser arguments: `--dark-mode`, `--enable-javascript=false`. */
  browserArgs?: string[];
  /**
   * The colour behind a document that paints no background of its own (a mail client's canvas): set on the root
   * when neither it nor the body has a background, which is what the view's background would show through
   * (MiniBrowser's --bg-color needs a session of its own, this works on a warm one).
   */
  canvas?: string;
  /** After the reading, grow the viewport to the document's height, at most this tall, for a full-page screenshot. */
  fullPageUpTo?: number;
}

/**
 * A sealed render: a document laid out with JavaScript off and every request refused (a mail client's render). It
 * can leave nothing behind (no script to write cookies or storage, no response to set any, its document at a name of
 * its own), so such renders share a warm session; any other render gets a fresh one.
 */
const SEALED_ARGS = ["--enable-javascript=false"];
const REFUSE_ALL = {
  check: async () => ({ allowed: false, reason: "mail-render", detail: "a mail client's render fetches nothing" }),
} as unknown as NetworkGuard;

const CANVAS_SCRIPT = `const bare = (e) => !e || (getComputedStyle(e).backgroundColor === "rgba(0, 0, 0, 0)"
  && getComputedStyle(e).backgroundImage === "none");
if (bare(document.documentElement) && bare(document.body))
  document.documentElement.style.setProperty("background-color", arguments[0], "important");`;

/** The driver's one session kept between sealed renders: its proxy, and the MiniBrowser arguments it started with. */
interface WarmSession {
  path: string;
  args: string;
  proxy: GuardedProxy;
  browserVersion: string;
}

export class WebKitEngine implements PooledEngine {
  private queue: Promise<unknown> = Promise.resolve();
  private warm: WarmSession | null = null;
  /** What MiniBrowser's toolbar and borders add to the viewport, once measured (the window is then sized in one go). */
  private chrome = { width: 0, height: 0 };

  private constructor(
    private readonly xvfb: ChildProcess,
    private readonly driver: ChildProcess,
    private readonly base: string,
    /** The XDG_CONFIG_HOME holding MINIBROWSER_GTK_CSS, removed on close. */
    private readonly configHome: string,
  ) {}

  /** Starts Xvfb on a display it picks itself, then WebKitWebDriver on that display. */
  static async start(): Promise<WebKitEngine> {
    // As tall as a full-page mail render may be (EmailRenderLimits.screenshotMaxHeight), with room for the toolbar.
    const xvfb = spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "1920x8200x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    let driver: ChildProcess | undefined;
    const configHome = mkdtempSync(join(tmpdir(), "assay-webkit-"));
    try {
      mkdirSync(join(configHome, "gtk-3.0"));
      writeFileSync(join(configHome, "gtk-3.0", "gtk.css"), MINIBROWSER_GTK_CSS);
      const display = await firstLine(xvfb, "Xvfb");
      const port = await freePort();
      driver = spawn("WebKitWebDriver", [`--port=${port}`], {
        env: { ...process.env, DISPLAY: `:${display}`, XDG_CONFIG_HOME: configHome },
        stdio: "ignore",
      });
      const base = `http://127.0.0.1:${port}`;
      await waitUntilReady(base, driver);
      return new WebKitEngine(xvfb, driver, base, configHome);
    } catch (e) {
      driver?.kill();
      xvfb.kill();
      rmSync(configHome, { recursive: true, force: true });
      throw e;
    }
  }

  /** False once Xvfb or WebKitWebDriver has exited (the engine pool then replaces this engine). */
  get alive(): boolean {
    return [this.driver, this.xvfb].every((c) => c.exitCode === null && c.signalCode === null);
  }

  /** The process ids of Xvfb and WebKitWebDriver (the crash tests end them). */
  get pids(): { xvfb: number; driver: number } {
    return { xvfb: this.xvfb.pid!, driver: this.driver.pid! };
  }

  /** Whether a sealed render with these MiniBrowser arguments would reuse this engine's warm session. */
  warmFor(browserArgs: string[]): boolean {
    return this.warm?.args === [...SEALED_ARGS, ...browserArgs].join(" ");
  }

  /** Renders the document at width x height (the page's viewport) and returns the viewport's screenshot. */
  async render(html: string, viewport: Viewport, guard: NetworkGuard): Promise<WebKitRender> {
    const { shots, requests, browserVersion } = await this.capture({ html }, [viewport], guard);
    const { reading: _, ...shot } = shots[0]!;
    return { ...shot, requests, browserVersion };
  }

  /**
   * Loads the page once, then at each viewport in turn: sizes the viewport, runs `readScript` (the body of a
   * WebDriver execute/sync script, in the page's own world: WebDriver has no isolated one) and takes the
   * viewport's screenshot. A fresh session (a new MiniBrowser): the page may run script and fetch, and WebDriver
   * cannot clear what it leaves (its Delete All Cookies covers the current document's host only).
   * Renders on one engine run one after another (one session per driver).
   */
  capture(
    target: WebKitTarget,
    viewports: Viewport[],
    guard: NetworkGuard,
    readScript?: string,
    options: CaptureOptions = {},
  ) {
    return this.inTurn(() => this.captureFresh(target, viewports, guard, readScript, options));
  }

  /**
   * A sealed render of `html` at one viewport (JavaScript off, every request refused), on the warm session when it
   * was started with the same arguments, else on a new one that stays warm. Between renders the session goes back to
   * about:blank; a render that fails on a reused session is tried once on a fresh one (its browser may have died).
   */
  renderSealed(html: string, viewport: Viewport, readScript: string, options: CaptureOptions = {}) {
    return this.inTurn(() => this.sealedNow(html, viewport, readScript, options));
  }

  async close(): Promise<void> {
    await this.dropWarm();
    for (const child of [this.driver, this.xvfb]) {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill();
        await exited;
      }
    }
    rmSync(this.configHome, { recursive: true, force: true });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => {});
    return run;
  }

  private async captureFresh(
    target: WebKitTarget,
    viewports: Viewport[],
    guard: NetworkGuard,
    readScript?: string,
    options: CaptureOptions = {},
  ): Promise<WebKitPageCapture> {
    await this.dropWarm();
    const proxy = await startGuardedProxy(guard, "html" in target ? target.html : undefined);
    let session: { path: string; browserVersion: string } | undefined;
    try {
      session = await this.newSession(proxy, options.browserArgs ?? []);
      const url = "url" in target ? target.url : proxy.documentUrl;
      const shots = await this.shoot(session.path, url, proxy, viewports, readScript, options);
      return { shots, requests: [...proxy.requests], browserVersion: session.browserVersion };
    } finally {
      if (session) await this.command("DELETE", session.path).catch(() => {});
      await proxy.close();
    }
  }

  private async sealedNow(
    html: string,
    viewport: Viewport,
    readScript: string,
    options: CaptureOptions,
  ): Promise<WebKitPageCapture> {
    const args = [...SEALED_ARGS, ...(options.browserArgs ?? [])];
    if (this.warm && this.warm.args !== args.join(" ")) await this.dropWarm();
    const reused = this.warm !== null;
    let warm = this.warm;
    try {
      if (warm) warm.proxy.serve(html);
      else {
        const proxy = await startGuardedProxy(REFUSE_ALL, html);
        const session = await this.newSession(proxy, args).catch(async (e) => {
          await proxy.close();
          throw e;
        });
        warm = this.warm = { ...session, args: args.join(" "), proxy };
      }
      const shots = await this.shoot(warm.path, warm.proxy.documentUrl, warm.proxy, [viewport], readScript, options);
      const requests = [...warm.proxy.requests];
      await this.command("POST", `${warm.path}/url`, { url: "about:blank" });
      return { shots, requests, browserVersion: warm.browserVersion };
    } catch (e) {
      await this.dropWarm();
      if (reused && this.alive) return this.sealedNow(html, viewport, readScript, options);
      throw e;
    }
  }

  private async newSession(
    proxy: GuardedProxy,
    browserArgs: string[],
  ): Promise<{ path: string; browserVersion: string }> {
    const created = (await this.command("POST", "/session", {
      capabilities: {
        alwaysMatch: {
          timeouts: { pageLoad: PAGE_LOAD_TIMEOUT_MS },
          // MiniBrowser's --proxy, not the W3C proxy capability: WebKitWebDriver turns the capability's sslProxy
          // into an https:// proxy, so WebKit speaks TLS to the proxy itself; --proxy is the proxy for every
          // scheme, https over CONNECT (docs/engines.md).
          "webkitgtk:browserOptions": {
            binary: MINIBROWSER,
            args: ["--automation", `--proxy=http://${proxy.address}`, ...browserArgs],
          },
        },
      },
    })) as { sessionId: string; capabilities: { browserVersion: string } };
    return { path: `/session/${created.sessionId}`, browserVersion: created.capabilities.browserVersion };
  }

  /** Loads `url` on the session, then at each viewport reads and shoots it. */
  private async shoot(
    session: string,
    url: string,
    proxy: GuardedProxy,
    viewports: Viewport[],
    readScript: string | undefined,
    options: CaptureOptions,
  ): Promise<WebKitShot[]> {
    await this.sizeViewport(session, viewports[0]!);
    await this.command("POST", `${session}/url`, { url });
    const refused = proxy.requests.find((r) => r.url === url && r.outcome !== "allowed" && r.outcome !== "document");
    if (refused) throw new Error(`the page itself was not loaded: ${url} was ${refused.outcome} at the network guard`);
    if (options.canvas)
      await this.command("POST", `${session}/execute/sync`, { script: CANVAS_SCRIPT, args: [options.canvas] });
    const shots: WebKitShot[] = [];
    for (const [i, viewport] of viewports.entries()) {
      if (i > 0) await this.sizeViewport(session, viewport);
      const reading = readScript
        ? await this.command("POST", `${session}/execute/sync`, { script: readScript, args: [] })
        : null;
      if (options.fullPageUpTo) {
        // The window grown to the document's height (capped): the screenshot is the whole page, as Chromium's are.
        const height = (await this.command("POST", `${session}/execute/sync`, {
          script: "return document.documentElement.scrollHeight",
          args: [],
        })) as number;
        if (height > viewport.height)
          await this.sizeViewport(session, { width: viewport.width, height: Math.min(height, options.fullPageUpTo) });
      }
      const png = Buffer.from((await this.command("GET", `${session}/screenshot`)) as string, "base64");
      shots.push({ png: new Uint8Array(png), width: png.readUInt32BE(16), height: png.readUInt32BE(20), reading });
    }
    return shots;
  }

  /** Ends the warm session, if any (the driver holds one session at a time). */
  private async dropWarm(): Promise<void> {
    const warm = this.warm;
    this.warm = null;
    if (!warm) return;
    await this.command("DELETE", warm.path).catch(() => {});
    await warm.proxy.close();
  }

  /**
   * MiniBrowser's window has a toolbar: the window is sized, the viewport measured, and the window grown by the
   * difference. Under load the window manager applies a size late, so a viewport that does not match yet is measured
   * once more after a pause before the window is corrected.
   */
  private async sizeViewport(session: string, viewport: Viewport): Promise<void> {
    let window = { width: viewport.width + this.chrome.width, height: viewport.height + this.chrome.height };
    const measure = async () =>
      (await this.command("POST", `${session}/execute/sync`, {
        script: "return [innerWidth, innerHeight]",
        args: [],
      })) as [number, number];
    let inner: [number, number] = [0, 0];
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.command("POST", `${session}/window/rect`, window);
      inner = await measure();
      if (inner[0] !== viewport.width || inner[1] !== viewport.height) {
        await Bun.sleep(50 * (attempt + 1));
        inner = await measure();
      }
      if (inner[0] === viewport.width && inner[1] === viewport.height) {
        this.chrome = { width: window.width - viewport.width, height: window.height - viewport.height };
        return;
      }
      window = { width: window.width + viewport.width - inner[0], height: window.height + viewport.height - inner[1] };
    }
    throw new Error(
      `MiniBrowser's viewport could not be sized to ${viewport.width}x${viewport.height} (it stayed ${inner[0]}x${inner[1]})`,
    );
  }

  private async command(method: string, path: string, body?: unknown): Promise<unknown> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    }).catch(async (e: Error) => {
      // A connection the driver dropped: if it is exiting, `alive` says so before the render's failure is seen.
      if (this.driver.exitCode === null) await Promise.race([once(this.driver, "exit"), Bun.sleep(EXIT_GRACE_MS)]);
      throw new Error(
        `WebKitWebDriver ${method} ${path}: ${e.name === "TimeoutError" ? "no answer in time" : e.message}`,
      );
    });
    const answer = (await res.json()) as WebDriverAnswer;
    if (!res.ok) {
      const error = answer.value as { error?: string; message?: string };
      throw new Error(`WebKitWebDriver ${method} ${path}: ${error.error ?? res.status}: ${error.message ?? ""}`);
    }
    return answer.value;
  }
}

async function waitUntilReady(base: string, driver: ChildProcess): Promise<void> {
  let failure: Error | undefined;
  driver.once("error", (e) => {
    failure = new Error(`WebKitWebDriver could not start: ${e.message}`);
  });
  const end = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < end) {
    if (failure) throw failure;
    if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}) before it was ready`);
    const ready = await fetch(`${base}/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await Bun.sleep(25);
  }
  throw new Error(`WebKitWebDriver did not answer within ${START_TIMEOUT_MS} ms`);
}
