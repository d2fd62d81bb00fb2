import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { guardedFetch } from "../guarded-fetch";
import type { NetworkGuard } from "../network-guard";

/**
 * A forward HTTP proxy on loopback that decides every request of an engine driven through WebDriver, which has
 * no request interception: plain http goes through guardedFetch (every hop checked, the connection pinned to the
 * checked address; redirects go back to the browser, which asks again), https and WebSockets over CONNECT are
 * checked by the guard and tunnelled to the checked address only. A request the proxy cannot parse (WebKit sends
 * `GET ws://...` for a plain WebSocket) gets its connection closed. docs/engines.md shows WebKitGTK, Firefox and
 * Chromium sending every request, loopback included, to such a proxy.
 * The render's own document is served by the proxy at a name that never resolves (`.invalid`).
 */

export interface ProxiedRequest {
  method: string;
  url: string;
  /** "document" for the render's own document, "allowed", or the guard's refusal reason (private, loopback, ...). */
  outcome: string;
}

export interface GuardedProxy {
  /** host:port, as the `proxy` capability's httpProxy and sslProxy take it. */
  address: string;
  /** The URL at which the proxy serves the document given to it. */
  readonly documentUrl: string;
  /** The requests of the current render (since the proxy started, or since the last `serve`). */
  readonly requests: ProxiedRequest[];
  /**
   * The next render on the same proxy (a warm session keeps its proxy): `document` served at a new name of its own,
   * the request log started afresh; the previous document is no longer served.
   */
  serve(document: string): void;
  close(): Promise<void>;
}

const MAX_REQUEST_BODY = 10 * 1024 * 1024;
const RESPONSE_HEADERS_RECOMPUTED = new Set(["content-length", "content-encoding"]);

/**
 * A proxy for one render; `document`, when given, is served at `documentUrl` (a page loaded by URL has none), with
 * `documentHeaders` besides its content type (Gecko's mail renders: a CSP that turns the page's scripts off).
 */
export async function startGuardedProxy(
  guard: NetworkGuard,
  document?: string,
  documentHeaders: Record<string, string> = {},
): Promise<GuardedProxy> {
  const nameOfItsOwn = () => `http://render-${crypto.randomUUID()}.assay.invalid/`;
  let documentUrl = nameOfItsOwn();
  let requests: ProxiedRequest[] = [];
  const tunnels = new Set<Socket>();

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? "";
    const method = req.method ?? "GET";
    if (document !== undefined && url === documentUrl) {
      requests.push({ method, url, outcome: "document" });
      res.writeHead(200, { ...documentHeaders, "content-type": "text/html; charset=utf-8" }).end(document);
      return;
    }
    const body = method === "GET" || method === "HEAD" ? new Uint8Array() : await requestBody(req);
    if (body === null) {
      requests.push({ method, url, outcome: "too-large" });
      res.writeHead(413, { "content-type": "text/plain", connection: "close" }).end("request body too large");
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers[name] = value;
    }
    try {
      const answer = await guardedFetch(guard, url, {
        method,
        headers,
        body: body.byteLength > 0 ? body : null,
        maxRedirects: 0,
      });
      if (answer.refused) {
        requests.push({ method, url, outcome: answer.reason });
        res.writeHead(403, { "content-type": "text/plain" }).end(`refused by the network guard: ${answer.detail}`);
        return;
      }
      requests.push({ method, url, outcome: "allowed" });
      const out: Array<[string, string]> = [];
      for (const [name, value] of Object.entries(answer.headers)) {
        if (RESPONSE_HEADERS_RECOMPUTED.has(name)) continue;
        for (const v of name === "set-cookie" ? value.split("\n") : [value]) out.push([name, v]);
      }
      out.push(["content-length", String(answer.body.byteLength)]);
      res.writeHead(answer.status, answer.statusText, out.flat()).end(answer.body);
    } catch (e) {
      requests.push({ method, url, outcome: "failed" });
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end((e as Error).message);
    }
  };

  const onConnect = async (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? "";
    const verdict = await guard.check(`https://${target}/`);
    if (!verdict.allowed) {
      requests.push({ method: "CONNECT", url: target, outcome: verdict.reason });
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    requests.push({ method: "CONNECT", url: target, outcome: "allowed" });
    const upstream = connect(Number(verdict.url.port || 443), verdict.address, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      tunnels.add(s);
      s.on("close", () => tunnels.delete(s));
    }
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  };

  const server: Server = createServer((req, res) => void onRequest(req, res));
  server.on("connect", (req, socket, head) => void onConnect(req, socket as Socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    get documentUrl() {
      return documentUrl;
    },
    get requests() {
      return requests;
    },
    serve(next) {
      document = next;
      documentUrl = nameOfItsOwn();
      requests = [];
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of tunnels) s.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page's request body, or null past MAX_REQUEST_BODY (the request is then answered 413 and never sent). */
async function requestBody(req: IncomingMessage): Promise<Uint8Array | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_REQUEST_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}
