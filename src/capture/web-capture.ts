import type { BrowserContext, Page, Request, Route, WebSocketRoute } from "playwright-core";
import type { BrowserPool } from "./browser-pool";
import type { NetworkGuard } from "./network-guard";
import { GuardedFetchError, guardedFetch, guardedWebSocket } from "./guarded-fetch";
import type { DomSnapshot, WebArtifacts } from "./artifacts";
import { snapshotDom } from "./gather-dom";
import type { ArtifactKind, CaptureSize } from "../validations/types";

export const VIEWPORTS: Record<CaptureSize, { width: number; height: number; mobile: boolean }> = {
  "mobile-sm": { width: 375, height: 667, mobile: true },
  "tablet-portrait": { width: 768, height: 1024, mobile: false },
  "desktop-md": { width: 1280, height: 800, mobile: false },
};

export interface CaptureLimits {
  navigationTimeoutMs: number;
}

export const DEFAULT_LIMITS: CaptureLimits = { navigationTimeoutMs: 15_000 };

export type WebSubject = { type: "url"; url: string } | { type: "static_html"; html: string; baseUrl: string };

export interface CapturePlan {
  viewports: CaptureSize[];
  needs: Set<ArtifactKind>;
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
    return this.pool.use(async (browser) => {
      const first = plan.viewports[0] ?? "desktop-md";
      const context = await browser.newContext({
        viewport: { width: VIEWPORTS[first].width, height: VIEWPORTS[first].height },
        serviceWorkers: "block",
        acceptDownloads: false,
      });
      try {
        return await this.captureIn(context, subject, plan);
      } finally {
        await context.close().catch(() => {});
      }
    });
  }

  private async captureIn(context: BrowserContext, subject: WebSubject, plan: CapturePlan): Promise<CaptureOutcome> {
    const page = await context.newPage();
    page.on("dialog", (d) => void d.dismiss().catch(() => {}));
    page.on("popup", (p) => void p.close().catch(() => {}));
    const net: CaptureNetwork = { blocked: [], sockets: new Set(), stop: new AbortController() };
    try {
      let target = new URL(subject.type === "url" ? subject.url : subject.baseUrl);
      target.hash = "";
      let document: DocumentResponse;
      if (subject.type === "url") {
        // The document is fetched through the guard first, following (and checking) its redirects, so the
        // browser then navigates straight to the final URL: relative links resolve as the user sees them.
        const fetched = await this.fetchDocument(page, target.href, net.stop.signal);
        if ("interruption" in fetched) return { ok: false, interruption: fetched.interruption };
        document = fetched;
        target = new URL(fetched.finalUrl);
      } else {
        document = { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: subject.html };
      }
      let documentServed = false;
      const claimDocument = () => {
        if (documentServed) return false;
        documentServed = true;
        return true;
      };
      // On the context, not the page, so pop-ups, frames and workers' requests cannot go around it.
      await context.route("**/*", (route) => this.route(route, page, target.href, document, claimDocument, net));
      await context.routeWebSocket(() => true, (ws) => this.routeWebSocket(ws, page, net));
      let response;
      try {
        response = await page.goto(target.href, { waitUntil: "load", timeout: this.limits.navigationTimeoutMs });
      } catch (e) {
        return { ok: false, interruption: `The page did not load: ${firstLine((e as Error).message)}` };
      }
      if (subject.type === "url" && response && response.status() >= 400) {
        return { ok: false, interruption: `The page answered HTTP ${response.status()} ${response.statusText()}`.trim() };
      }
      const dom: Partial<Record<CaptureSize, DomSnapshot>> = {};
      if (plan.needs.has("dom")) {
        for (const size of plan.viewports) {
          const v = VIEWPORTS[size];
          await page.setViewportSize({ width: v.width, height: v.height });
          dom[size] = await page.evaluate(snapshotDom);
        }
      }
      return { ok: true, artifacts: { finalUrl: page.url(), dom, blockedRequests: [...net.blocked] } };
    } finally {
      net.stop.abort();
      for (const socket of net.sockets) socket.close();
    }
  }

  /** A url job's document, through the guard; a refusal or a failure is an interruption with its reason. */
  private async fetchDocument(page: Page, url: string, signal: AbortSignal): Promise<(DocumentResponse & { finalUrl: string }) | { interruption: string }> {
    const userAgent = await page.evaluate(() => navigator.userAgent);
    try {
      const res = await guardedFetch(this.guard, url, {
        headers: {
          "user-agent": userAgent,
          accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
          "accept-language": "en-US,en;q=0.9",
          "upgrade-insecure-requests": "1",
        },
        maxRedirects: REQUEST_LIMITS.maxRedirects,
        maxBytes: REQUEST_LIMITS.maxBytes,
        timeoutMs: this.limits.navigationTimeoutMs,
        signal,
      });
      if (res.refused) {
        const via = res.redirects.length ? ` (reached by a redirect from ${res.redirects[0]!.url})` : "";
        return { interruption: `The network guard refused ${res.url}${via}: ${res.detail}.` };
      }
      return { status: res.status, headers: fulfilHeaders(res.status, res.headers), body: asBuffer(res.body), finalUrl: res.finalUrl };
    } catch (e) {
      return { interruption: `The page did not load: ${(e as Error).message}` };
    }
  }

  /**
   * Every http(s) request the browser makes lands here. The subject's document is served from what the
   * engine already holds; anything else is fetched by guardedFetch (checked, pinned to the checked address,
   * redirects followed and re-checked) and handed to the browser with route.fulfill, so Chromium itself
   * never connects anywhere. A refused request is aborted and recorded.
   *
   * Redirects are followed here, never passed to the browser: Chromium follows a fulfilled 3xx without
   * routing the next hop (tried with playwright-core 1.65 and Chromium 156), which would go around the guard.
   * The cost: a redirected subresource or frame keeps the URL it was asked for (a frame's relative links
   * resolve against it). The main document of a url job does not: fetchDocument resolves its redirects first.
   */
  private async route(
    route: Route,
    page: Page,
    documentUrl: string,
    document: DocumentResponse,
    claimDocument: () => boolean,
    net: CaptureNetwork,
  ) {
    const request = route.request();
    try {
      if (request.isNavigationRequest() && request.url() === documentUrl && inMainFrame(request, page) && claimDocument()) {
        return await route.fulfill({ status: document.status, headers: document.headers, body: document.body }).catch(() => {});
      }
      const res = await guardedFetch(this.guard, request.url(), {
        method: request.method(),
        headers: await request.allHeaders(),
        body: request.postDataBuffer(),
        maxRedirects: REQUEST_LIMITS.maxRedirects,
        maxBytes: REQUEST_LIMITS.maxBytes,
        timeoutMs: REQUEST_LIMITS.timeoutMs,
        signal: net.stop.signal,
      });
      if (res.refused) {
        net.blocked.push({ url: res.url, reason: res.reason, detail: res.detail, ...(res.url !== request.url() ? { requestedUrl: request.url() } : {}) });
        return await route.abort("blockedbyclient").catch(() => {});
      }
      return await route.fulfill({ status: res.status, headers: fulfilHeaders(res.status, res.headers), body: asBuffer(res.body) }).catch(() => {});
    } catch (e) {
      const kind = e instanceof GuardedFetchError ? e.kind : "network";
      return route.abort(kind === "timeout" ? "timedout" : "failed").catch(() => {});
    }
  }

  /**
   * WebSockets never leave from the browser: Playwright mocks the page's socket and this bridges it to one
   * opened server-side by guardedWebSocket (checked and pinned), or closes it (1008) and records it if refused.
   * Sockets opened by workers are not routed by Playwright; they hit the browser's closed network (see CHROMIUM_ARGS).
   */
  private async routeWebSocket(ws: WebSocketRoute, page: Page, net: CaptureNetwork) {
    const pending: Array<string | Buffer> = [];
    let upstream: WebSocket | null = null;
    let closed = false;
    const forward = (m: string | Buffer) => upstream!.send(typeof m === "string" ? m : (new Uint8Array(m) as Uint8Array<ArrayBuffer>));
    ws.onMessage((m) => (upstream?.readyState === WebSocket.OPEN ? forward(m) : pending.push(m)));
    ws.onClose((code, reason) => {
      closed = true;
      upstream?.close(code === 1000 || (code !== undefined && code >= 3000 && code <= 4999) ? code : 1000, reason);
    });
    let origin: string | undefined;
    try {
      origin = new URL(page.url()).origin;
    } catch {}
    const opened = await guardedWebSocket(this.guard, ws.url(), {
      protocols: ws.protocols(),
      headers: origin && origin !== "null" ? { origin } : {},
    }).catch((e: Error) => ({ refused: true as const, reason: "invalid-url", detail: e.message, url: ws.url() }));
    if (opened.refused) {
      net.blocked.push({ url: opened.url, reason: opened.reason, detail: opened.detail });
      return ws.close({ code: 1008, reason: "refused by the network guard" }).catch(() => {});
    }
    upstream = opened.socket;
    if (closed || net.stop.signal.aborted) return upstream.close();
    net.sockets.add(upstream);
    upstream.onopen = () => {
      for (const m of pending.splice(0)) forward(m);
    };
    upstream.onmessage = (e) => ws.send(typeof e.data === "string" ? e.data : Buffer.from(e.data as ArrayBuffer));
    upstream.onclose = (e) => {
      net.sockets.delete(upstream!);
      if (!closed) void ws.close({ code: e.code === 1000 || (e.code >= 3000 && e.code <= 4999) ? e.code : 1011, reason: e.reason }).catch(() => {});
    };
  }
}

interface DocumentResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  finalUrl?: string;
}

interface CaptureNetwork {
  blocked: NonNullable<WebArtifacts["blockedRequests"]>;
  sockets: Set<WebSocket>;
  /** Aborted when the capture ends: in-flight fetches stop and bridged sockets close. */
  stop: AbortController;
}

/** A pop-up's first navigation has no frame yet (Playwright throws): it is not the main frame's. */
function inMainFrame(request: Request, page: Page): boolean {
  try {
    return request.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

/** Playwright's fulfil wants a Buffer; this one shares the body's memory. */
const asBuffer = (body: Uint8Array) => Buffer.from(body.buffer, body.byteOffset, body.byteLength);

/** Per request the page makes: time, bytes and redirects. */
const REQUEST_LIMITS = { timeoutMs: 15_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 };

/**
 * Response headers as the browser gets them: the body length is recomputed, and a Location on a 3xx (one
 * guardedFetch did not follow) is dropped, because Chromium would follow it without routing the next hop.
 */
function fulfilHeaders(status: number, headers: Record<string, string>): Record<string, string> {
  const out = { ...headers };
  delete out["content-length"];
  if (status >= 300 && status < 400) delete out.location;
  return out;
}

const firstLine = (s: string) => s.split("\n")[0]!.replace(/^page\.goto: /, "");
