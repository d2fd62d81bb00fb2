import { TextReader } from "./ocr";
import type { BrowserContext, Page } from "playwright-core";
import type { BrowserPool } from "./browser-pool";
import type { NetworkGuard } from "./network-guard";
import type { ArtifactKind, PageRecords, WebArtifacts } from "./artifacts";
import { helpersScript } from "./page-helpers";
import { PageNetwork, type DocumentResponse } from "./page-network";
import { PageConsole } from "./page-console";
import { IsolatedWorld } from "./isolated-world";
import { SCRIPT_STALL_MS, ScriptWatchdog } from "./script-watchdog";
import { WEB_GATHERERS } from "./gatherers";
import { helpersOf, runGatherers, scheduleGatherers, type Schedule } from "./gatherers/run";
import type { GatherLimits, WebPage } from "./gatherers/web-page";
import { VIEWPORTS, type CaptureSize } from "./vocabulary";
import { untilStill } from "./page-resize";
import { timed } from "../phases";

export interface CaptureLimits extends GatherLimits {
  navigationTimeoutMs: number;
  /** The whole capture: load, settle, every size, screenshots. Past it the job is interrupted. */
  totalTimeoutMs: number;
  /** After load, wait for this long without a request in flight (for late errors and requests)… */
  quietMs: number;
  /** …but never longer than this. */
  settleCapMs: number;
  /** A script that holds the page's main thread this long without yielding is stopped (ScriptWatchdog). */
  scriptStallMs: number;
}

const DEFAULT_LIMITS: CaptureLimits = {
  navigationTimeoutMs: 15_000,
  totalTimeoutMs: 45_000,
  quietMs: 300,
  settleCapMs: 2_000,
  screenshotMaxHeight: 8_000,
  vitalsQuietMs: 1_000,
  vitalsCapMs: 15_000,
  scriptStallMs: SCRIPT_STALL_MS,
  resizeStillCapMs: 1_500,
};

/** Pages load at desktop size (the size the DOM checks are defined at), then resize through the rest. */
const SIZE_ORDER: CaptureSize[] = ["desktop-md", "tablet-portrait", "mobile-sm"];

export type WebSubject = { type: "url"; url: string } | { type: "static_html"; html: string; baseUrl: string };

export interface CapturePlan {
  viewports: CaptureSize[];
  /** What the selected checks read: the gatherers of these kinds run (gatherers/), with those they depend on. */
  needs: Set<ArtifactKind>;
  /**
   * The sizes each kind is read at (the sizes of the checks that read it), when known: a kind gathered only where it
   * is read (its gatherer's onlyAtSizesRead) is not gathered at the sizes the page visits for other checks.
   */
  sizesRead?: Partial<Record<ArtifactKind, CaptureSize[]>>;
  /** Image URLs named by the checks' parameters (ParameterSpec.referenceImage), measured to compare the page's images against. */
  referenceImages?: string[];
  /** CSS selectors whose elements' boxes are measured at each size when "mask-boxes" is needed (a run's visual masks). */
  maskSelectors?: string[];
  /** Axe tags beyond WCAG A and AA the checks' parameters ask for (ParameterSpec.axeTags). */
  axeTags?: string[];
  /** The pool's admission lane the capture waits in for its turn (BrowserPool.use): the job runner's organization. */
  admissionLane?: string;
}

export type CaptureOutcome = { ok: true; artifacts: WebArtifacts } | { ok: false; interruption: string };

/** Renders a web subject in a fresh browser context and gathers, once, what the selected checks read. */
export class WebCaptureEngine {
  constructor(
    private readonly pool: BrowserPool,
    private readonly guard: NetworkGuard,
    private readonly textReader: TextReader = new TextReader(),
    private readonly limits: CaptureLimits = DEFAULT_LIMITS,
  ) {}

  capture(subject: WebSubject, plan: CapturePlan): Promise<CaptureOutcome> {
    return this.pool.use(async (browser, finishLater) => {
      const context = await timed("context", () =>
        browser.newContext({
          viewport: { width: VIEWPORTS["desktop-md"].width, height: VIEWPORTS["desktop-md"].height },
          serviceWorkers: "block",
          acceptDownloads: false,
        }),
      );
      let timer: ReturnType<typeof setTimeout> | undefined;
      const overtime = new Promise<CaptureOutcome>((resolve) => {
        timer = setTimeout(
          () =>
            resolve({
              ok: false,
              interruption: `The capture exceeded the total time limit of ${this.limits.totalTimeoutMs / 1000} s`,
            }),
          this.limits.totalTimeoutMs,
        );
      });
      // A browser worker killed or cut off mid-capture: nothing sent to it will be answered, so the capture ends here
      // (every check an error row, refunded) instead of waiting on a request the page no longer makes.
      let goneAway!: () => void;
      const gone = new Promise<CaptureOutcome>(
        (resolve) => (goneAway = () => resolve({ ok: false, interruption: BROWSER_GONE })),
      );
      browser.on("disconnected", goneAway);
      try {
        const page = await timed("page", () => context.newPage());
        // After a crash, a CDP command sent to the page's renderer is never answered: the capture ends here.
        const crash = new Promise<CaptureOutcome>((resolve) =>
          page.once("crash", () => resolve({ ok: false, interruption: CRASHED })),
        );
        return await Promise.race([this.captureIn(context, page, subject, plan), overtime, crash, gone]);
      } finally {
        browser.off("disconnected", goneAway);
        clearTimeout(timer);
        finishLater(timed("context close", () => context.close().catch(() => {})));
      }
    }, plan.admissionLane);
  }

  /**
   * The page's life, around the gatherers: set-up (its network, its console, the watchdog), the document fetched and
   * navigated to, the settle, the isolated world with the page helpers, then the gatherers the checks' needs name
   * (gatherers/), the page resized through the sizes as they go.
   */
  private async captureIn(
    context: BrowserContext,
    page: Page,
    subject: WebSubject,
    plan: CapturePlan,
  ): Promise<CaptureOutcome> {
    const said = new PageConsole(page);
    let crashed = false;
    page.on("crash", () => (crashed = true));
    page.on("popup", (p) => void p.close().catch(() => {}));
    const network = new PageNetwork(this.guard, page);
    const referenceImages = plan.referenceImages ?? [];
    const schedule = scheduleGatherers(WEB_GATHERERS, plan.needs);
    for (const g of schedule.all) g.prepare?.({ network, referenceImages });
    const [cdp] = await timed("page set-up", () =>
      Promise.all([context.newCDPSession(page), said.capDialogs(), network.route(context)]),
    );
    const stalled = `The page's main thread did not answer for more than ${this.limits.scriptStallMs / 1000} s while it loaded (an endless loop?); Assay stopped the script running on it`;
    const watchdog = new ScriptWatchdog(cdp, this.limits.scriptStallMs, () => said.uncaught(stalled));
    try {
      const loaded = await this.navigate(page, subject, network, () => crashed);
      if ("interruption" in loaded) return { ok: false, interruption: loaded.interruption };
      const loadedAt = performance.now();
      const away = watchMainFrame(page, loaded.origin);
      await timed("settle", async () => {
        await this.settle(network, loadedAt, plan.needs.has("console"));
        await watchdog.finish();
      });
      if (away.left) return { ok: false, interruption: navigatedAway(away.left) };
      const world = await timed("page helpers", async () => {
        const opened = await IsolatedWorld.open(page, cdp);
        await opened.run(() => globalThis.document.fonts.ready.then(() => undefined));
        await opened.load(helpersScript(helpersOf(schedule)));
        return opened;
      });
      const finalUrl = page.url();
      const records: PageRecords = {
        blockedRequests: network.blocked,
        network: network.log,
        console: said.console,
        dialogs: said.dialogs,
      };
      const gathering = {
        page,
        cdp,
        world,
        context,
        guard: this.guard,
        network,
        limits: this.limits,
        loadedAt,
        referenceImages,
        maskSelectors: plan.maskSelectors ?? [],
        axeTags: plan.axeTags ?? [],
        textReader: this.textReader,
      } satisfies WebPage;
      const artifacts = await this.gather(gathering, schedule, plan, () => page.isClosed() || crashed);
      // Checked again once everything is gathered: a document that replaced the subject meanwhile was (partly) read instead.
      if (away.left) return { ok: false, interruption: navigatedAway(away.left) };
      return { ok: true, artifacts: { finalUrl, ...records, ...artifacts } };
    } catch (e) {
      // A renderer the page crashed (or a page that closed itself) is the page's doing: the job's rows error, refunded.
      if (crashed) return { ok: false, interruption: CRASHED };
      if (page.isClosed())
        return {
          ok: false,
          interruption: `The page closed itself while it was captured: ${firstLine((e as Error).message)}`,
        };
      throw e;
    } finally {
      watchdog.stop();
      network.close();
    }
  }

  /**
   * Opens the subject in the page: a url job's document is fetched through the guard first, following (and
   * checking) its redirects, so the browser then navigates straight to the final URL (relative links resolve as
   * the user sees them); a static_html subject is served as given. Returns the origin the subject is at.
   */
  private async navigate(
    page: Page,
    subject: WebSubject,
    network: PageNetwork,
    crashed: () => boolean,
  ): Promise<{ origin: string } | { interruption: string }> {
    let target = new URL(subject.type === "url" ? subject.url : subject.baseUrl);
    target.hash = "";
    let document: DocumentResponse;
    if (subject.type === "url") {
      const fetched = await timed("document fetch", () =>
        network.fetchDocument(target.href, this.limits.navigationTimeoutMs),
      );
      if ("interruption" in fetched) return fetched;
      document = fetched;
      target = new URL(fetched.finalUrl);
    } else {
      document = { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: subject.html };
    }
    network.serve(subject.type, target.href, document);
    let response: Awaited<ReturnType<Page["goto"]>>;
    try {
      response = await timed("navigation", () =>
        page.goto(target.href, { waitUntil: "load", timeout: this.limits.navigationTimeoutMs }),
      );
    } catch (e) {
      if (crashed()) return { interruption: CRASHED };
      return { interruption: `The page did not load: ${firstLine((e as Error).message)}` };
    }
    if (subject.type === "url" && response && response.status() >= 400) {
      return { interruption: `The page answered HTTP ${response.status()} ${response.statusText()}`.trim() };
    }
    return { origin: target.origin };
  }

  /**
   * The scheduled gatherers, at the size the page loaded at, then through the plan's sizes (touch input at phone
   * size; the layout width stays exactly 375 CSS pixels, no device scaling). A gatherer that fails (the page broke
   * it, or it ran out of something) errors only the checks that read its artifact.
   */
  private async gather(
    page: WebPage,
    schedule: Schedule<(typeof WEB_GATHERERS)[number]>,
    plan: CapturePlan,
    fatal: () => boolean,
  ): Promise<Omit<WebArtifacts, "finalUrl">> {
    const stillMoving: Partial<Record<CaptureSize, number>> = {};
    const { artifacts, failures } = await runGatherers(schedule, page, {
      sizes: SIZE_ORDER.filter((s) => plan.viewports.includes(s)),
      resize: (size) =>
        timed("resize", async () => {
          const v = VIEWPORTS[size];
          await page.page.setViewportSize({ width: v.width, height: v.height });
          if (plan.viewports.includes("mobile-sm"))
            await page.cdp.send("Emulation.setTouchEmulationEnabled", {
              enabled: v.mobile,
              maxTouchPoints: v.mobile ? 5 : 1,
            });
          // The page loaded at desktop-md and was read still there (the settle); a resize starts it moving again.
          if (size !== "desktop-md" && !(await untilStill(page, this.limits.resizeStillCapMs)))
            stillMoving[size] = this.limits.resizeStillCapMs;
        }),
      sizesRead: (kind) => plan.sizesRead?.[kind as ArtifactKind],
      phase: "gather",
      onFailure: "record",
      fatal,
    });
    const gathered: Omit<WebArtifacts, "finalUrl"> = {
      ...artifacts,
      ...(Object.keys(stillMoving).length ? { stillMoving } : {}),
    };
    return Object.keys(failures).length ? { ...gathered, gatherFailures: failures } : gathered;
  }

  /**
   * After load, waits for the network to go quiet: no request in flight, and none started or finished in
   * the last quietMs, capped at settleCapMs. A page that went quiet before load costs nothing; when console
   * errors are read, the page gets at least quietMs after load for late scripts to throw.
   */
  private async settle(net: PageNetwork, loadedAt: number, readsConsole: boolean): Promise<void> {
    const deadline = loadedAt + this.limits.settleCapMs;
    while (performance.now() < deadline) {
      const idle = net.inFlight === 0;
      const since = performance.now() - Math.max(net.lastActivity, readsConsole ? loadedAt : -Infinity);
      if (idle && (since >= this.limits.quietMs || (!readsConsole && net.lastActivity <= loadedAt))) return;
      await Bun.sleep(25);
    }
  }
}

/**
 * Watches the tab once the subject has loaded: `left` becomes the address of the first document in it that is not
 * the subject's, one at another origin or not http(s) at all (Chromium's error page, about:blank, a blob: URL).
 * The page's network (page-network.ts) keeps the subject in place when it can (a refused or failed navigation, any
 * navigation of static_html), but a url job's page may still go to another origin the guard allows, and about: and
 * blob: are never routed: the capture then ends interrupted, since no check may judge that document.
 */
function watchMainFrame(page: Page, origin: string): { left?: string } {
  const away: { left?: string } = {};
  const note = (url: string) => {
    if (away.left === undefined && !atOrigin(url, origin)) away.left = url;
  };
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) note(frame.url());
  });
  note(page.url());
  return away;
}

function atOrigin(url: string, origin: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && u.origin === origin;
  } catch {
    return false;
  }
}

const navigatedAway = (url: string) =>
  `The page navigated away from the subject while it was captured (its tab showed ${url.startsWith("chrome-error:") ? "Chromium's error page" : url}); ` +
  "no check judges a document that is not the subject";

const CRASHED = "The page crashed its renderer (it ran out of memory, or Chromium stopped it) while it was captured";
const BROWSER_GONE =
  "The browser rendering the page went away (Chromium or its worker stopped, or the connection to the worker broke) while it was captured";

const firstLine = (s: string) => s.split("\n")[0]!.replace(/^page\.goto: /, "");
