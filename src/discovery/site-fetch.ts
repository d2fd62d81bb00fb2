import pkg from "../../package.json" with { type: "json" };
import { GuardedFetchError, guardedFetch } from "../capture/guarded-fetch";
import type { NetworkGuard } from "../capture/network-guard";
import type { SkipReason } from "../contracts/discovery";

/** The token robots.txt groups are matched against, and the start of the User-Agent discovery sends. */
export const DISCOVERY_AGENT = "AssayBot";
const USER_AGENT = `${DISCOVERY_AGENT}/${pkg.version} (site discovery for a run of checks)`;

/** Each request's own bound, inside the discovery's. */
const REQUEST_TIMEOUT_MS = 15_000;

export type SiteFetch =
  | { ok: true; url: string; finalUrl: string; status: number; contentType: string; body: Uint8Array }
  | {
      ok: false;
      url: string;
      reason: Exclude<SkipReason, "off-origin" | "invalid-url" | "robots-disallowed" | "not-a-sitemap">;
      detail: string;
      /** The site's HTTP status, when it answered one. */
      status?: number;
      /** refused: the guard's reason (dns-unavailable is a refusal the caller may retry) and the URL refused. */
      guardReason?: string;
      refusedUrl?: string;
    };

/**
 * One GET of discovery through the network guard (every hop checked, the socket pinned to the checked address),
 * within the discovery's time bound (`signal`): the body up to maxBytes, or why there is none, in discovery's
 * words (a refusal, a failure, an HTTP error status, a body past the cap).
 */
export async function fetchForDiscovery(
  guard: NetworkGuard,
  url: string,
  opts: { maxBytes: number; accept: string; signal: AbortSignal },
): Promise<SiteFetch> {
  try {
    const res = await guardedFetch(guard, url, {
      headers: { "user-agent": USER_AGENT, accept: opts.accept },
      maxBytes: opts.maxBytes,
      timeoutMs: REQUEST_TIMEOUT_MS,
      signal: opts.signal,
    });
    if (res.refused)
      return {
        ok: false,
        url,
        reason: "refused",
        detail: res.detail,
        guardReason: res.reason,
        refusedUrl: res.url,
      };
    if (res.status >= 400)
      return { ok: false, url, reason: "http-error", detail: `HTTP ${res.status}`, status: res.status };
    if (res.status >= 300)
      return { ok: false, url, reason: "http-error", detail: `HTTP ${res.status} without a usable Location` };
    return {
      ok: true,
      url,
      finalUrl: res.finalUrl,
      status: res.status,
      contentType: res.headers["content-type"] ?? "",
      body: res.body,
    };
  } catch (e) {
    if (e instanceof GuardedFetchError && e.kind === "too-large")
      return { ok: false, url, reason: "too-large", detail: `larger than ${opts.maxBytes} bytes` };
    return { ok: false, url, reason: "unreachable", detail: (e as Error).message };
  }
}
