import { resolve } from "node:path";

/** Configuration from the environment; every name here is documented in the README's table. */
export interface Config {
  port: number;
  smtpPort: number;
  dataDir: string;
  publicBaseUrl: string;
  inboxDomain: string;
  allowPrivateTargets: boolean;
  chromiumPath?: string;
  browserPoolSize: number;
  signupCredits: number;
  monthlyFreeCredits: number;
  shareLinkSecret?: string;
  shareLinkTtlSeconds: number;
  /** How long an email job's test address accepts its message. */
  emailWindowSeconds: number;
  /** Largest message the inbox accepts; larger ones are refused while DATA streams in (552). */
  smtpMaxBytes: number;
  /** PEM files for STARTTLS on the inbox; without them the inbox offers no STARTTLS. */
  smtpTls?: { keyPath: string; certPath: string };
  /** Bound on each DNS query of the SPF, DKIM and DMARC checks (the system resolver). */
  dnsTimeoutMs: number;
  /** Tests only: a JSON file of DNS records served instead of real DNS (src/capture/email/dns-resolver.ts). */
  dnsFixtures?: string;
  /** An OpenAI-compatible endpoint for the model judge; unset means the offline inspector judges. */
  vision?: { baseURL: string; model: string; apiKey?: string };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const port = intFrom(env.PORT, 8080);
  return {
    port,
    smtpPort: intFrom(env.SMTP_PORT, 2525),
    dataDir: resolve(env.DATA_DIR || "./data"),
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ""),
    inboxDomain: env.ASSAY_INBOX_DOMAIN || "inbox.assay.localhost",
    allowPrivateTargets: env.ASSAY_ALLOW_PRIVATE_TARGETS === "1",
    chromiumPath: env.CHROMIUM_PATH || undefined,
    browserPoolSize: Math.max(1, intFrom(env.ASSAY_BROWSER_POOL_SIZE, 2)),
    signupCredits: intFrom(env.ASSAY_SIGNUP_CREDITS, 1000),
    monthlyFreeCredits: intFrom(env.ASSAY_FREE_MONTHLY_CREDITS, 1000),
    shareLinkSecret: env.ASSAY_SHARE_SECRET || undefined,
    shareLinkTtlSeconds: intFrom(env.ASSAY_SHARE_TTL_SECONDS, 900),
    emailWindowSeconds: intFrom(env.ASSAY_EMAIL_WINDOW_SECONDS, 1800),
    smtpMaxBytes: intFrom(env.ASSAY_SMTP_MAX_BYTES, 10 * 1024 * 1024),
    dnsTimeoutMs: Math.max(100, intFrom(env.ASSAY_DNS_TIMEOUT_MS, 3000)),
    ...(env.ASSAY_DNS_FIXTURES ? { dnsFixtures: resolve(env.ASSAY_DNS_FIXTURES) } : {}),
    ...(env.ASSAY_SMTP_TLS_KEY && env.ASSAY_SMTP_TLS_CERT ? { smtpTls: { keyPath: env.ASSAY_SMTP_TLS_KEY, certPath: env.ASSAY_SMTP_TLS_CERT } } : {}),
    ...(env.ASSAY_VISION_BASE_URL
      ? { vision: { baseURL: env.ASSAY_VISION_BASE_URL, model: env.ASSAY_VISION_MODEL || "gpt-4o-mini", apiKey: env.ASSAY_VISION_API_KEY || undefined } }
      : {}),
  };
}

function intFrom(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number, got ${JSON.stringify(value)}`);
  return n;
}
