import { lookup } from "node:dns/promises";
import { classifyAddress, type AddressClass } from "./ip-ranges";

export type GuardVerdict =
  | { allowed: true; url: URL; address: string; family: 4 | 6 }
  | { allowed: false; reason: string; detail: string };

export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The one gate for every request the server or the browser makes: a URL is allowed only when it is
 * http(s) and every address its host resolves to is public. The caller must connect to the returned
 * address, so a second DNS answer (rebinding) can never be used.
 */
export class NetworkGuard {
  constructor(
    /** Opens loopback only, for tests; never private networks. */
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
    let addresses: Array<{ address: string; family: number }>;
    if (classifyAddress(host)) addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
    else {
      try {
        addresses = await this.resolve(host.replace(/\.$/, ""));
      } catch (e) {
        return { allowed: false, reason: "unresolvable", detail: `${host} does not resolve (${(e as Error).message})` };
      }
      if (addresses.length === 0) return { allowed: false, reason: "unresolvable", detail: `${host} has no addresses` };
    }
    for (const a of addresses) {
      const cls = classifyAddress(a.address) ?? "reserved";
      if (!this.permits(cls)) {
        return { allowed: false, reason: cls, detail: `${host} resolves to ${a.address}, a ${cls} address` };
      }
    }
    const first = addresses[0]!;
    return { allowed: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  /** The checks that need no DNS: scheme, credentials, and hosts that are addresses or loopback names. */
  checkSyntax(url: URL): GuardVerdict | null {
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      return { allowed: false, reason: "scheme", detail: `only http and https are allowed, not ${url.protocol}` };
    }
    const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
    if (!host) return { allowed: false, reason: "invalid-url", detail: "the URL has no host" };
    const bare = host.replace(/\.$/, "");
    if (bare === "localhost" || bare.endsWith(".localhost")) {
      return this.permits("loopback") ? null : { allowed: false, reason: "loopback", detail: `${host} is a loopback name` };
    }
    const cls = classifyAddress(host);
    if (cls && !this.permits(cls)) return { allowed: false, reason: cls, detail: `${host} is a ${cls} address` };
    if (!cls && !bare.includes(".")) {
      return { allowed: false, reason: "internal-name", detail: `${host} is a single-label name, internal to a network` };
    }
    return null;
  }

  private permits(cls: AddressClass): boolean {
    return cls === "public" || (cls === "loopback" && this.allowLoopback);
  }
}
