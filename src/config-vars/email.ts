import type { VarSpec } from "./declaration";

/** The section "Email jobs and the inbox" (CONFIG_SECTIONS.email), in the order docs/configuration.md lists it. */
export const EMAIL_VARS = {
  ASSAY_INBOX_DOMAIN: {
    section: "email",
    kind: "text",
    default: "inbox.assay.localhost",
    doc: "Domain of one-time test addresses.",
  },
  ASSAY_EMAIL_WINDOW_SECONDS: {
    section: "email",
    kind: "integer",
    default: 1800,
    doc: "How long an email job's test address waits for its message (30 minutes).",
  },
  ASSAY_SMTP_MAX_BYTES: {
    section: "email",
    kind: "integer",
    default: 10485760,
    doc: "Largest message the inbox accepts (refused with 552 while DATA streams in).",
  },
  ASSAY_SMTP_SESSION_SECONDS: {
    section: "email",
    kind: "integer",
    default: 300,
    doc: "An SMTP connection is closed with `421 4.4.2` this long after it opened, whatever it is doing (the idle time-out, 60 s, closes a sender that stops; this one closes a sender that dribbles bytes).",
  },
  ASSAY_SMTP_TLS_KEY: {
    section: "email",
    kind: "path",
    doc: "PEM key; when it and `ASSAY_SMTP_TLS_CERT` are both set the inbox offers STARTTLS.",
  },
  ASSAY_SMTP_TLS_CERT: {
    section: "email",
    kind: "path",
    doc: "PEM certificate; when it and `ASSAY_SMTP_TLS_KEY` are both set the inbox offers STARTTLS.",
  },
  ASSAY_DNS_TIMEOUT_MS: {
    section: "email",
    kind: "integer",
    min: 100,
    default: 3000,
    doc: "Bound on each DNS query of `email-authentication` (SPF, DKIM, DMARC); the whole evaluation is cut at five times this, and a query that times out makes that row `error` (refunded). Also bounds the network guard's lookup of a url job's host or a static_html job's `baseUrl`: DNS that times out or answers EAI_AGAIN refuses the job with 503 `SERVICE_UNAVAILABLE` (retryable, nothing charged).",
  },
  ASSAY_EMAIL_CLIENTS_FILE: {
    section: "email",
    kind: "path",
    doc: 'Narrows the render catalog: `{ "offered": { "desktop-md": ["apple-mail", "gmail-web"] } }` (a form factor not named offers all its clients; its native default must stay); read when needed and again when it changes (see [other dependencies](operating.md#other-dependencies)).',
  },
} as const satisfies Record<string, VarSpec & { section: "email" }>;
