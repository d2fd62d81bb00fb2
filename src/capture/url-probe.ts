import type { NetworkGuard } from "./network-guard";
import { GuardedFetchError, guardedFetch, type GuardedFetchErrorKind } from "./guarded-fetch";

/**
 * Server-side requests a check makes itself (link targets, /favicon.ico, images the browser never loaded),
 * always through the network guard with guardedFetch. One probe lives for one job: every URL is fetched
 * at most once per mode (the promise is cached, so concurrent askers share it), and at most
 * `concurrency` requests are in flight at a time across all checks of the job.
 */

export type ProbeResult =
  | {
      kind: "response";
      url: string;
      method: "HEAD" | "GET";
      status: number;
      statusText: string;
      contentType?: string;
      finalUrl: string;
      /** GET only (probe.get): the decoded body, at most maxBytes. */
      body?: Uint8Array;
    }
  | {
      kind: "refused";
      url: string;
      reason: string;
      detail: string /** The URL the guard refused: this one, or a redirect target. */;
      refusedUrl: string;
    }
  /** Allowed but no complete answer. "too-large" means the server did answer, with a body past the cap. */
  | { kind: "failed"; url: string; error: GuardedFetchErrorKind; detail: string };

export interface UrlProbeOptions {
  concurrency?: number;
  timeoutMs?: number;
  /** Cap on a GET body that is kept (probe.get) or read only to learn the status (link fallback). */
  maxBytes?: number;
  /** Extra trusted certificate authorities (tests). */
  ca?: string | Buffer;
}

/** A browser-like identity: some servers answer a bare client differently from the browser the user has. */
const HEADERS = {
  "user-agent":
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Assay/0.1",
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/*,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
};

export class UrlProbe {
  private readonly cache = new Map<string, Promise<ProbeResult>>();
  /** Aborted by close(): in-flight requests stop, queued ones never start. */
  private readonly stop = new AbortController();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  /** HTTP exchanges started (HEAD and GET each count): what the per-job cache saves is visible here. */
  requests = 0;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly maxBytes: number;

  constructor(
    private readonly guard: NetworkGuard,
    private readonly options: UrlProbeOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 6;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  }

  /**
   * Whether a link target answers: HEAD first; GET when HEAD failed or answered an error status (405 and 501
   * mean "no HEAD here", and some servers answer HEAD wrongly in other ways), so a link only counts as broken
   * when a GET says so too. A guard refusal is final: the same URL would be refused again.
   */
  link(url: string): Promise<ProbeResult> {
    return this.cached(`link ${url}`, async () => {
      const head = await this.request(url, "HEAD", false);
      if (head.kind === "refused" || (head.kind === "response" && head.status < 400)) return head;
      return this.request(url, "GET", false);
    });
  }

  /** Ends the probe when its job is done: what is still in flight or queued is abandoned. */
  close() {
    this.stop.abort();
  }

  /** GET with the body kept (up to maxBytes), for checks that look at the bytes. */
  get(url: string): Promise<ProbeResult> {
    return this.cached(`get ${url}`, () => this.request(url, "GET", true));
  }

  private cached(key: string, run: () => Promise<ProbeResult>): Promise<ProbeResult> {
    let p = this.cache.get(key);
    if (!p) {
      p = run();
      this.cache.set(key, p);
    }
    return p;
  }

  private async request(url: string, method: "HEAD" | "GET", keepBody: boolean): Promise<ProbeResult> {
    await this.acquire();
    try {
      if (this.stop.signal.aborted)
        return { kind: "failed", url, error: "aborted", detail: "the job ended before this request was made" };
      this.requests++;
      const res = await guardedFetch(this.guard, url, {
        method,
        headers: HEADERS,
        maxBytes: this.maxBytes,
        timeoutMs: this.timeoutMs,
        signal: this.stop.signal,
        ...(this.options.ca ? { ca: this.options.ca } : {}),
      });
      if (res.refused) return { kind: "refused", url, reason: res.reason, detail: res.detail, refusedUrl: res.url };
      return {
        kind: "response",
        url,
        method,
        status: res.status,
        statusText: res.statusText,
        ...(res.headers["content-type"] ? { contentType: res.headers["content-type"] } : {}),
        finalUrl: res.finalUrl,
        ...(keepBody ? { body: res.body } : {}),
      };
    } catch (e) {
      const kind = e instanceof GuardedFetchError ? e.kind : "network";
      return { kind: "failed", url, error: kind, detail: (e as Error).message };
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release() {
    const next = this.waiting.shift();
    if (next)
      next(); // the slot passes straight to the next waiter
    else this.active--;
  }
}

/** Image formats recognised by their first bytes (what browsers sniff): PNG, JPEG, GIF, WebP, ICO/CUR, BMP, AVIF/HEIC, SVG. */
export function sniffImage(bytes: Uint8Array): string | null {
  const b = bytes;
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50)
    return "image/webp";
  if (starts(0x00, 0x00, 0x01, 0x00) || starts(0x00, 0x00, 0x02, 0x00)) return "image/x-icon";
  if (starts(0x42, 0x4d)) return "image/bmp";
  if (b.length >= 12 && b[4] === 0x66 && b[5] === 0x74 && b[6] === 0x79 && b[7] === 0x70) {
    const brand = String.fromCharCode(b[8]!, b[9]!, b[10]!, b[11]!);
    if (/^(avif|avis|heic|heix|mif1)$/.test(brand)) return brand.startsWith("avi") ? "image/avif" : "image/heic";
  }
  const head = new TextDecoder()
    .decode(b.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head)) return "image/svg+xml";
  return null;
}

/** A data: URL's media type and bytes, or null when it is not one. */
export function decodeDataUrl(url: string): { mediaType: string; bytes: Uint8Array } | null {
  const m = /^data:([^,]*?)(;base64)?,(.*)$/is.exec(url);
  if (!m) return null;
  const mediaType = (m[1]!.split(";")[0] || "text/plain").trim().toLowerCase();
  try {
    const bytes = m[2]
      ? Uint8Array.from(Buffer.from(decodeURIComponent(m[3]!), "base64"))
      : new TextEncoder().encode(decodeURIComponent(m[3]!));
    return { mediaType, bytes };
  } catch {
    return { mediaType, bytes: new Uint8Array() };
  }
}
