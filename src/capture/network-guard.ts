import { lookup } from "node:dns/promises";
import { classifyAddress, type AddressClass } from "./ip-ranges";

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export type GuardVerdict =
  | {
      allowed: true;
      url: URL;
      /** The first checked address: the one to connect to. */
      address: string;
      family: 4 | 6;
      /** Every address the name resolved to, all checked, in resolver order (fallbacks if the first refuses connections). */
      addresses: CheckedAddress[];
    }
  | { allowed: false; reason: string; detail: string };

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Resolver failures that say DNS could not answer now (getaddrinfo's EAI_AGAIN, a time-out, a server failure
 * or refusal), not that the name does not exist: the URL may be fine, so the refusal is "dns-unavailable".
 */
const TRANSIENT_DNS = new Set(["EAI_AGAIN", "ETIMEOUT", "ETIMEDOUT", "ESERVFAIL", "ECONNREFUSED", "EREFUSED"]);

/**
 * Ports browsers refuse to fetch (the Fetch standard's "bad ports"): other protocols that an HTTP request
 * could be smuggled into. Refused server-side too, so the server never does what a browser would not.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
  111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
  540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
  6000, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 10080,
]);

/**
 * The one gate for every request the server or the browser makes: a URL is allowed only when it is
 * http(s) and every address its host resolves to is public. The caller must connect to the returned
 * address (guardedFetch does), so a second DNS answer (rebinding) can never be used.
 */
export class NetworkGuard {
  constructor(
    /** Opens loopback only, for tests (ASSAY_ALLOW_PRIVATE_TARGETS=1); never private networks or link-local. */
    private readonly allowLoopback: boolean,
    private readonly resolve: Resolver = systemResolver,
  ) {}

  async check(raw: string | URL): Promise<GuardVerdict> {
    let url: URL;
    try {
      url = typeof raw === "string" ? new URL(raw) : raw;
    } catch {
      return { allowed: false, reason: "invalid-url", detail: "not an absolute URL" };
    }
    const syntactic = this.checkSyntax(url);
    if (syntactic) return syntactic;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let resolved: Array<{ address: string; family: number }>;
    if (classifyAddress(host)) resolved = [{ address: host, family: host.includes(":") ? 6 : 4 }];
    else {
      // Resolved once, here; the answer is what the caller connects to.
      try {
        resolved = await this.resolve(host.replace(/\.$/, ""));
      } catch (e) {
        if (TRANSIENT_DNS.has((e as { code?: string }).code ?? "")) {
          return {
            allowed: false,
            reason: "dns-unavailable",
            detail: `DNS could not answer for ${host} now (${(e as Error).message})`,
          };
        }
        return { allowed: false, reason: "unresolvable", detail: `${host} does not resolve (${(e as Error).message})` };
      }
      if (resolved.length === 0) return { allowed: false, reason: "unresolvable", detail: `${host} has no addresses` };
    }
    const addresses: CheckedAddress[] = [];
    for (const a of resolved) {
      // An answer that is not a plain address literal is never connected to.
      const cls = classifyAddress(a.address) ?? "reserved";
      if (!this.permits(cls)) {
        return { allowed: false, reason: cls, detail: `${host} resolves to ${a.address}, a ${cls} address` };
      }
      addresses.push({ address: a.address, family: a.address.includes(":") ? 6 : 4 });
    }
    return { allowed: true, url, address: addresses[0]!.address, family: addresses[0]!.family, addresses };
  }

  /** The checks that need no DNS: scheme, port, and hosts that are addresses or loopback or internal names. */
  private checkSyntax(url: URL): GuardVerdict | null {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { allowed: false, reason: "scheme", detail: `only http and https are allowed, not ${url.protocol}` };
    }
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!host) return { allowed: false, reason: "invalid-url", detail: "the URL has no host" };
    if (url.port && BAD_PORTS.has(Number(url.port))) {
      return {
        allowed: false,
        reason: "blocked-port",
        detail: `port ${url.port} belongs to another protocol; browsers refuse it too`,
      };
    }
    const bare = host.replace(/\.$/, "");
    if (bare === "localhost" || bare.endsWith(".localhost")) {
      return this.permits("loopback")
        ? null
        : { allowed: false, reason: "loopback", detail: `${host} is a loopback name` };
    }
    const cls = classifyAddress(host);
    if (cls && !this.permits(cls)) return { allowed: false, reason: cls, detail: `${host} is a ${cls} address` };
    if (!cls) {
      // The URL parser turns every numeric host (127.1, 0x7f000001, 0177.0.0.1) into a dotted quad; anything
      // numeric that is still here is a form this guard cannot classify, so it is not let through to a resolver.
      const last = bare.split(".").pop()!;
      if (/^(\d+|0x[0-9a-f]*)$/i.test(last)) {
        return {
          allowed: false,
          reason: "invalid-url",
          detail: `${host} is a numeric host that is not a plain address`,
        };
      }
      if (!bare.includes(".")) {
        return {
          allowed: false,
          reason: "internal-name",
          detail: `${host} is a single-label name, internal to a network`,
        };
      }
    }
    return null;
  }

  private permits(cls: AddressClass): boolean {
    return cls === "public" || (cls === "loopback" && this.allowLoopback);
  }
}
