import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import type { GuardVerdict, NetworkGuard } from "./network-guard";

/**
 * Server-side HTTP through the network guard: every hop (the first URL and each redirect) is checked, and
 * the connection goes to the address the guard checked, never to a second DNS answer.
 *
 * Pinning: the request is made to the checked IP literal (node:http / node:https `host`), with the Host
 * header set to the URL's host and, for https, the TLS `servername` set to the hostname, so SNI and the
 * certificate check use the name while the socket can only reach the checked address. No resolver is in
 * that path at all. (Bun 1.4.5 also honours a custom `lookup` on node:http(s) requests, verified; the IP
 * literal is used instead because it does not depend on the runtime calling that hook, and it is the same
 * mechanism guardedWebSocket, in guarded-websocket.ts, needs.)
 */

export interface GuardedFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string | null;
  /** Redirects followed, each re-checked by the guard; more is an error. 0 returns a 3xx as it is. Default 5. */
  maxRedirects?: number;
  /** Cap on one response body, both as sent and decoded. Default 10 MiB. */
  maxBytes?: number;
  /** Cap on the whole exchange: name resolution, every hop, every body. Default 15 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra trusted certificate authorities (the tests use a self-signed one). */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface GuardedRedirect {
  url: string;
  status: number;
  location: string;
}

export interface GuardedResponse {
  refused: false;
  status: number;
  statusText: string;
  /**
   * Lower-case names; repeated headers joined with ", ", except set-cookie, joined with "\n" (the form
   * Playwright's route.fulfill splits). content-encoding is gone once the body is decoded; hop-by-hop
   * headers (connection, transfer-encoding, ...) are never included.
   */
  headers: Record<string, string>;
  /** Decoded body (gzip, deflate, br and zstd are undone). Empty for HEAD, 204 and 304. */
  body: Uint8Array;
  /** Bytes on the wire for the final response body, before decoding. */
  encodedBytes: number;
  /** The HTTP version the final response came over, e.g. "http/1.1". */
  protocol: string;
  finalUrl: string;
  /** The address the final response came from: one the guard checked. */
  address: string;
  redirects: GuardedRedirect[];
}

export interface GuardedRefusal {
  refused: true;
  /** The guard's reason: loopback, private, link-local, cgnat, unique-local, multicast, unspecified, reserved, scheme, ... */
  reason: string;
  detail: string;
  /** The URL that was refused: the first one, or the redirect target that was. */
  url: string;
  redirects: GuardedRedirect[];
}

export type GuardedFetchErrorKind = "timeout" | "too-large" | "too-many-redirects" | "network" | "aborted";

/** A request that was allowed but did not complete. Refusals by the guard are not errors: they are returned. */
export class GuardedFetchError extends Error {
  constructor(
    readonly kind: GuardedFetchErrorKind,
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = "GuardedFetchError";
  }
}

const DEFAULT_MAX_REDIRECTS = 5;
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;

/** Request headers that belong to one connection, or that guardedFetch sets itself. */
const REQUEST_HEADERS_DROPPED = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "content-length",
  "accept-encoding",
]);
const RESPONSE_HEADERS_DROPPED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "trailer",
  "upgrade",
]);
const CREDENTIAL_HEADERS = ["cookie", "authorization"];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** What decode() can undo, so what the server may use. */
const ACCEPT_ENCODING = "zstdDecompressSync" in zlib ? "gzip, deflate, br, zstd" : "gzip, deflate, br";
/** Connection errors after which the next checked address of the same name may be tried: nothing was sent. */
const CONNECT_ERRORS = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"]);

export async function guardedFetch(
  guard: NetworkGuard,
  input: string | URL,
  options: GuardedFetchOptions = {},
): Promise<GuardedResponse | GuardedRefusal> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let url = typeof input === "string" ? input : input.href;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(new GuardedFetchError("aborted", "the request was cancelled", url));
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new GuardedFetchError("timeout", `no complete answer within ${timeoutMs} ms`, url)),
    timeoutMs,
  );
  try {
    let method = (options.method ?? "GET").toUpperCase();
    let headers = requestHeaders(options.headers);
    let body =
      options.body == null
        ? undefined
        : typeof options.body === "string"
          ? Buffer.from(options.body)
          : Buffer.from(options.body);
    const redirects: GuardedRedirect[] = [];
    for (;;) {
      const verdict = await abortable(guard.check(url), controller.signal);
      if (!verdict.allowed) return { refused: true, reason: verdict.reason, detail: verdict.detail, url, redirects };
      const res = await exchange(verdict, method, headers, body, maxBytes, options.ca, controller.signal);
      const location = res.headers.location;
      let next: URL | null = null;
      if (REDIRECT_STATUSES.has(res.status) && location !== undefined && maxRedirects > 0) {
        try {
          next = new URL(location, url);
        } catch {
          next = null; // an unusable Location: the 3xx is the answer
        }
      }
      if (!next) return { refused: false, ...res, finalUrl: url, redirects };
      if (redirects.length >= maxRedirects) {
        throw new GuardedFetchError("too-many-redirects", `more than ${maxRedirects} redirects`, url);
      }
      next.hash = "";
      redirects.push({ url, status: res.status, location: next.href });
      // What browsers do: 303 turns anything but HEAD into GET, 301 and 302 turn POST into GET.
      if (
        (res.status === 303 && method !== "HEAD") ||
        ((res.status === 301 || res.status === 302) && method === "POST")
      ) {
        method = "GET";
        body = undefined;
        headers = omit(headers, ["content-type", "content-language", "content-location"]);
      }
      if (new URL(url).origin !== next.origin) headers = omit(headers, CREDENTIAL_HEADERS);
      url = next.href;
    }
  } catch (e) {
    if (controller.signal.aborted && controller.signal.reason instanceof GuardedFetchError)
      throw controller.signal.reason;
    if (e instanceof GuardedFetchError) throw e;
    throw new GuardedFetchError("network", (e as Error).message, url);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onOuterAbort);
  }
}

type Exchanged = Omit<GuardedResponse, "refused" | "finalUrl" | "redirects">;

/** One HTTP exchange with a checked URL, on a socket to a checked address; the next address only if the first refused to connect. */
async function exchange(
  verdict: Extract<GuardVerdict, { allowed: true }>,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  maxBytes: number,
  ca: GuardedFetchOptions["ca"],
  signal: AbortSignal,
): Promise<Exchanged> {
  let lastError: unknown;
  for (const { address, family } of verdict.addresses) {
    try {
      return await requestOnce(verdict.url, address, family, method, headers, body, maxBytes, ca, signal);
    } catch (e) {
      lastError = e;
      if (!CONNECT_ERRORS.has((e as NodeJS.ErrnoException).code ?? "")) throw e;
    }
  }
  throw lastError;
}

function requestOnce(
  url: URL,
  address: string,
  family: 4 | 6,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  maxBytes: number,
  ca: GuardedFetchOptions["ca"],
  signal: AbortSignal,
): Promise<Exchanged> {
  const secure = url.protocol === "https:";
  const pinnedLookup = (_name: string, opts: unknown, cb?: (...args: unknown[]) => void) => {
    // Never consulted for an IP literal host; here so that a runtime which did consult it still gets the checked address.
    const callback = (typeof opts === "function" ? opts : cb) as (...args: unknown[]) => void;
    if (typeof opts === "object" && opts && (opts as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  return new Promise<Exchanged>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const request = (secure ? https : http).request(
      {
        host: address,
        family,
        port: url.port ? Number(url.port) : secure ? 443 : 80,
        method,
        path: `${url.pathname}${url.search}`,
        headers: {
          ...headers,
          host: url.host,
          "accept-encoding": ACCEPT_ENCODING,
          ...(body ? { "content-length": String(body.length) } : {}),
        },
        lookup: pinnedLookup as never,
        ...(secure ? { servername: tlsServerName(url), ca } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) {
            request.destroy();
            reject(new GuardedFetchError("too-large", `the response is larger than ${maxBytes} bytes`, url.href));
            return;
          }
          chunks.push(chunk);
        });
        res.on("error", reject);
        res.on("end", () => {
          try {
            const status = res.statusCode ?? 0;
            const raw = Buffer.concat(chunks);
            const responseHeaders = collectHeaders(res.rawHeaders);
            const noBody = method === "HEAD" || status === 204 || status === 304;
            const decoded = noBody ? Buffer.alloc(0) : decode(raw, responseHeaders, maxBytes, url.href);
            resolve({
              status,
              statusText: res.statusMessage ?? "",
              headers: responseHeaders,
              body: decoded,
              encodedBytes: raw.length,
              protocol: `http/${res.httpVersion}`,
              address,
            });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    const onAbort = () => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    request.on("close", () => signal.removeEventListener("abort", onAbort));
    request.on("error", reject);
    request.end(body);
  });
}

/** Undoes content-encoding (applied in order, so undone in reverse) and drops the headers that described the encoded body. */
function decode(raw: Buffer, headers: Record<string, string>, maxBytes: number, url: string): Buffer {
  const encodings = (headers["content-encoding"] ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e && e !== "identity");
  if (encodings.length === 0 || raw.length === 0) {
    if (raw.length === 0) delete headers["content-encoding"];
    return raw;
  }
  const z = zlib as typeof zlib & { zstdDecompressSync?: (b: Buffer, o?: object) => Buffer };
  const decoders: Record<string, ((b: Buffer) => Buffer) | undefined> = {
    gzip: (b) => zlib.gunzipSync(b, { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    "x-gzip": (b) => zlib.gunzipSync(b, { maxOutputLength: maxBytes, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    // "deflate" is meant to be zlib-wrapped; some servers send it raw, which browsers accept too.
    deflate: (b) => {
      try {
        return zlib.inflateSync(b, { maxOutputLength: maxBytes });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw e;
        return zlib.inflateRawSync(b, { maxOutputLength: maxBytes });
      }
    },
    br: (b) => zlib.brotliDecompressSync(b, { maxOutputLength: maxBytes }),
    zstd: z.zstdDecompressSync ? (b) => z.zstdDecompressSync!(b, { maxOutputLength: maxBytes }) : undefined,
  };
  if (encodings.some((e) => !decoders[e])) return raw; // an encoding we cannot undo: passed on as it came
  let body = raw;
  try {
    for (const e of [...encodings].reverse()) body = decoders[e]!(body);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || body.length > maxBytes) {
      throw new GuardedFetchError("too-large", `the decoded response is larger than ${maxBytes} bytes`, url);
    }
    throw new GuardedFetchError("network", `the response body could not be decoded (${encodings.join(", ")})`, url);
  }
  delete headers["content-encoding"];
  delete headers["content-length"];
  return body;
}

function collectHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (RESPONSE_HEADERS_DROPPED.has(name)) continue;
    const value = raw[i + 1]!;
    out[name] = name in out ? `${out[name]}${name === "set-cookie" ? "\n" : ", "}${value}` : value;
  }
  return out;
}

/** The name SNI and the certificate check use on a pinned connection: the URL's hostname, none for an IP literal. */
export function tlsServerName(url: URL): string | undefined {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const hostIsAddress = hostname.includes(":") || /^\d+\.\d+\.\d+\.\d+$/.test(hostname);
  return hostIsAddress ? undefined : hostname;
}

/** The headers a caller gave, lower-cased, less those of one connection and those a guarded request sets itself. */
export function requestHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(given ?? {})) {
    const lower = name.toLowerCase();
    // HTTP/2 pseudo-headers (":authority") and connection-level headers are not forwarded.
    if (lower.startsWith(":") || REQUEST_HEADERS_DROPPED.has(lower)) continue;
    out[lower] = value;
  }
  return out;
}

function omit(headers: Record<string, string>, names: string[]): Record<string, string> {
  const out = { ...headers };
  for (const n of names) delete out[n];
  return out;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
