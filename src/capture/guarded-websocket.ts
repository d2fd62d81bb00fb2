import type { NetworkGuard } from "./network-guard";
import { type GuardedRefusal, requestHeaders, tlsServerName } from "./guarded-fetch";

export interface GuardedSocket {
  refused: false;
  socket: WebSocket;
  address: string;
}

/**
 * A WebSocket opened through the guard and pinned like guardedFetch: to the checked IP literal, with the
 * Host header and the TLS server name (SNI and certificate check) set to the hostname. Bun's WebSocket
 * client honours all three (verified: a certificate for the name passes, any other name fails).
 */
export async function guardedWebSocket(
  guard: NetworkGuard,
  raw: string,
  options: { protocols?: string[]; headers?: Record<string, string>; ca?: string | Buffer } = {},
): Promise<GuardedSocket | Omit<GuardedRefusal, "redirects">> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { refused: true, reason: "invalid-url", detail: "not an absolute URL", url: raw };
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    return { refused: true, reason: "scheme", detail: `only ws and wss are WebSockets, not ${url.protocol}`, url: raw };
  }
  const secure = url.protocol === "wss:";
  // The same URL with the http(s) scheme its handshake uses; default ports are the same.
  const verdict = await guard.check(`${secure ? "https" : "http"}:${url.href.slice(url.protocol.length)}`);
  if (!verdict.allowed) return { refused: true, reason: verdict.reason, detail: verdict.detail, url: raw };
  const serverName = tlsServerName(url);
  const literal = verdict.address.includes(":") ? `[${verdict.address}]` : verdict.address;
  const port = url.port || (secure ? "443" : "80");
  const socket = new WebSocket(`${url.protocol}//${literal}:${port}${url.pathname}${url.search}`, {
    headers: { ...requestHeaders(options.headers), host: url.host },
    ...(options.protocols?.length ? { protocols: options.protocols } : {}),
    ...(secure ? { tls: { ...(serverName ? { serverName } : {}), ...(options.ca ? { ca: options.ca } : {}) } } : {}),
  } as unknown as string[]);
  socket.binaryType = "arraybuffer";
  return { refused: false, socket, address: verdict.address };
}
