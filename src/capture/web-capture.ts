import type { BrowserContext, Page } from "playwright-core";
import type { BrowserPool } from "./browser-pool";
import type { NetworkGuard } from "./network-guard";
import type { ConsoleEntry, DialogEntry, ImagesSnapshot, LabVitals, LayoutSnapshot, Screenshot, WebArtifacts } from "./artifacts";
import { DOM_HELPERS, snapshotDom } from "./page-functions/dom";
import { LAYOUT_HELPERS, snapshotLayout } from "./page-functions/layout";
import { IMAGES_HELPERS, snapshotImages } from "./page-functions/images";
import { helpersScript, PAGE_HELPERS_KEY } from "./page-helpers";
import { gatherImageEvidence } from "./image-evidence";
import { PageNetwork, type DocumentResponse } from "./page-network";
import { runAxe } from "./axe";
import { IsolatedWorld } from "./isolated-world";
import { SCRIPT_STALL_MS, ScriptWatchdog } from "./script-watchdog";
import { readLabVitals, type VitalsReading } from "./lab-vitals";
import { VIEWPORTS, type ArtifactKind, type CaptureSize } from "./vocabulary";
import { timed } from "../phases";

export interface CaptureLimits {
  navigationTimeoutMs: number;
  /** The whole capture: load, settle, every size, screenshots. Past it the job is interrupted. */
  totalTimeoutMs: number;
  /** After load, wait for this long without a request in flight (for late errors and requests)… */
  quietMs: number;
  /** …but never longer than this. */
  settleCapMs: number;
  /** Full-page screenshots stop at this height (CSS pixels); the finding says when a page was cut. */
  screenshotMaxHeight: number;
  /**
   * Lab vitals are final once nothing has happened for this long: no request in flight, none started or
   * finished, and no new largest-contentful-paint candidate…
   */
  vitalsQuietMs: number;
  /** …or, at the latest, this long after load: the vitals are then reported as not final. */
  vitalsCapMs: number;
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
};

/** Pages load at desktop size (the size the DOM checks are defined at), then resize through the rest. */
const SIZE_ORDER: CaptureSize[] = ["desktop-md", "tablet-portrait", "mobile-sm"];

export type WebSubject = { type: "url"; url: string } | { type: "static_html"; html: string; baseUrl: string };

export interface CapturePlan {
  viewports: CaptureSize[];
  needs: Set<ArtifactKind>;
  /** Image URLs named by the checks' parameters (ParameterSpec.referenceImage), measured to compare the page's images against. */
  referenceImages?: string[];
}

export type CaptureOutcome = { ok: true; artifacts: WebArtifacts } | { ok: false; interruption: string };

/** Renders a web subject in a fresh browser context and gathers, once, what the selected checks read. */
export class WebCaptureEngine {
  constructor(
    private readonly pool: BrowserPool,
    private readonly guard: NetworkGuard,
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
          () => resolve({ ok: false, interruption: `The capture exceeded the total time limit of ${this.limits.totalTimeoutMs / 1000} s` }),
          this.limits.totalTimeoutMs,
        );
      });
      // A browser worker killed or cut off mid-capture: nothing sent to it will be answered, so the capture ends here
      // (every check an error row, refunded) instead of waiting on a request the page no longer makes.
      let goneAway!: () => void;
      const gone = new Promise<CaptureOutcome>((resolve) => (goneAway = () => resolve({ ok: false, interruption: BROWSER_GONE })));
      browser.on("disconnected", goneAway);
      try {
        const page = await timed("page", () => context.newPage());
        // After a crash, a CDP command sent to the page's renderer is never answered: the capture ends here.
        const crash = new Promise<CaptureOutcome>((resolve) => page.once("crash", () => resolve({ ok: false, interruption: CRASHED })));
        return await Promise.race([this.captureIn(context, page, subject, plan), overtime, crash, gone]);
      } finally {
        browser.off("disconnected", goneAway);
        clearTimeout(timer);
        finishLater(timed("context close", () => context.close().catch(() => {})));
      }
    });
  }

  private async captureIn(context: BrowserContext, page: Page, subject: WebSubject, plan: CapturePlan): Promise<CaptureOutcome> {
    const dialogs = answerDialogs(page);
    let crashed = false;
    page.on("crash", () => (crashed = true));
    page.on("popup", (p) => void p.close().catch(() => {}));
    const net = new PageNetwork(this.guard, page);
    if (plan.needs.has("images") && plan.referenceImages?.length) net.keepImageBodies();
    const consoleEntries: ConsoleEntry[] = [];
    page.on("console", (m) => {
      if (m.type() !== "error") return;
      // Chromium's own refusal of a beforeunload prompt (no user gesture yet) is a dialog the page asked for, not an error of the page's.
      if (BLOCKED_BEFOREUNLOAD.test(m.text())) {
        if (dialogs.length < DIALOG_CAP) dialogs.push({ type: "beforeunload", message: "(not shown: Chromium blocks it before any user gesture)", answer: null });
        return;
      }
      consoleEntries.push({ kind: "console.error", text: m.text(), ...(m.location().url ? { url: m.location().url } : {}) });
    });
    page.on("pageerror", (e) => consoleEntries.push({ kind: "uncaught", text: `${e.name}: ${e.message}` }));
    const [cdp] = await timed("page set-up", () =>
      Promise.all([
        context.newCDPSession(page),
        page.addInitScript(capDialogs, { cap: DIALOG_CAP, promptAnswer: PROMPT_ANSWER }),
        net.route(context),
      ]),
    );
    const stalled = `The page's main thread did not answer for more than ${this.limits.scriptStallMs / 1000} s while it loaded (an endless loop?); Assay stopped the script running on it`;
    const watchdog = new ScriptWatchdog(cdp, this.limits.scriptStallMs, () => consoleEntries.push({ kind: "uncaught", text: stalled }));
    try {
      let target = new URL(subject.type === "url" ? subject.url : subject.baseUrl);
      target.hash = "";
      let document: DocumentResponse;
      if (subject.type === "url") {
        // The document is fetched through the guard first, following (and checking) its redirects, so the
        // browser then navigates straight to the final URL: relative links resolve as the user sees them.
        const fetched = await timed("document fetch", () => net.fetchDocument(target.href, this.limits.navigationTimeoutMs));
        if ("interruption" in fetched) return { ok: false, interruption: fetched.interruption };
        document = fetched;
        target = new URL(fetched.finalUrl);
      } else {
        document = { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: subject.html };
      }
      net.serve(subject.type, target.href, document);
      let response;
      try {
        response = await timed("navigation", () => page.goto(target.href, { waitUntil: "load", timeout: this.limits.navigationTimeoutMs }));
      } catch (e) {
        if (crashed) return { ok: false, interruption: CRASHED };
        return { ok: false, interruption: `The page did not load: ${firstLine((e as Error).message)}` };
      }
      if (subject.type === "url" && response && response.status() >= 400) {
        return { ok: false, interruption: `The page answered HTTP ${response.status()} ${response.statusText()}`.trim() };
      }
      const loadedAt = performance.now();
      const away = watchMainFrame(page, target.origin);
      await timed("settle", async () => {
        await this.settle(net, loadedAt, plan.needs.has("console"));
        await watchdog.finish();
      });
      if (away.left) return { ok: false, interruption: navigatedAway(away.left) };
      const world = await timed("page helpers", async () => {
        const opened = await IsolatedWorld.open(page, cdp);
        await opened.run(() => globalThis.document.fonts.ready.then(() => undefined));
        await opened.load(helpersScript([DOM_HELPERS, LAYOUT_HELPERS, IMAGES_HELPERS]));
        return opened;
      });
      const artifacts: WebArtifacts = { finalUrl: page.url(), dom: {}, blockedRequests: net.blocked, network: net.log, console: consoleEntries, dialogs };
      // A gatherer that fails (the page broke it, or it ran out of something) errors only the checks that read its artifact.
      const failures: Partial<Record<ArtifactKind, string>> = {};
      const gather = async <T>(kinds: ArtifactKind | ArtifactKind[], read: () => Promise<T>): Promise<T | undefined> => {
        try {
          return await timed(`gather ${[kinds].flat().join("+")}`, read);
        } catch (e) {
          if (page.isClosed() || crashed) throw e;
          for (const kind of [kinds].flat()) failures[kind] ??= firstLine((e as Error).message);
          return undefined;
        }
      };
      if (plan.needs.has("vitals")) artifacts.vitals = await gather("vitals", () => this.measureVitals(world, net, loadedAt));
      if (plan.needs.has("axe")) artifacts.axe = await gather("axe", () => runAxe(world));
      const layout: Partial<Record<CaptureSize, LayoutSnapshot>> = {};
      const screenshots: Partial<Record<CaptureSize, Screenshot>> = {};
      const images: Partial<Record<CaptureSize, ImagesSnapshot>> = {};
      const keep = <T>(into: Partial<Record<CaptureSize, T>>, size: CaptureSize, value: T | undefined) => {
        if (value !== undefined) into[size] = value;
      };
      for (const size of SIZE_ORDER.filter((s) => plan.viewports.includes(s))) {
        const v = VIEWPORTS[size];
        await timed("resize", async () => {
          await page.setViewportSize({ width: v.width, height: v.height });
          // Touch input at phone size; the layout width stays exactly 375 CSS pixels (no device scaling).
          if (plan.viewports.includes("mobile-sm")) await cdp.send("Emulation.setTouchEmulationEnabled", { enabled: v.mobile, maxTouchPoints: v.mobile ? 5 : 1 });
        });
        if (plan.needs.has("dom")) keep(artifacts.dom, size, await gather("dom", () => world.run(snapshotDom, PAGE_HELPERS_KEY)));
        if (plan.needs.has("layout")) keep(layout, size, await gather("layout", () => world.run(snapshotLayout, PAGE_HELPERS_KEY)));
        if (plan.needs.has("images")) keep(images, size, await gather("images", () => world.run(snapshotImages, PAGE_HELPERS_KEY)));
        if (plan.needs.has("screenshot")) keep(screenshots, size, await gather("screenshot", () => this.screenshot(page, world, size)));
      }
      if (plan.needs.has("layout")) artifacts.layout = layout;
      if (plan.needs.has("screenshot")) artifacts.screenshots = screenshots;
      if (plan.needs.has("images")) artifacts.images = images;
      if (plan.needs.has("images") || plan.needs.has("palette")) {
        // Decoding (reference images, image hashes, the capture's colours) happens in a blank page of this context.
        const evidence = await gather((["images", "palette"] as const).filter((k) => plan.needs.has(k)), () =>
          gatherImageEvidence({
            context,
            guard: this.guard,
            signal: net.signal,
            referenceImages: plan.needs.has("images") ? (plan.referenceImages ?? []) : [],
            images,
            screenshots,
            kept: net.keptImages,
            palette: plan.needs.has("palette"),
          }),
        );
        Object.assign(artifacts, evidence);
      }
      if (Object.keys(failures).length) artifacts.gatherFailures = failures;
      // Checked again once everything is gathered: a document that replaced the subject meanwhile was (partly) read instead.
      if (away.left) return { ok: false, interruption: navigatedAway(away.left) };
      return { ok: true, artifacts };
    } catch (e) {
      // A renderer the page crashed (or a page that closed itself) is the page's doing: the job's rows error, refunded.
      if (crashed) return { ok: false, interruption: CRASHED };
      if (page.isClosed()) return { ok: false, interruption: `The page closed itself while it was captured: ${firstLine((e as Error).message)}` };
      throw e;
    } finally {
      watchdog.stop();
      net.close();
    }
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

  /**
   * Reads the lab vitals until they are final: the network and the largest paint both quiet for vitalsQuietMs
   * (a hero image behind a slow request paints late, and LCP moves with it), or vitalsCapMs after load, when
   * they are marked not final. No input is given, so nothing else ends LCP early.
   */
  private async measureVitals(world: IsolatedWorld, net: PageNetwork, loadedAt: number): Promise<LabVitals> {
    const { vitalsQuietMs: quiet, vitalsCapMs: cap } = this.limits;
    let reading: VitalsReading = await world.run(readLabVitals);
    let paintedAt = performance.now();
    for (;;) {
      const now = performance.now();
      const done = net.inFlight === 0 && now - net.lastActivity >= quiet && now - paintedAt >= quiet;
      if (done || now - loadedAt >= cap) return { ...reading, final: done, waitedMs: Math.round(now - loadedAt), capMs: cap };
      await Bun.sleep(100);
      const next = await world.run(readLabVitals);
      if (next.lcpMs !== reading.lcpMs) paintedAt = performance.now();
      reading = next;
    }
  }

  /** A full-page JPEG (faster than PNG at the same use), cut at screenshotMaxHeight. */
  private async screenshot(page: Page, world: IsolatedWorld, size: CaptureSize): Promise<Screenshot> {
    const { width, height } = await world.run(() => ({
      width: document.documentElement.clientWidth,
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    const cut = height > this.limits.screenshotMaxHeight;
    const clipHeight = Math.min(height, this.limits.screenshotMaxHeight);
    const data = await page.screenshot({ type: "jpeg", quality: 80, fullPage: true, clip: { x: 0, y: 0, width, height: clipHeight } });
    return { viewport: size, contentType: "image/jpeg", width, height: clipHeight, pageHeight: height, cut, data };
  }
}

/**
 * Watches the tab once the subject has loaded: `left` becomes the address of the first document in it that is not
 * the subject's, one at another origin or not http(s) at all (Chromium's error page, about:blank, a blob: URL).
 * route keeps the subject in place when it can (a refused or failed navigation, any navigation of static_html), but
 * a url job's page may still go to another origin the guard allows, and about: and blob: are never routed: the
 * capture then ends interrupted, since no check may judge that document.
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
const BROWSER_GONE = "The browser rendering the page went away (Chromium or its worker stopped, or the connection to the worker broke) while it was captured";

/** Dialogs a page may open before the rest are answered in the page without being shown (a dialog storm ends). */
const DIALOG_CAP = 20;
/** Chromium's console message when it refuses to show a page's beforeunload prompt. */
const BLOCKED_BEFOREUNLOAD = /^Blocked attempt to show a 'beforeunload' confirmation panel/;
/** What a prompt() is answered: non-empty, so a page that asks until it gets a name stops asking. */
const PROMPT_ANSWER = "Assay";

/**
 * Every dialog is answered and recorded: alert and confirm dismissed, prompt accepted with PROMPT_ANSWER,
 * beforeunload dismissed (the page stays).
 */
function answerDialogs(page: Page): DialogEntry[] {
  const dialogs: DialogEntry[] = [];
  page.on("dialog", (d) => {
    const type = d.type() as DialogEntry["type"];
    const answer = type === "prompt" ? PROMPT_ANSWER : null;
    if (dialogs.length < DIALOG_CAP) dialogs.push({ type, message: d.message(), answer });
    void (answer === null ? d.dismiss() : d.accept(answer)).catch(() => {});
  });
  return dialogs;
}

/**
 * Runs in every frame before the page's scripts: past the cap, alert, confirm and prompt answer at once
 * (undefined, false, PROMPT_ANSWER) without opening a dialog. Self-contained: Playwright serialises it.
 */
function capDialogs({ cap, promptAnswer }: { cap: number; promptAnswer: string }): void {
  let opened = 0;
  const answers: Record<string, unknown> = { alert: undefined, confirm: false, prompt: promptAnswer };
  for (const name of Object.keys(answers)) {
    const native = (window as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    Object.defineProperty(window, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        opened++;
        return opened <= cap ? native.apply(this, args) : answers[name];
      },
    });
  }
}

const firstLine = (s: string) => s.split("\n")[0]!.replace(/^page\.goto: /, "");
