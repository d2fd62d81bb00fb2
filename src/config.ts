import { resolve } from "node:path";
import { availableParallelism } from "node:os";
import { CONFIG_VARS, type ConfigVar, type VarKind, type VarSpec } from "./config-vars";

/** Configuration from the environment, read through the declaration of every variable (src/config-vars.ts, docs/configuration.md). */
export interface Config {
  port: number;
  smtpPort: number;
  /** This node's own files: the SQLite log (or, on PostgreSQL, its copy of the log and read models) and its node id. */
  dataDir: string;
  /** Where screenshots and received messages live (and the share-link secret, without a database): ASSAY_SHARED_DIR, a directory every node mounts; unset, dataDir. */
  sharedDir: string;
  /** ASSAY_S3_BUCKET and its settings: screenshots and received messages in an S3-compatible bucket instead of sharedDir. */
  s3?: { bucket: string; endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };
  /** ASSAY_DATABASE_URL (postgres://…): the event log in PostgreSQL, shared by every node; unset, one SQLite file in dataDir. */
  databaseUrl?: string;
  /** ASSAY_NODE_ID: this node's name among those sharing a database; unset, one made at first start and kept in dataDir. */
  nodeId?: string;
  /** A node not heard from for this long (ASSAY_NODE_TIMEOUT_SECONDS) is taken for dead: another closes its running jobs, refunded. */
  nodeTimeoutSeconds: number;
  publicBaseUrl: string;
  /** Where the public catalog site is published (ASSAY_CATALOG_BASE_URL); unset, it is PUBLIC_BASE_URL (read through catalogBaseUrl). */
  catalogBaseUrl?: string;
  inboxDomain: string;
  allowPrivateTargets: boolean;
  /** ASSAY_WEBKIT_OFF: no WebKit even where it is installed (webpage engines refused, Apple Mail in Chromium). */
  webkitOff: boolean;
  appleMailInWebkit: boolean;
  /** ASSAY_WEBKIT_SESSIONS: WebKit engines (Xvfb, WebKitWebDriver, one warm session each) rendering side by side. */
  webkitSessions: number;
  /** ASSAY_GECKO_OFF: no Gecko even where Firefox is installed (webpage engine refused, Thunderbird in Chromium). */
  geckoOff: boolean;
  /** The firefox-esr binary Gecko renders run in (ASSAY_FIREFOX_PATH; src/capture/engines/gecko.ts). */
  firefoxPath?: string;
  chromiumPath?: string;
  /** The Tesseract binary that reads text in images (ASSAY_TESSERACT_PATH; src/capture/ocr.ts). */
  tesseractPath: string;
  /** Browsers in the capture pool: ASSAY_BROWSER_POOL_SIZE launched here, or one per browser worker when browserEndpoints names any. */
  browserPoolSize: number;
  /**
   * Browser workers to render in instead of launching Chromium here (ASSAY_BROWSER_ENDPOINTS, comma-separated ws:// or
   * wss:// endpoints of `assay browser-worker` or playwright-core's launchServer); empty: browsers are launched here.
   */
  browserEndpoints: string[];
  /** Contexts each browser has open at once (ASSAY_BROWSER_PAGES); further renders wait their turn. */
  browserPagesPerBrowser: number;
  /** Webpage jobs that may wait for a turn (ASSAY_BROWSER_QUEUE); past it a job is refused before its charge. */
  browserQueueLimit: number;
  signupCredits: number;
  monthlyFreeCredits: number;
  /** A feedback sets file replacing the embedded one (src/catalog/feedback-sets.json), validated at start. */
  feedbackSetsFile?: string;
  /** The operator's plan catalog (JSON); unset, the built-in one (src/catalog/plans.json). */
  plansFile?: string;
  /** Where organizations' plans come from: "local" (the plan the log records, changed by an admin or the operator) or "stripe". */
  billingProvider: string;
  /** How often the monthly grant sweeps every organization, and once at start (0: never; requests still grant lazily). */
  grantSweepSeconds: number;
  /** Tests only: days added to the clock the monthly grant reads its period from, so a test can be in another month. */
  clockOffsetDays: number;
  /** The Stripe provider's account; without secretKey the provider is unconfigured and plan-dependent requests are SERVICE_UNAVAILABLE. */
  stripe: { secretKey?: string; apiBase?: string; freePrice?: string };
  /** A remote provider's plan resolution is reused this long without asking it again. */
  planFreshSeconds: number;
  /** While the provider is unreachable, a resolution at most this old is still served (spec §8.7: at most 300). */
  planStaleSeconds: number;
  /** The operator's narrowing of the render catalog (which clients are offered per form factor); read when needed, again when it changes. */
  emailClientsFile?: string;
  shareLinkSecret?: string;
  shareLinkTtlSeconds: number;
  /** How long an email job's test address accepts its message. */
  emailWindowSeconds: number;
  /** Pages one run may hold (ASSAY_RUN_MAX_PAGES); more is RUN_TOO_MANY_PAGES. */
  runMaxPages: number;
  /** Largest message the inbox accepts; larger ones are refused while DATA streams in (552). */
  smtpMaxBytes: number;
  /** An SMTP connection is closed (421) this long after it opened, whatever it is doing. */
  smtpSessionSeconds: number;
  /** PEM files for STARTTLS on the inbox; without them the inbox offers no STARTTLS. */
  smtpTls?: { keyPath: string; certPath: string };
  /** Bound on each DNS query of the SPF, DKIM and DMARC checks (the system resolver). */
  dnsTimeoutMs: number;
  /** Tests only: a JSON file of DNS records served instead of real DNS (src/capture/email/dns-resolver.ts). */
  dnsFixtures?: string;
  /** The outbound SMTP relay sign-in links go through (smtp://host:port); unset, the links are written to the log. */
  mailRelayUrl?: string;
  /** The sender of sign-in mail. */
  mailFrom: string;
  /** Email domains allowed to sign in (lower case); empty means any. */
  signinDomains: string[];
  /** How long a sign-in link works (15 minutes). */
  signinLinkTtlSeconds: number;
  /** Sign-in links one address may be sent per link lifetime (a mailbox is not to be flooded); more is SIGNIN_RATE_LIMITED. */
  signinLinksPerAddress: number;
  /** Sign-in links one client address may ask for per link lifetime, whatever the recipients; more is SIGNIN_RATE_LIMITED. */
  signinLinksPerClient: number;
  /** Sessions started without a credential (a sign-in link, OpenID, an invitation) from one client address per window; more is SESSION_START_RATE_LIMITED. */
  signinsPerClient: number;
  signinWindowSeconds: number;
  /**
   * Organizations opened from one client address per window, whichever way: POST /api/signup, create_account, or a
   * first sign-in (by link or OpenID) of an email with no organization; more is SIGNUP_RATE_LIMITED.
   */
  signupsPerAddress: number;
  signupWindowSeconds: number;
  /** Behind a reverse proxy: take the client's address from the last X-Forwarded-For entry, not the socket. */
  trustForwardedFor: boolean;
  /** How long an invitation link works (7 days). */
  invitationTtlSeconds: number;
  /** A session ends after this long without a request (sliding: each use renews it, at most once an hour). */
  sessionIdleSeconds: number;
  /** A session ends this long after sign-in however much it is used. */
  sessionMaxSeconds: number;
  /** OpenID Connect sign-in (authorization code with PKCE), when all three are set; the redirect URI is PUBLIC_BASE_URL/api/session/oidc/callback. */
  oidc?: { issuer: string; clientId: string; clientSecret: string };
  /** How long a device authorization's codes work (RFC 8628 expires_in; 10 minutes). */
  deviceCodeTtlSeconds: number;
  /** Device codes one client address may ask for per code lifetime; more is DEVICE_CODE_RATE_LIMITED. */
  deviceCodesPerAddress: number;
  /** How long a rotated key's previous secret keeps working (0: not at all). */
  keyRotationOverlapSeconds: number;
  /** The anonymous playground: what a run checks, where runs are kept, and the two limits on who may start one. */
  playground: {
    /** Check ids, or one validation set id, resolved against the catalog at start (src/services/playground.ts). */
    checks: string[];
    /** The one capture size a run is shown at. */
    viewport: string;
    /** How long a run (and its screenshot) is kept in memory. */
    runTtlSeconds: number;
    /** At most this many runs are kept; past it the oldest is dropped. */
    maxRuns: number;
    /** Runs one anonymous session (its cookie) may start; more is PLAYGROUND_LIMIT_REACHED. */
    runsPerSession: number;
    /** Runs one client address may start per window; more is PLAYGROUND_RATE_LIMITED. */
    runsPerAddress: number;
    windowSeconds: number;
  };
  /** Site discovery: how many one organization may ask for per window; more is DISCOVERY_RATE_LIMITED. */
  discovery: { perOrganization: number; windowSeconds: number };
  /** Webhooks: how many endpoints an organization may have, and how a delivery not taken is retried. */
  webhooks: {
    endpointsPerOrganization: number;
    /** The first retry after this many seconds, each next one after twice as long, within the window (from the announcing event or a replay). */
    retry: { baseSeconds: number; windowSeconds: number };
  };
  /** An OpenAI-compatible endpoint for the model judge; unset means the offline inspector judges. */
  vision?: {
    baseURL: string;
    model: string;
    apiKey?: string;
    timeoutMs: number;
    /** ASSAY_VISION_CHECKS: check ids, or ["all"]; checked against the catalog at start (src/judge/enabled.ts). */
    checks: string[];
    /** ASSAY_VISION_MIN_AGREEMENT: a percentage, or 0 (off). */
    minAgreement: number;
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const read = configReader(env);
  const port = read.int("PORT");
  const dataDir = resolve(read.text("DATA_DIR"));
  const browserEndpoints = browserEndpointsFrom(read.list("ASSAY_BROWSER_ENDPOINTS"));
  const browserPoolSize = browserEndpoints.length || read.int("ASSAY_BROWSER_POOL_SIZE");
  const file = (
    name: "ASSAY_FEEDBACK_SETS_FILE" | "ASSAY_PLANS_FILE" | "ASSAY_EMAIL_CLIENTS_FILE" | "ASSAY_DNS_FIXTURES",
  ) => {
    const value = read.text(name);
    return value === undefined ? undefined : resolve(value);
  };
  const s3Bucket = read.text("ASSAY_S3_BUCKET");
  const databaseUrl = read.text("ASSAY_DATABASE_URL");
  const nodeId = read.text("ASSAY_NODE_ID");
  const oidc = {
    issuer: read.text("ASSAY_OIDC_ISSUER"),
    clientId: read.text("ASSAY_OIDC_CLIENT_ID"),
    clientSecret: read.text("ASSAY_OIDC_CLIENT_SECRET"),
  };
  const smtpTls = { keyPath: read.text("ASSAY_SMTP_TLS_KEY"), certPath: read.text("ASSAY_SMTP_TLS_CERT") };
  const visionBaseUrl = read.text("ASSAY_VISION_BASE_URL");
  return {
    port,
    smtpPort: read.int("SMTP_PORT"),
    dataDir,
    sharedDir: resolve(read.text("ASSAY_SHARED_DIR") ?? dataDir),
    ...given("s3", s3Bucket ? s3From(s3Bucket, read) : undefined),
    ...given("databaseUrl", databaseUrl ? databaseUrlFrom(databaseUrl) : undefined),
    ...given("nodeId", nodeId ? nodeIdFrom(nodeId) : undefined),
    nodeTimeoutSeconds: read.int("ASSAY_NODE_TIMEOUT_SECONDS"),
    publicBaseUrl: (read.text("PUBLIC_BASE_URL") ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    ...given("catalogBaseUrl", read.text("ASSAY_CATALOG_BASE_URL")?.replace(/\/+$/, "")),
    inboxDomain: read.text("ASSAY_INBOX_DOMAIN"),
    allowPrivateTargets: read.flag("ASSAY_ALLOW_PRIVATE_TARGETS"),
    chromiumPath: read.text("CHROMIUM_PATH"),
    webkitOff: read.flag("ASSAY_WEBKIT_OFF"),
    appleMailInWebkit: read.flag("ASSAY_APPLE_MAIL_IN_WEBKIT"),
    webkitSessions: read.int("ASSAY_WEBKIT_SESSIONS"),
    geckoOff: read.flag("ASSAY_GECKO_OFF"),
    firefoxPath: read.text("ASSAY_FIREFOX_PATH"),
    tesseractPath: read.text("ASSAY_TESSERACT_PATH") ?? "tesseract",
    browserPoolSize,
    browserEndpoints,
    // A render keeps about one core busy (the renderer's main thread), so this machine's cores are shared out among its
    // browsers. A worker's cores are not known here: one page each, unless ASSAY_BROWSER_PAGES says what they can take.
    browserPagesPerBrowser: read.int(
      "ASSAY_BROWSER_PAGES",
      browserEndpoints.length ? 1 : Math.floor(availableParallelism() / browserPoolSize),
    ),
    browserQueueLimit: read.int("ASSAY_BROWSER_QUEUE"),
    signupCredits: read.int("ASSAY_SIGNUP_CREDITS"),
    monthlyFreeCredits: read.int("ASSAY_FREE_MONTHLY_CREDITS"),
    ...given("feedbackSetsFile", file("ASSAY_FEEDBACK_SETS_FILE")),
    ...given("plansFile", file("ASSAY_PLANS_FILE")),
    billingProvider: read.text("ASSAY_BILLING_PROVIDER"),
    grantSweepSeconds: read.int("ASSAY_GRANT_SWEEP_SECONDS"),
    clockOffsetDays: read.int("ASSAY_CLOCK_OFFSET_DAYS"),
    stripe: {
      ...given("secretKey", read.text("ASSAY_STRIPE_SECRET_KEY")),
      ...given("apiBase", read.text("ASSAY_STRIPE_API_BASE")),
      ...given("freePrice", read.text("ASSAY_STRIPE_FREE_PRICE")),
    },
    planFreshSeconds: read.int("ASSAY_PLAN_CACHE_SECONDS"),
    planStaleSeconds: read.int("ASSAY_PLAN_STALE_SECONDS"),
    ...given("emailClientsFile", file("ASSAY_EMAIL_CLIENTS_FILE")),
    shareLinkSecret: read.text("ASSAY_SHARE_SECRET"),
    shareLinkTtlSeconds: read.int("ASSAY_SHARE_TTL_SECONDS"),
    emailWindowSeconds: read.int("ASSAY_EMAIL_WINDOW_SECONDS"),
    runMaxPages: read.int("ASSAY_RUN_MAX_PAGES"),
    smtpMaxBytes: read.int("ASSAY_SMTP_MAX_BYTES"),
    smtpSessionSeconds: read.int("ASSAY_SMTP_SESSION_SECONDS"),
    ...given("mailRelayUrl", read.text("ASSAY_MAIL_RELAY_URL")),
    mailFrom: read.text("ASSAY_MAIL_FROM"),
    signinDomains: read.list("ASSAY_SIGNIN_DOMAINS").map((d) => d.toLowerCase()),
    signinLinkTtlSeconds: read.int("ASSAY_SIGNIN_LINK_TTL_SECONDS"),
    signinLinksPerAddress: read.int("ASSAY_SIGNIN_LINKS_PER_ADDRESS"),
    signinLinksPerClient: read.int("ASSAY_SIGNIN_LINKS_PER_CLIENT"),
    signinsPerClient: read.int("ASSAY_SIGNINS_PER_CLIENT"),
    signinWindowSeconds: read.int("ASSAY_SIGNIN_WINDOW_SECONDS"),
    signupsPerAddress: read.int("ASSAY_SIGNUPS_PER_ADDRESS"),
    signupWindowSeconds: read.int("ASSAY_SIGNUP_WINDOW_SECONDS"),
    trustForwardedFor: read.flag("ASSAY_TRUST_FORWARDED_FOR"),
    invitationTtlSeconds: read.int("ASSAY_INVITATION_TTL_SECONDS"),
    sessionIdleSeconds: read.int("ASSAY_SESSION_TTL_SECONDS"),
    sessionMaxSeconds: read.int("ASSAY_SESSION_MAX_SECONDS"),
    ...(oidc.issuer && oidc.clientId && oidc.clientSecret
      ? { oidc: { issuer: oidc.issuer, clientId: oidc.clientId, clientSecret: oidc.clientSecret } }
      : {}),
    deviceCodeTtlSeconds: read.int("ASSAY_DEVICE_CODE_TTL_SECONDS"),
    deviceCodesPerAddress: read.int("ASSAY_DEVICE_CODES_PER_ADDRESS"),
    keyRotationOverlapSeconds: read.int("ASSAY_KEY_ROTATION_OVERLAP_SECONDS"),
    dnsTimeoutMs: read.int("ASSAY_DNS_TIMEOUT_MS"),
    ...given("dnsFixtures", file("ASSAY_DNS_FIXTURES")),
    ...(smtpTls.keyPath && smtpTls.certPath
      ? { smtpTls: { keyPath: smtpTls.keyPath, certPath: smtpTls.certPath } }
      : {}),
    playground: {
      checks: read.list("ASSAY_PLAYGROUND_CHECKS"),
      viewport: read.text("ASSAY_PLAYGROUND_VIEWPORT"),
      runTtlSeconds: read.int("ASSAY_PLAYGROUND_RUN_TTL_SECONDS"),
      maxRuns: read.int("ASSAY_PLAYGROUND_MAX_RUNS"),
      runsPerSession: read.int("ASSAY_PLAYGROUND_RUNS_PER_SESSION"),
      runsPerAddress: read.int("ASSAY_PLAYGROUND_RUNS_PER_ADDRESS"),
      windowSeconds: read.int("ASSAY_PLAYGROUND_WINDOW_SECONDS"),
    },
    discovery: {
      perOrganization: read.int("ASSAY_DISCOVERIES_PER_ORGANIZATION"),
      windowSeconds: read.int("ASSAY_DISCOVERY_WINDOW_SECONDS"),
    },
    webhooks: {
      endpointsPerOrganization: read.int("ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION"),
      retry: {
        baseSeconds: read.int("ASSAY_WEBHOOK_RETRY_BASE_SECONDS"),
        windowSeconds: read.int("ASSAY_WEBHOOK_RETRY_WINDOW_SECONDS"),
      },
    },
    ...(visionBaseUrl
      ? {
          vision: {
            baseURL: visionBaseUrl,
            model: read.text("ASSAY_VISION_MODEL"),
            apiKey: read.text("ASSAY_VISION_API_KEY"),
            timeoutMs: read.int("ASSAY_VISION_TIMEOUT_SECONDS") * 1000,
            checks: read.list("ASSAY_VISION_CHECKS"),
            minAgreement: read.int("ASSAY_VISION_MIN_AGREEMENT"),
          },
        }
      : {}),
  };
}

/** `{ key: value }`, or nothing when the value is unset: an optional field is absent rather than undefined. */
function given<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

type Vars = typeof CONFIG_VARS;
type VarOfKind<K extends VarKind> = { [N in ConfigVar]: Vars[N]["kind"] extends K ? N : never }[ConfigVar];
/** A string variable's value: a string when it declares a default, else possibly undefined. */
type TextOf<N extends ConfigVar> = Vars[N] extends { default: string } ? string : string | undefined;

/**
 * Reads declared variables only (a name CONFIG_VARS lacks does not compile), falling back to their declared
 * defaults and keeping integers within their declared bounds. An empty value is an unset one.
 */
export function configReader(env: Record<string, string | undefined>) {
  const raw = (name: ConfigVar): string | undefined => env[name] || undefined;
  const spec = (name: ConfigVar): VarSpec => CONFIG_VARS[name];
  return {
    /** A whole number; `fallback` for a default computed here (the declaration says it in words). */
    int(name: VarOfKind<"integer">, fallback?: number): number {
      const { default: declared, min = 0, max = Infinity } = spec(name);
      const value = raw(name);
      const n = value === undefined ? (fallback ?? declared) : Number(value);
      if (typeof n !== "number") throw new Error(`${name} declares no default`);
      if (!Number.isInteger(n) || n < 0)
        throw new Error(`${name}: expected a whole number, got ${JSON.stringify(value)}`);
      return Math.min(max, Math.max(min, n));
    },
    text<N extends VarOfKind<"text" | "path" | "url" | "secret">>(name: N): TextOf<N> {
      return (raw(name) ?? spec(name).default) as TextOf<N>;
    },
    flag(name: VarOfKind<"flag">): boolean {
      return raw(name) === "1";
    },
    /** Comma-separated, blanks around entries dropped. */
    list(name: VarOfKind<"list">): string[] {
      return String(raw(name) ?? spec(name).default ?? "")
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean);
    },
  };
}

/** The base of every catalog link (pages, canonical URLs, the sitemap, records' links): the catalog's own, or PUBLIC_BASE_URL. */
export function catalogBaseUrl(config: Pick<Config, "catalogBaseUrl" | "publicBaseUrl">): string {
  return config.catalogBaseUrl ?? config.publicBaseUrl;
}

/** Now, as the monthly grant's periods read it (moved by ASSAY_CLOCK_OFFSET_DAYS in tests). */
export function grantClock(config: Pick<Config, "clockOffsetDays">): Date {
  return new Date(Date.now() + config.clockOffsetDays * 86_400_000);
}

/**
 * ASSAY_BROWSER_ENDPOINTS: ws:// or wss:// URLs separated by commas (blanks around them ignored). Anything else, or
 * one named twice (a worker's one browser counted twice), stops the start naming the variable and the entry.
 */
function browserEndpointsFrom(entries: string[]): string[] {
  const endpoints: string[] = [];
  for (const entry of entries) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {}
    if (!url || (url.protocol !== "ws:" && url.protocol !== "wss:") || !url.hostname) {
      throw new Error(
        `ASSAY_BROWSER_ENDPOINTS: ${JSON.stringify(entry)} is not a ws:// or wss:// URL (expected e.g. ws://10.0.0.5:3000/<path>, as \`assay browser-worker\` prints it)`,
      );
    }
    if (endpoints.includes(url.href))
      throw new Error(`ASSAY_BROWSER_ENDPOINTS names ${JSON.stringify(entry)} twice; each worker is named once`);
    endpoints.push(url.href);
  }
  return endpoints;
}

/** A PostgreSQL URL; anything else stops the start naming the variable (a typo must not silently mean SQLite). */
function databaseUrlFrom(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`ASSAY_DATABASE_URL is not a URL: give postgres://user:password@host:port/database`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(
      `ASSAY_DATABASE_URL must be a postgres:// URL (got ${url.protocol}//…); unset it to keep the log in SQLite`,
    );
  }
  return value;
}

function nodeIdFrom(value: string): string {
  if (!/^[\w.-]{1,64}$/.test(value)) throw new Error("ASSAY_NODE_ID must be 1 to 64 letters, digits, '.', '_' or '-'");
  return value;
}

/** The bucket and, for an S3-compatible service other than AWS, its endpoint (an http(s) URL); credentials as given. */
function s3From(bucket: string, read: ReturnType<typeof configReader>): NonNullable<Config["s3"]> {
  const endpoint = read.text("ASSAY_S3_ENDPOINT");
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint))
    throw new Error("ASSAY_S3_ENDPOINT must be an http:// or https:// URL (the S3-compatible service)");
  const [region, accessKeyId, secretAccessKey] = [
    read.text("ASSAY_S3_REGION"),
    read.text("ASSAY_S3_ACCESS_KEY_ID"),
    read.text("ASSAY_S3_SECRET_ACCESS_KEY"),
  ];
  return {
    bucket,
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(accessKeyId ? { accessKeyId } : {}),
    ...(secretAccessKey ? { secretAccessKey } : {}),
  };
}
