import { readFileSync } from "node:fs";
import { Resolver } from "node:dns/promises";
import { lookup } from "node:dns/promises";
import type { Config } from "../../config";
import type { Resolver as AddressResolver } from "../network-guard";

/**
 * What mailauth calls for every lookup: the signature of node:dns/promises `resolve(name, rrtype)`. Answers
 * are shaped as node:dns shapes them (TXT as arrays of character-strings, MX as { exchange, priority }),
 * and failures carry node:dns codes: ENOTFOUND for a name that does not exist (NXDOMAIN), ENODATA for a name
 * with no record of that type, ETIMEOUT, ECONNREFUSED, ESERVFAIL... for DNS that could not answer. mailauth
 * reads those codes: the first two are "no record" (SPF none, DKIM "no key", no DMARC policy), anything else
 * is a temporary error.
 */
export type DnsResolver = (name: string, rrtype: string) => Promise<unknown[]>;

/** The resolver the authentication checks use: the fixture file when ASSAY_DNS_FIXTURES is set (tests), else real DNS. */
export function dnsResolverFor(config: Pick<Config, "dnsTimeoutMs" | "dnsFixtures">): DnsResolver {
  // Read per job: a fixture file is a few records, and a test may rewrite it between jobs.
  return config.dnsFixtures
    ? fixtureResolver(loadDnsFixtures(config.dnsFixtures))
    : systemResolver(config.dnsTimeoutMs);
}

/**
 * The network guard's address lookups: A and AAAA from the fixture file when ASSAY_DNS_FIXTURES is set (tests),
 * else the system's resolver (getaddrinfo, as the browser would resolve), cut at dnsTimeoutMs with ETIMEOUT.
 */
export function addressResolverFor(config: Pick<Config, "dnsTimeoutMs" | "dnsFixtures">): AddressResolver {
  if (config.dnsFixtures) {
    const path = config.dnsFixtures;
    return async (hostname) => {
      const resolve = fixtureResolver(loadDnsFixtures(path));
      const answers = await Promise.allSettled(
        (["A", "AAAA"] as const).map(async (type) =>
          ((await resolve(hostname, type)) as string[]).map((address) => ({ address, family: type === "A" ? 4 : 6 })),
        ),
      );
      const found = answers.flatMap((a) => (a.status === "fulfilled" ? a.value : []));
      if (found.length) return found;
      // No address: a failure other than "no such name" or "no such record" is the one to report.
      const errors = answers.map((a) => (a as PromiseRejectedResult).reason as Error & { code: string });
      throw errors.find((e) => e.code !== "ENOTFOUND" && e.code !== "ENODATA") ?? dnsError("ENOTFOUND", "A", hostname);
    };
  }
  const bounded = withDeadline((name) => lookup(name, { all: true, verbatim: true }), config.dnsTimeoutMs);
  return (hostname) => bounded(hostname, "A") as ReturnType<AddressResolver>;
}

/** node:dns error with the fields node:dns sets (code, syscall, hostname). */
export function dnsError(
  code: string,
  rrtype: string,
  name: string,
): Error & { code: string; syscall: string; hostname: string } {
  const syscall = `query${rrtype.charAt(0).toUpperCase()}${rrtype.slice(1).toLowerCase()}`;
  return Object.assign(new Error(`${syscall} ${code} ${name}`), { code, syscall, hostname: name });
}

/**
 * The system's DNS servers through node:dns/promises, each query bounded: c-ares gets half the budget per
 * try (two tries), and the whole call is cut at `timeoutMs` with ETIMEOUT whatever the library does.
 */
export function systemResolver(timeoutMs: number): DnsResolver {
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 2)), tries: 2 });
  return withDeadline((name, rrtype) => resolver.resolve(name, rrtype) as Promise<unknown[]>, timeoutMs);
}

/** Rejects with a node:dns ETIMEOUT error when `resolve` has not settled within `timeoutMs`. */
export function withDeadline(resolve: DnsResolver, timeoutMs: number): DnsResolver {
  return (name, rrtype) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(dnsError("ETIMEOUT", rrtype, name)), timeoutMs);
    });
    return Promise.race([resolve(name, rrtype), deadline]).finally(() => clearTimeout(timer));
  };
}

// ---------------------------------------------------------------- fixtures (tests only)

/**
 * A fixture file (ASSAY_DNS_FIXTURES; for tests only, so they run offline) maps owner names to records:
 *
 *   {
 *     "example.com":                  { "TXT": ["v=spf1 ip4:127.0.0.1 -all"], "MX": [{ "exchange": "mx.example.com", "priority": 10 }] },
 *     "s1._domainkey.example.com":    { "TXT": [["v=DKIM1; k=rsa; p=MIIB...", "...rest"]] },
 *     "_dmarc.example.com":           { "TXT": ["v=DMARC1; p=reject"] },
 *     "*.down.example":               { "error": "ETIMEOUT" },
 *     "*":                            { "error": "ECONNREFUSED" }
 *   }
 *
 * Types: TXT (each record a string, split into 255-character character-strings as DNS stores it, or an
 * explicit array of them), A, AAAA, PTR, NS, CNAME (strings), MX ({ exchange, priority }). A CNAME is
 * followed for other types, as a recursive resolver does. `{ "error": CODE }` makes every query for that name
 * fail with that node:dns code (ETIMEOUT, ECONNREFUSED, ESERVFAIL, EREFUSED: DNS unreachable or broken).
 * `*.zone` matches names below zone (not zone itself), the closest wildcard first, as DNS wildcards do; `*`
 * alone matches any name the file does not hold. A name the file does not match is NXDOMAIN (ENOTFOUND); a
 * name it holds without the asked type is ENODATA. Names are case-insensitive; a trailing dot is ignored.
 */
export type DnsFixtures = Record<string, DnsFixtureEntry>;
export type DnsFixtureEntry =
  | { error: string }
  | {
      TXT?: Array<string | string[]>;
      A?: string[];
      AAAA?: string[];
      PTR?: string[];
      NS?: string[];
      CNAME?: string[];
      MX?: Array<{ exchange: string; priority: number }>;
    };

const TYPES = new Set(["TXT", "A", "AAAA", "PTR", "NS", "CNAME", "MX"]);

function loadDnsFixtures(path: string): DnsFixtures {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`ASSAY_DNS_FIXTURES ${path} could not be read as JSON: ${(e as Error).message}`);
  }
  return validateDnsFixtures(parsed, path);
}

export function validateDnsFixtures(value: unknown, where = "DNS fixtures"): DnsFixtures {
  const bad = (what: string) => new Error(`${where}: ${what}`);
  if (!value || typeof value !== "object" || Array.isArray(value)) throw bad("expected an object of owner names");
  const out: DnsFixtures = {};
  for (const [rawName, entry] of Object.entries(value)) {
    const name = normaliseName(rawName);
    if (!entry || typeof entry !== "object" || Array.isArray(entry))
      throw bad(`${rawName}: expected an object of record types`);
    if ("error" in entry) {
      if (typeof entry.error !== "string" || !/^E[A-Z_]+$/.test(entry.error))
        throw bad(`${rawName}: error must be a node:dns code such as "ETIMEOUT"`);
      out[name] = { error: entry.error };
      continue;
    }
    const records: Record<string, unknown[]> = {};
    for (const [type, list] of Object.entries(entry as Record<string, unknown>)) {
      const t = type.toUpperCase();
      if (!TYPES.has(t)) throw bad(`${rawName}: unsupported record type ${type}`);
      if (!Array.isArray(list)) throw bad(`${rawName} ${t}: expected an array of records`);
      for (const r of list) {
        const ok =
          t === "MX"
            ? !!r &&
              typeof r === "object" &&
              typeof (r as { exchange?: unknown }).exchange === "string" &&
              Number.isInteger((r as { priority?: unknown }).priority)
            : t === "TXT"
              ? typeof r === "string" ||
                (Array.isArray(r) && r.length > 0 && r.every((s) => typeof s === "string" && s.length <= 255))
              : typeof r === "string";
        if (!ok) throw bad(`${rawName} ${t}: malformed record ${JSON.stringify(r)}`);
      }
      records[t] = list;
    }
    out[name] = records as DnsFixtureEntry;
  }
  return out;
}

/** Serves fixture records with real DNS's answer shapes and error codes (see DnsFixtures). */
export function fixtureResolver(fixtures: DnsFixtures): DnsResolver {
  const find = (name: string): DnsFixtureEntry | undefined => {
    if (fixtures[name]) return fixtures[name];
    const labels = name.split(".");
    for (let i = 1; i < labels.length; i++) {
      const wildcard = fixtures[`*.${labels.slice(i).join(".")}`];
      if (wildcard) return wildcard;
    }
    return fixtures["*"];
  };
  return async (rawName, rawType) => {
    const type = rawType.toUpperCase();
    let name = normaliseName(rawName);
    for (let hops = 0; hops < 8; hops++) {
      const entry = find(name);
      if (!entry) throw dnsError("ENOTFOUND", type, rawName);
      if ("error" in entry) throw dnsError(entry.error, type, rawName);
      const records = (entry as Record<string, unknown[] | undefined>)[type];
      if (records?.length) return structuredClone(type === "TXT" ? records.map(txtStrings) : records);
      const cname = entry.CNAME?.[0];
      if (cname && type !== "CNAME") {
        name = normaliseName(cname);
        continue;
      }
      throw dnsError("ENODATA", type, rawName);
    }
    throw dnsError("ESERVFAIL", type, rawName);
  };
}

/** A TXT record as node:dns returns it: its character-strings, each at most 255 characters. */
function txtStrings(record: unknown): string[] {
  if (Array.isArray(record)) return record as string[];
  const text = record as string;
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += 255) parts.push(text.slice(i, i + 255));
  return parts.length ? parts : [""];
}

const normaliseName = (name: string) => name.trim().toLowerCase().replace(/\.+$/, "");
