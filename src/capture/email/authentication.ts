import { authenticate } from "mailauth";
import { getAlignment } from "mailauth/lib/tools.js";
import type { Config } from "../../config";
import { dnsResolverFor, type DnsResolver } from "./dns-resolver";

/** How one SPF, DKIM or DMARC evaluation came out, in mailauth's (RFC 8601) result words. */
export type AuthResult =
  | "pass"
  | "fail"
  | "softfail"
  | "neutral"
  | "none"
  | "temperror"
  | "permerror"
  | "policy"
  | "skipped";

export interface SpfOutcome {
  result: AuthResult;
  /** The domain SPF was evaluated for: the MAIL FROM domain (or the HELO name for a null sender). */
  domain: string;
  mailFrom: string;
  clientIp: string;
  helo: string | null;
  /** The SPF record that decided, when one was found. */
  record: string | null;
  comment: string | null;
  /** The SPF domain is aligned with the From domain (relaxed unless the DMARC record says aspf=s). */
  aligned: boolean;
}

export interface DkimOutcome {
  result: AuthResult;
  signingDomain: string;
  selector: string | null;
  algorithm: string | null;
  comment: string | null;
  /** The d= domain is aligned with the From domain (relaxed unless the DMARC record says adkim=s). */
  aligned: boolean;
}

export interface DmarcOutcome {
  result: AuthResult;
  /** The organizational domain of the From domain. */
  domain: string;
  record: string | null;
  policy: string | null;
  error: string | null;
  strict: { spf: boolean; dkim: boolean };
}

/**
 * SPF, DKIM and DMARC for the message as it arrived, computed once per job by mailauth (only when a selected
 * check reads them) with the SMTP client's IP, HELO and MAIL FROM as the inbox recorded them.
 */
export interface EmailAuthentication {
  /** The domain of the single From address; null when the message has none or several. */
  fromDomain: string | null;
  /** Null when SPF could not be evaluated (the client IP was not recorded), with the reason in spfSkipped. */
  spf: SpfOutcome | null;
  spfSkipped?: string;
  /** One entry per DKIM-Signature header; empty when the message is unsigned. */
  dkim: DkimOutcome[];
  /** Null when there is no single From address to evaluate DMARC for. */
  dmarc: DmarcOutcome | null;
}

export interface AuthenticationInput {
  mailFrom: string;
  remoteAddress?: string;
  helo?: string;
}

/**
 * Authenticates a received message with the configured DNS (ASSAY_DNS_FIXTURES in tests, else the system's
 * resolvers, each query bounded by ASSAY_DNS_TIMEOUT_MS and the whole evaluation by five times that).
 * Never throws; see authenticateWith.
 */
export async function authenticateEmail(
  raw: Uint8Array,
  envelope: AuthenticationInput,
  config: Pick<Config, "dnsTimeoutMs" | "dnsFixtures" | "inboxDomain">,
): Promise<EmailAuthentication | { error: string }> {
  let resolver: DnsResolver;
  try {
    resolver = dnsResolverFor(config);
  } catch (e) {
    return { error: `SPF, DKIM and DMARC could not be evaluated: ${(e as Error).message.split("\n")[0]}` };
  }
  return authenticateWith(raw, envelope, { resolver, mta: config.inboxDomain, deadlineMs: 5 * config.dnsTimeoutMs });
}

/**
 * Runs mailauth on the raw message. Never throws: a failure of the whole evaluation (or one that outlasts
 * `deadlineMs`) comes back as `{ error }`, which the checks report as an error row. A DNS failure inside one
 * mechanism comes back as that mechanism's `temperror`.
 */
export async function authenticateWith(
  raw: Uint8Array,
  envelope: AuthenticationInput,
  opts: { resolver: DnsResolver; mta: string; deadlineMs: number },
): Promise<EmailAuthentication | { error: string }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`authentication took longer than ${opts.deadlineMs} ms (DNS too slow)`)),
        opts.deadlineMs,
      );
    });
    return await Promise.race([evaluate(raw, envelope, opts), deadline]);
  } catch (e) {
    return { error: `SPF, DKIM and DMARC could not be evaluated: ${(e as Error).message.split("\n")[0]}` };
  } finally {
    clearTimeout(timer);
  }
}

async function evaluate(
  raw: Uint8Array,
  envelope: AuthenticationInput,
  opts: { resolver: DnsResolver; mta: string },
): Promise<EmailAuthentication> {
  const ip = envelope.remoteAddress?.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");
  const res = await authenticate(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), {
    ...(ip ? { ip } : {}),
    ...(envelope.helo ? { helo: envelope.helo } : {}),
    ...(envelope.mailFrom ? { sender: envelope.mailFrom } : {}),
    mta: opts.mta,
    resolver: opts.resolver as never,
    disableArc: true,
    disableBimi: true,
  });
  const froms = res.dkim.headerFrom ?? [];
  const fromDomain =
    froms.length === 1 ? (froms[0]!.split("@").pop() ?? "").toLowerCase().replace(/\.$/, "") || null : null;
  const dmarc = res.dmarc || null;
  const strict = {
    spf: !!dmarc && dmarc.alignment?.spf?.strict === true,
    dkim: !!dmarc && dmarc.alignment?.dkim?.strict === true,
  };
  const aligned = (domain: string | undefined, isStrict: boolean) => {
    if (!fromDomain || !domain) return false;
    const d = domain.toLowerCase().replace(/\.$/, "");
    return isStrict ? d === fromDomain : !!getAlignment(fromDomain, [d]);
  };
  const spf = ip && res.spf ? res.spf : null;
  return {
    fromDomain,
    spf: spf
      ? {
          result: spf.status.result as AuthResult,
          domain: spf.domain,
          mailFrom: spf["envelope-from"] ?? envelope.mailFrom,
          clientIp: spf["client-ip"],
          helo: envelope.helo ?? null,
          record: spf.rr ?? null,
          comment: spf.status.comment ?? null,
          aligned: aligned(spf.domain, strict.spf),
        }
      : null,
    ...(spf
      ? {}
      : { spfSkipped: "The inbox did not record the SMTP client's IP address, so SPF could not be evaluated." }),
    dkim: (res.dkim.results ?? [])
      .filter((r) => r.signingDomain || r.status.result !== "none")
      .map((r) => ({
        result: r.status.result as AuthResult,
        signingDomain: r.signingDomain ?? "",
        selector: r.selector ?? null,
        // mailauth reports the a= tag as `algo` (its typings say `algorithm`).
        algorithm: (r as { algo?: string }).algo ?? r.algorithm ?? null,
        comment: r.status.comment ?? null,
        aligned: aligned(r.signingDomain, strict.dkim),
      })),
    dmarc: dmarc
      ? {
          result: dmarc.status.result as AuthResult,
          domain: dmarc.domain,
          record: dmarc.rr ?? null,
          policy: dmarc.policy ?? null,
          error: dmarc.error ?? null,
          strict,
        }
      : null,
  };
}
