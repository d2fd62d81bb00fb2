import type { BrowserContext, Page, Request, Route, WebSocketRoute } from "playwright-core";
import type { NetworkGuard } from "./network-guard";
import { GuardedFetchError, guardedFetch } from "./guarded-fetch";
import { guardedWebSocket } from "./guarded-websocket";
import type { BlockedRequest, NetworkEntry } from "./artifact-shapes";
import { keepImageBody, type ImageBodies } from "./image-evidence";

/** The subject's document as the engine holds it: fetched through the guard (a url job) or given (static_html). */
export interface DocumentResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
  finalUrl?: string;
}

/**
 * A capture's network: every request and WebSocket of its browser context goes through the network guard here,
 * and is recorded (the network log, the refused requests); the subject's document is served from what the engine
 * holds; the page's own navigations of its tab are answered so that the subject stays in it. The capture reads
 * whether the network is quiet (inFlight, lastActivity) to know when the page has settled.
 */
export class PageNetwork {
  /** Every request the page made, as the guard answered it. */
  readonly log: NetworkEntry[] = [];
  /** Requests the guard refused (subresources, frames, WebSockets, redirect hops), in order. */
  readonly blocked: BlockedRequest[] = [];
  inFlight = 0;
  lastActivity = performance.now();
  /** The subject's document, served from what the engine holds to the main frame's first navigation to its URL. */
  private subject?: { type: "url" | "static_html"; url: string; document: DocumentResponse; served: boolean };
  /** Main-frame navigations the page started itself (reloads, location changes) after its document. */
  private navigations = 0;
  private readonly sockets = new Set<WebSocket>();
  /** Aborted when the capture ends: in-flight fetches stop and bridged sockets close. */
  private readonly stop = new AbortController();
  /** Image responses kept for decoding, when a check compares the page's images against a reference. */
  private images?: ImageBodies;

  constructor(
    private readonly guard: NetworkGuard,
    private readonly page: Page,
  ) {}

  /** Routes the context's requests and WebSockets here; on the context, not the page, so pop-ups, frames and workers' requests cannot go around it. */
  route(context: BrowserContext): Promise<unknown> {
    return Promise.all([
      context.route("**/*", (route) => this.answer(route)),
      context.routeWebSocket(
        () => true,
        (ws) => this.bridge(ws),
      ),
    ]);
  }

  /** From now on, image responses are kept (up to limits) so that their pictures can be decoded again. */
  keepImageBodies(): void {
    this.images ??= { bodies: new Map(), bytes: 0 };
  }

  /** The image responses kept (none unless keepImageBodies was called). */
  get keptImages(): ImageBodies {
    return this.images ?? { bodies: new Map(), bytes: 0 };
  }

  /** Aborted when the capture ends. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** The document the main frame's next navigation to `url` is answered with (once). */
  serve(type: "url" | "static_html", url: string, document: DocumentResponse): void {
    this.subject = { type, url, document, served: false };
  }

  /** Stops every request in flight and closes the bridged sockets. */
  close(): void {
    this.stop.abort();
    for (const socket of this.sockets) socket.close();
  }

  /** A url job's document, through the guard; a refusal or a failure is an interruption with its reason. */
  async fetchDocument(
    url: string,
    timeoutMs: number,
  ): Promise<(DocumentResponse & { finalUrl: string }) | { interruption: string }> {
    const userAgent = await this.page.evaluate(() => navigator.userAgent);
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
        timeoutMs,
        signal: this.stop.signal,
      });
      if (res.refused) {
        const via = res.redirects.length ? ` (reached by a redirect from ${res.redirects[0]!.url})` : "";
        return { interruption: `The network guard refused ${res.url}${via}: ${res.detail}.` };
      }
      if (/^\s*attachment/i.test(res.headers["content-disposition"] ?? "")) {
        return {
          interruption: `${res.finalUrl} answers with a download (Content-Disposition: attachment), not a page to capture`,
        };
      }
      return {
        status: res.status,
        headers: fulfilHeaders(res.status, res.headers),
        body: asBuffer(res.body),
        finalUrl: res.finalUrl,
      };
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
  private async answer(route: Route) {
    const request = route.request();
    this.inFlight++;
    this.lastActivity = performance.now();
    const entry: NetworkEntry = { url: request.url(), resourceType: request.resourceType(), status: 0, bytes: 0 };
    this.log.push(entry);
    const subject = this.subject;
    // The page's own navigation of its tab, once the subject is in it. Whenever one is not followed it is answered
    // 204 No Content, the answer that leaves the current document in place: an aborted navigation would put
    // Chromium's error page (chrome-error://chromewebdata/) in the tab, and the checks would judge that.
    const leaving = !!subject?.served && request.isNavigationRequest() && inMainFrame(request, this.page);
    const stay = (failure: string) => {
      entry.failure = failure;
      return route.fulfill({ status: 204 }).catch(() => {});
    };
    try {
      if (
        subject &&
        !subject.served &&
        request.isNavigationRequest() &&
        request.url() === subject.url &&
        inMainFrame(request, this.page)
      ) {
        subject.served = true;
        const { document } = subject;
        entry.status = document.status;
        entry.bytes = Buffer.byteLength(document.body);
        entry.document = true;
        return await route
          .fulfill({ status: document.status, headers: document.headers, body: document.body })
          .catch(() => {});
      }
      if (leaving && subject!.type === "static_html") {
        entry.status = 204;
        return await stay(
          "not followed: a static_html subject is the HTML given, and any other document in its tab would not be",
        );
      }
      if (leaving && ++this.navigations > MAX_SELF_NAVIGATIONS) {
        entry.status = 204;
        return await stay(`not followed: the page had already navigated itself ${MAX_SELF_NAVIGATIONS} times`);
      }
      const res = await guardedFetch(this.guard, request.url(), {
        method: request.method(),
        headers: await request.allHeaders(),
        body: request.postDataBuffer(),
        maxRedirects: REQUEST_LIMITS.maxRedirects,
        maxBytes: REQUEST_LIMITS.maxBytes,
        timeoutMs: REQUEST_LIMITS.timeoutMs,
        signal: this.stop.signal,
      });
      if (res.refused) {
        this.blocked.push({
          url: res.url,
          reason: res.reason,
          detail: res.detail,
          ...(res.url !== request.url() ? { requestedUrl: request.url() } : {}),
        });
        const failure = `refused by the network guard: ${res.detail}`;
        if (leaving) return await stay(failure);
        entry.failure = failure;
        return await route.abort("blockedbyclient").catch(() => {});
      }
      entry.status = res.status;
      entry.bytes = res.body.byteLength;
      entry.protocol = res.protocol;
      entry.contentType = res.headers["content-type"];
      if (this.images && request.resourceType() === "image" && res.status < 300)
        keepImageBody(this.images, request.url(), res.headers["content-type"] ?? "", res.body);
      if (res.finalUrl !== request.url()) entry.finalUrl = res.finalUrl;
      return await route
        .fulfill({ status: res.status, headers: fulfilHeaders(res.status, res.headers), body: asBuffer(res.body) })
        .catch(() => {});
    } catch (e) {
      const kind = e instanceof GuardedFetchError ? e.kind : "network";
      if (leaving) return stay((e as Error).message);
      entry.failure = (e as Error).message;
      return route.abort(kind === "timeout" ? "timedout" : "failed").catch(() => {});
    } finally {
      this.inFlight--;
      this.lastActivity = performance.now();
    }
  }

  /**
   * WebSockets never leave from the browser: Playwright mocks the page's socket and this bridges it to one
   * opened server-side by guardedWebSocket (checked and pinned), or closes it (1008) and records it if refused.
   * Sockets opened by workers are not routed by Playwright; they hit the browser's closed network (see CHROMIUM_ARGS).
   */
  private async bridge(ws: WebSocketRoute) {
    const pending: Array<string | Buffer> = [];
    let upstream: WebSocket | null = null;
    let closed = false;
    const forward = (m: string | Buffer) =>
      upstream!.send(typeof m === "string" ? m : (new Uint8Array(m) as Uint8Array<ArrayBuffer>));
    ws.onMessage((m) => (upstream?.readyState === WebSocket.OPEN ? forward(m) : pending.push(m)));
    ws.onClose((code, reason) => {
      closed = true;
      upstream?.close(code === 1000 || (code !== undefined && code >= 3000 && code <= 4999) ? code : 1000, reason);
    });
    let origin: string | undefined;
    try {
      origin = new URL(this.page.url()).origin;
    } catch {}
    const opened = await guardedWebSocket(this.guard, ws.url(), {
      protocols: ws.protocols(),
      headers: origin && origin !== "null" ? { origin } : {},
    }).catch((e: Error) => ({ refused: true as const, reason: "invalid-url", detail: e.message, url: ws.url() }));
    if (opened.refused) {
      this.blocked.push({ url: opened.url, reason: opened.reason, detail: opened.detail });
      return ws.close({ code: 1008, reason: "refused by the network guard" }).catch(() => {});
    }
    upstream = opened.socket;
    if (closed || this.stop.signal.aborted) return upstream.close();
    this.sockets.add(upstream);
    upstream.onopen = () => {
      for (const m of pending.splice(0)) forward(m);
    };
    // A server that pushes as fast as it can would keep this process and the page busy for the whole capture: past the cap the socket is closed.
    let relayed = 0;
    upstream.onmessage = (e) => {
      if (closed) return;
      if (++relayed > WEBSOCKET_MESSAGE_CAP) {
        closed = true;
        this.log.push({
          url: ws.url(),
          resourceType: "websocket",
          status: 101,
          bytes: 0,
          failure: `closed by Assay after ${WEBSOCKET_MESSAGE_CAP} messages from the server during the capture`,
        });
        upstream!.close(1000);
        return void ws.close({ code: 1008, reason: "message cap reached" }).catch(() => {});
      }
      ws.send(typeof e.data === "string" ? e.data : Buffer.from(e.data as ArrayBuffer));
    };
    upstream.onclose = (e) => {
      this.sockets.delete(upstream!);
      if (!closed)
        void ws
          .close({ code: e.code === 1000 || (e.code >= 3000 && e.code <= 4999) ? e.code : 1011, reason: e.reason })
          .catch(() => {});
    };
  }
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

/** The page's own main-frame navigations followed; past it they are answered 204 (a page that reloads itself forever). */
const MAX_SELF_NAVIGATIONS = 5;

/** Messages a page's WebSocket may receive during one capture (a live feed sends far fewer in its seconds). */
const WEBSOCKET_MESSAGE_CAP = 1_000;

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
