import { existsSync } from "node:fs";
import type { LayoutSnapshot, Screenshot } from "../artifact-shapes";
import type { BrowserPool } from "../browser-pool";
import type { NetworkGuard } from "../network-guard";
import { helpersScript, PAGE_HELPERS_KEY } from "../page-helpers";
import { LAYOUT_HELPERS, snapshotLayout } from "../page-functions/layout";
import { jpegOfPng } from "../screenshot-codec";
import { VIEWPORTS, type CaptureSize } from "../vocabulary";
import type { WebSubject } from "../web-capture";
import type { ProxiedRequest } from "./guarded-proxy";
import { EnginePool } from "./engine-pool";
import { FIREFOX_ESR, GeckoEngine } from "./gecko";
import { MINIBROWSER, WebKitEngine, type WebKitPageCapture } from "./webkit";

/** What a page rendered in an engine other than Chromium gives the checks at one size: its geometry and screenshot. */
export interface EngineShot {
  layout: LayoutSnapshot;
  screenshot: Screenshot;
}

export type EngineCapture =
  | {
      ok: true;
      shots: Partial<Record<CaptureSize, EngineShot>>;
      /** Every request the page made in that engine, as the guarded proxy decided it. */
      requests: ProxiedRequest[];
      browserVersion: string;
    }
  | { ok: false; error: string };

/** A mail render fetches nothing: every request of its page is refused. */
const REFUSE_ALL = {
  check: async () => ({ allowed: false, reason: "mail-render", detail: "a mail client's render fetches nothing" }),
} as unknown as NetworkGuard;

/** The programs WebKit renders need (Debian's webkit2gtk-driver, its MiniBrowser, xvfb). */
const WEBKIT_PROGRAMS = ["WebKitWebDriver", "Xvfb"];

/** The layout page function (the "layout" gatherer's), as a WebDriver execute/sync body: helpers, then the reading. */
const LAYOUT_SCRIPT = `${helpersScript([LAYOUT_HELPERS])};\nreturn (${snapshotLayout.toString()})(${JSON.stringify(PAGE_HELPERS_KEY)});`;

/**
 * Webpages rendered in WebKit for the checks that are judged in it: the page loaded once through the guarded proxy,
 * then at each size its geometry read by the same page function as Chromium's "layout" gatherer and its viewport
 * screenshot taken. A pool of WebKitEngines (ASSAY_WEBKIT_SESSIONS render at once), each started on first use and
 * kept warm (engine-pool.ts); a webpage render takes a turn of the browser pool's admission, so Chromium pages and WebKit
 * renders share one budget, and a mail render runs inside its render lane's turn.
 */
export class EngineCaptures {
  private readonly webkit: EnginePool<WebKitEngine>;
  private gecko: Promise<GeckoEngine> | null = null;

  constructor(
    private readonly pool: Pick<BrowserPool, "admit">,
    private readonly guard: NetworkGuard,
    /** ASSAY_WEBKIT_OFF: WebKit is not offered here, installed or not. */
    private readonly webkitOff = false,
    /** ASSAY_WEBKIT_SESSIONS: WebKit renders side by side. */
    webkitSessions = 2,
    /** ASSAY_GECKO_OFF (Gecko not offered here) and ASSAY_FIREFOX_PATH (the firefox-esr binary). */
    private readonly geckoSetting: { off?: boolean; firefoxPath?: string } = {},
  ) {
    // Twice as many kept as render at once: a light and a dark warm session for each (a mail render needs one or the other).
    this.webkit = new EnginePool(() => WebKitEngine.start(), webkitSessions, 2 * webkitSessions);
  }

  /** Why this server cannot render in WebKit: the programs it lacks, or the operator's setting (empty: it can). */
  webkitMissing(): string[] {
    if (this.webkitOff) return ["ASSAY_WEBKIT_OFF is set"];
    const missing = WEBKIT_PROGRAMS.filter((p) => !Bun.which(p));
    return existsSync(MINIBROWSER) ? missing : [...missing, MINIBROWSER];
  }

  /** The page at each size in WebKit; a failure is an outcome (the checks judged in WebKit lose that part), never a throw. */
  captureWebKit(subject: WebSubject, sizes: CaptureSize[], lane?: string): Promise<EngineCapture> {
    return this.captureIn(
      () =>
        this.webkit.use((engine) => engine.capture(targetOf(subject), viewportsOf(sizes), this.guard, LAYOUT_SCRIPT)),
      sizes,
      lane,
    );
  }

  /** The page at each size in Gecko, as captureWebKit in WebKit (renders side by side, each a turn of the pool). */
  captureGecko(subject: WebSubject, sizes: CaptureSize[], lane?: string): Promise<EngineCapture> {
    return this.captureIn(
      () => this.inGecko((engine) => engine.capture(targetOf(subject), viewportsOf(sizes), this.guard, LAYOUT_SCRIPT)),
      sizes,
      lane,
    );
  }

  /** A page capture in an engine within a turn of the pool, as the checks read it; a failure is an outcome. */
  private async captureIn(
    captured: () => Promise<WebKitPageCapture>,
    sizes: CaptureSize[],
    lane?: string,
  ): Promise<EngineCapture> {
    try {
      return await this.pool.admit(async () => {
        const page = await captured();
        return {
          ok: true as const,
          shots: await engineShots(sizes, page),
          requests: page.requests,
          browserVersion: page.browserVersion,
        };
      }, lane);
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }

  /**
   * A mail client's render (its final document: the profile's sanitizer, the client's CSS and dark-mode decision
   * applied in Chromium) laid out again in WebKit at the client's viewport, JavaScript off, nothing fetched, dark
   * when the client shows it dark (MiniBrowser's --dark-mode), on the client's canvas; its geometry and a full-page
   * screenshot. Called inside a render lane's turn of the pool, so it takes none of its own. A sealed render: on a
   * warm session, preferably one already started with these arguments.
   */
  async renderEmail(
    document: string,
    viewport: { width: number; height: number },
    look: { dark: boolean; canvas: string; maxHeight: number },
  ): Promise<{ layout: LayoutSnapshot; png: Uint8Array; width: number; height: number }> {
    const args = look.dark ? ["--dark-mode"] : [];
    const page = await this.webkit.use(
      (engine) =>
        engine.renderSealed(document, viewport, LAYOUT_SCRIPT, {
          browserArgs: args,
          canvas: look.canvas,
          fullPageUpTo: look.maxHeight,
        }),
      (engine) => engine.warmFor(args),
    );
    const { reading, png, width, height } = page.shots[0]!;
    return { layout: reading as LayoutSnapshot, png, width, height };
  }

  /** Why this server cannot render in Gecko: the binary it lacks, or the operator's setting (empty: it can). */
  geckoMissing(): string[] {
    if (this.geckoSetting.off) return ["ASSAY_GECKO_OFF is set"];
    const path = this.geckoSetting.firefoxPath ?? FIREFOX_ESR;
    return Bun.which(path) ? [] : [path];
  }

  /**
   * A mail client's render (its final document) laid out again in Gecko, as renderEmail does in WebKit: the page's
   * scripts off (a CSP on the document), nothing fetched, a full-page screenshot. Light only: Gecko's renders have no
   * dark-mode switch here (Thunderbird, the one client rendered in it, shows mail as sent).
   */
  async renderEmailInGecko(
    document: string,
    viewport: { width: number; height: number },
    look: { dark: boolean; maxHeight: number },
  ): Promise<{ layout: LayoutSnapshot; png: Uint8Array; width: number; height: number }> {
    if (look.dark) throw new Error("Gecko renders here are light only");
    const page = await this.inGecko((engine) =>
      engine.capture({ html: document }, [viewport], REFUSE_ALL, LAYOUT_SCRIPT, {
        scriptsOff: true,
        fullPageUpTo: look.maxHeight,
      }),
    );
    const { reading, png, width, height } = page.shots[0]!;
    return { layout: reading as LayoutSnapshot, png, width, height };
  }

  /** A render in Gecko; one that failed because the browser died (a crash) is done again in a new browser, once. */
  private async inGecko<T>(render: (engine: GeckoEngine) => Promise<T>): Promise<T> {
    const engine = await this.startedGecko();
    try {
      return await render(engine);
    } catch (e) {
      if (engine.alive) throw e;
      return render(await this.startedGecko());
    }
  }

  /** The Gecko engine, started once and replaced when its browser has gone; a failed start is tried again next time. */
  private async startedGecko(): Promise<GeckoEngine> {
    const current = this.gecko;
    const engine = await current?.catch(() => null);
    if (engine?.alive) return engine;
    // The first render to find it dead (or none) starts the next; renders that found the same one wait for that.
    if (this.gecko === current) {
      if (engine) void engine.close();
      const starting = GeckoEngine.start(this.geckoSetting.firefoxPath);
      this.gecko = starting;
      starting.catch(() => {
        if (this.gecko === starting) this.gecko = null;
      });
    }
    return this.gecko ?? this.startedGecko();
  }

  async close(): Promise<void> {
    await this.webkit.close();
    const gecko = this.gecko;
    this.gecko = null;
    await (await gecko?.catch(() => null))?.close();
  }
}

/** A webpage subject as an engine driven through the guarded proxy loads it. */
function targetOf(subject: WebSubject) {
  return subject.type === "url" ? { url: subject.url } : { html: withBase(subject.html, subject.baseUrl) };
}

const viewportsOf = (sizes: CaptureSize[]) =>
  sizes.map((size) => ({ width: VIEWPORTS[size].width, height: VIEWPORTS[size].height }));

/** An engine's page capture as the checks read it: at each size, its geometry and its viewport screenshot (JPEG). */
async function engineShots(
  sizes: CaptureSize[],
  page: WebKitPageCapture,
): Promise<Partial<Record<CaptureSize, EngineShot>>> {
  const shots: Partial<Record<CaptureSize, EngineShot>> = {};
  for (const [i, size] of sizes.entries()) {
    const { png, width, height, reading } = page.shots[i]!;
    const layout = reading as LayoutSnapshot;
    shots[size] = {
      layout,
      screenshot: {
        viewport: size,
        contentType: "image/jpeg",
        width,
        height,
        pageHeight: Math.max(height, layout.documentHeight),
        cut: layout.documentHeight > height,
        data: await jpegOfPng(png),
      },
    };
  }
  return shots;
}

/**
 * A static_html subject as WebKit loads it: the proxy serves it at a name of its own (an https base URL cannot be
 * answered inside a CONNECT tunnel), so a <base> element makes its relative links resolve against the base URL.
 */
function withBase(html: string, baseUrl: string): string {
  if (/<base\s[^>]*href/i.test(html)) return html;
  const base = `<base href="${baseUrl.replaceAll("&", "&amp;").replaceAll('"', "&quot;")}">`;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  return doctype ? doctype[0] + base + html.slice(doctype[0].length) : base + html;
}
