/**
 * Every environment variable Assay reads, declared once: its section, format, default and what it does.
 * src/config.ts reads the server's through this table (a name not declared here does not compile), and
 * `npm run docs` writes docs/configuration.md from it; test/repo/config-vars.test.ts checks that every variable
 * read anywhere in the repository is declared here, and every one declared is read.
 *
 * `doc` is Markdown as docs/configuration.md shows it (links are relative to docs/). `default` is the value the
 * reader falls back to; `defaultText` says in words a default that is computed or is no value at all.
 */

export const CONFIG_SECTIONS = {
  server: { title: "Server", intro: "The process: its ports, its files and the address it is known by." },
  cluster: {
    title: "Storage and several nodes",
    intro:
      "Where the event log, screenshots and received messages are kept, and how nodes sharing a database know each other ([scaling](scaling.md)).",
  },
  browsers: {
    title: "Browsers",
    intro:
      "The capture pool: Chromium launched here or remote browser workers, and how many pages each renders at once.",
  },
  email: {
    title: "Email jobs and the inbox",
    intro:
      "The SMTP inbox that receives email jobs' messages, and the checks that read them ([email jobs](email-jobs.md)).",
  },
  signin: {
    title: "Sign-in, sessions and keys",
    intro: "How people sign in and how long what they hold keeps working ([people and keys](people-and-keys.md)).",
  },
  limits: {
    title: "Limits on callers without a credential",
    intro:
      "Everything a caller without a key or session may make the server write is limited per client address (an IPv4 address, or an IPv6 /64).",
  },
  billing: {
    title: "Credits, plans and billing",
    intro:
      "What organizations are granted and where their plan comes from ([plans and billing](plans-and-billing.md)).",
  },
  judges: {
    title: "Judges",
    intro: "Who judges visual checks: the offline inspector, or a vision model ([jobs](jobs.md#judges)).",
  },
  playground: {
    title: "The anonymous playground",
    intro:
      "What `/playground` runs for visitors without an account, and how much ([catalog and playground](catalog-and-playground.md#the-anonymous-playground)).",
  },
  webhooks: {
    title: "Webhooks",
    intro:
      "The endpoints organizations register to hear of settled jobs instead of polling, and how their deliveries are retried ([webhooks](webhooks.md)).",
  },
  catalog: {
    title: "The public catalog site",
    intro: "Where the check catalog's pages are published ([catalog and playground](catalog-and-playground.md)).",
  },
  tests: {
    title: "For tests only",
    intro:
      "Never set these in production: they open loopback, move the clock, fake DNS or crash the server on purpose.",
  },
  cli: {
    title: "The command line client",
    intro:
      "Read by `assay login`, `status`, `run`, `start`, `wait`, `install` and the other client commands, not by the server ([command line](cli.md)).",
  },
  development: {
    title: "Development: benchmarks, accuracy and the self-check",
    intro:
      "Read by `npm run bench`, `npm run accuracy` and the catalog's self-check test ([development](development.md)).",
  },
} as const;

export type ConfigSection = keyof typeof CONFIG_SECTIONS;

/** integer: a whole number, 0 or more; flag: on when `1`; list: comma-separated; the others are strings as given. */
export type VarKind = "integer" | "flag" | "list" | "text" | "path" | "url" | "secret";

export interface VarSpec {
  section: ConfigSection;
  kind: VarKind;
  /** integer: a value below min is read as min, one above max as max. */
  min?: number;
  max?: number;
  default?: number | string;
  defaultText?: string;
  doc: string;
}

export const CONFIG_VARS = {
  // server
  PORT: { section: "server", kind: "integer", default: 8080, doc: "HTTP port." },
  SMTP_PORT: { section: "server", kind: "integer", default: 2525, doc: "SMTP inbox port (email jobs)." },
  DATA_DIR: {
    section: "server",
    kind: "path",
    default: "./data",
    doc: "This node's files: the SQLite event log (`assay.sqlite`), or with PostgreSQL this node's copy of the log and its read models (`assay-replica.sqlite`); its node id (`node-id`); and, unless `ASSAY_SHARED_DIR` is set, stored captures and received messages.",
  },
  PUBLIC_BASE_URL: {
    section: "server",
    kind: "url",
    defaultText: "`http://localhost:$PORT`",
    doc: "The address links in responses point at.",
  },
  ASSAY_TRUST_FORWARDED_FOR: {
    section: "server",
    kind: "flag",
    doc: "`1` behind a reverse proxy: the client's address is the last `X-Forwarded-For` entry (what the proxy saw), not the socket's. Leave unset otherwise, or anyone could claim any address.",
  },

  // cluster
  ASSAY_DATABASE_URL: {
    section: "cluster",
    kind: "url",
    doc: "`postgres://user:password@host:port/database`: the event log in PostgreSQL, shared by every node that names it ([scaling](scaling.md)); unset, one SQLite file in `DATA_DIR`. Anything but a postgres URL stops the start.",
  },
  ASSAY_SHARED_DIR: {
    section: "cluster",
    kind: "path",
    defaultText: "`DATA_DIR`",
    doc: "Where screenshots, received messages and the share-link secret live: with several nodes, a directory every node mounts (NFS or the like), so any node serves any capture and any node's inbox can be checked by another.",
  },
  ASSAY_S3_BUCKET: {
    section: "cluster",
    kind: "text",
    doc: "Keep screenshots and received messages in this S3 bucket instead of `ASSAY_SHARED_DIR` (through Bun's own S3 client): with several nodes, a bucket every node reaches.",
  },
  ASSAY_S3_ENDPOINT: {
    section: "cluster",
    kind: "url",
    defaultText: "AWS",
    doc: "The `http(s)://` address of an S3-compatible service (MinIO, Ceph, R2, …); anything else stops the start.",
  },
  ASSAY_S3_REGION: {
    section: "cluster",
    kind: "text",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's region.",
  },
  ASSAY_S3_ACCESS_KEY_ID: {
    section: "cluster",
    kind: "text",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's access key id.",
  },
  ASSAY_S3_SECRET_ACCESS_KEY: {
    section: "cluster",
    kind: "secret",
    defaultText: "the `S3_*`/`AWS_*` environment, as Bun's client reads it",
    doc: "The bucket's secret access key.",
  },
  ASSAY_NODE_ID: {
    section: "cluster",
    kind: "text",
    defaultText: "made at first start, kept in `DATA_DIR/node-id`",
    doc: "This node's name among those sharing a database (1–64 letters, digits, `.`, `_`, `-`); recorded with every event it appends, so its running jobs are known as its own.",
  },
  ASSAY_NODE_TIMEOUT_SECONDS: {
    section: "cluster",
    kind: "integer",
    min: 2,
    default: 30,
    doc: "A node not heard from this long (it says it is alive every third of it) is taken for dead: another node closes the webpage jobs it was running as interrupted, refunded, and checks the messages its inbox took.",
  },
  ASSAY_SHARE_SECRET: {
    section: "cluster",
    kind: "secret",
    defaultText:
      "random: kept in the PostgreSQL database when nodes share one, else in `ASSAY_SHARED_DIR/share-link.secret`",
    doc: "Key that signs screenshot share links (every node must sign with the same one).",
  },
  ASSAY_SHARE_TTL_SECONDS: {
    section: "cluster",
    kind: "integer",
    default: 900,
    doc: "Lifetime of a screenshot share link (15 minutes).",
  },

  // browsers
  CHROMIUM_PATH: {
    section: "browsers",
    kind: "path",
    defaultText: "found on `PATH`",
    doc: "Chromium or Chrome binary (also for `assay browser-worker`).",
  },
  PATH: {
    section: "browsers",
    kind: "text",
    defaultText: "the system's",
    doc: "Without `CHROMIUM_PATH`, its directories (colon-separated) are searched for `chromium`, `chromium-browser`, `google-chrome` or `google-chrome-stable`.",
  },
  ASSAY_BROWSER_POOL_SIZE: {
    section: "browsers",
    kind: "integer",
    min: 1,
    default: 2,
    doc: "Warm browsers in the capture pool (ignored with `ASSAY_BROWSER_ENDPOINTS`: one browser per worker).",
  },
  ASSAY_BROWSER_ENDPOINTS: {
    section: "browsers",
    kind: "list",
    doc: "Comma-separated `ws://` or `wss://` endpoints of browser workers (`assay browser-worker`, or playwright-core's `launchServer` with Assay's flags); set, the pool renders in them instead of launching Chromium here (no local Chromium needed). A malformed entry, or one named twice, stops the start naming this variable. See [browsers as remote workers](scaling.md#browsers-as-remote-workers).",
  },
  ASSAY_BROWSER_PAGES: {
    section: "browsers",
    kind: "integer",
    min: 1,
    defaultText: "cores ÷ browsers, at least 1; `1` per worker with `ASSAY_BROWSER_ENDPOINTS`",
    doc: "Pages each browser renders at once; further renders (of jobs and messages) wait their turn in arrival order.",
  },
  ASSAY_BROWSER_QUEUE: {
    section: "browsers",
    kind: "integer",
    default: 64,
    doc: "Webpage jobs that may wait for a turn; past it a job is refused with `SERVICE_UNAVAILABLE` (503, `Retry-After`) before it is charged.",
  },

  // email
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

  // sign-in
  ASSAY_MAIL_RELAY_URL: {
    section: "signin",
    kind: "url",
    doc: "Outbound SMTP relay for sign-in and invitation links (`smtp://host:port`); unset, links are written to the server's log.",
  },
  ASSAY_MAIL_FROM: {
    section: "signin",
    kind: "text",
    default: "Assay <no-reply@assay.localhost>",
    doc: "Sender of sign-in mail.",
  },
  ASSAY_SIGNIN_DOMAINS: {
    section: "signin",
    kind: "list",
    defaultText: "unset (any)",
    doc: "Comma-separated email domains allowed to sign in, and to open an account with `POST /api/signup` or `create_account` (an account no one can sign in to could never rotate or revoke its key); others get `403 UNAUTHORIZED_DOMAIN`, and nothing is created or sent.",
  },
  ASSAY_OIDC_ISSUER: {
    section: "signin",
    kind: "url",
    doc: "With `ASSAY_OIDC_CLIENT_ID` and `ASSAY_OIDC_CLIENT_SECRET` (all three set), sign-in through that OpenID Connect provider (authorization code with PKCE); register `PUBLIC_BASE_URL/api/session/oidc/callback` as the client's redirect URI.",
  },
  ASSAY_OIDC_CLIENT_ID: {
    section: "signin",
    kind: "text",
    doc: "The OpenID Connect client's id (see `ASSAY_OIDC_ISSUER`).",
  },
  ASSAY_OIDC_CLIENT_SECRET: {
    section: "signin",
    kind: "secret",
    doc: "The OpenID Connect client's secret (see `ASSAY_OIDC_ISSUER`).",
  },
  ASSAY_SIGNIN_LINK_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 900,
    doc: "Lifetime of a sign-in link (15 minutes).",
  },
  ASSAY_INVITATION_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 604800,
    doc: "Lifetime of an invitation link (7 days).",
  },
  ASSAY_SESSION_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 604800,
    doc: "A session ends after this long unused (7 days; renewed on use, at most once an hour).",
  },
  ASSAY_SESSION_MAX_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 2592000,
    doc: "A session ends this long after sign-in however much it is used (30 days).",
  },
  ASSAY_DEVICE_CODE_TTL_SECONDS: {
    section: "signin",
    kind: "integer",
    min: 1,
    default: 600,
    doc: "Lifetime of a device sign-in's codes (`expires_in`, 10 minutes).",
  },
  ASSAY_KEY_ROTATION_OVERLAP_SECONDS: {
    section: "signin",
    kind: "integer",
    default: 86400,
    doc: "How long a rotated key's previous secret keeps working (0: not at all).",
  },

  // limits
  ASSAY_SIGNUPS_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 5,
    doc: "Organizations one client address may open per window, whichever way: `POST /api/signup`, `create_account`, or the first sign-in (by link or OpenID Connect) of an email with no organization, each of which opens one with the signup credits. More get `429 SIGNUP_RATE_LIMITED` with `Retry-After`, and nothing is created. A sign-in link is counted when it is used, against the address that uses it (the one the organization is opened from), and asking for a link that would open one is refused while the asking address has none left, so links cannot be mailed to any number of new addresses. Refused signups (an existing account, an invalid email) do not count. Per process on SQLite; with several nodes on PostgreSQL the count is shared (in the database), so every node counts the same attempts.",
  },
  ASSAY_SIGNUP_WINDOW_SECONDS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_SIGNUPS_PER_ADDRESS`.",
  },
  ASSAY_SIGNIN_LINKS_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 5,
    doc: "Sign-in links one email address may be sent per link lifetime; more get `429 SIGNIN_RATE_LIMITED` with `Retry-After` (counted once across nodes on PostgreSQL).",
  },
  ASSAY_SIGNIN_LINKS_PER_CLIENT: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 20,
    doc: "Sign-in links one client address may ask for per link lifetime, whatever the recipients (`POST /api/session/email`, the `/signin` form); more get `429 SIGNIN_RATE_LIMITED` with `Retry-After`, and nothing is written or sent.",
  },
  ASSAY_SIGNINS_PER_CLIENT: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 60,
    doc: "Sessions one client address may start without a credential per window: sign-in links used, OpenID Connect sign-ins, invitation links opened; more get `429 SESSION_START_RATE_LIMITED` with `Retry-After`, nothing is written, and the link stays unused (it works until it expires).",
  },
  ASSAY_SIGNIN_WINDOW_SECONDS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_SIGNINS_PER_CLIENT`.",
  },
  ASSAY_DEVICE_CODES_PER_ADDRESS: {
    section: "limits",
    kind: "integer",
    min: 1,
    default: 20,
    doc: "Device sign-ins (`POST /api/device/code`) one client address may start per code lifetime (a login asks for one); more get `429 DEVICE_CODE_RATE_LIMITED` with `Retry-After`, a catalogued error rather than an OAuth one (OAuth has no code for a rate limit), and nothing is written.",
  },

  // billing
  ASSAY_SIGNUP_CREDITS: { section: "billing", kind: "integer", default: 1000, doc: "Credits granted at signup." },
  ASSAY_FREE_MONTHLY_CREDITS: {
    section: "billing",
    kind: "integer",
    default: 1000,
    doc: "The free plan's monthly credit amount, whatever the plan catalog says.",
  },
  ASSAY_PLANS_FILE: {
    section: "billing",
    kind: "path",
    defaultText: "the built-in `src/catalog/plans.json`",
    doc: "The plan catalog (JSON, the shape of `src/catalog/plans.json`); validated at start, a bad file stops the server naming the file and the problem.",
  },
  ASSAY_GRANT_SWEEP_SECONDS: {
    section: "billing",
    kind: "integer",
    default: 3600,
    doc: "How often (and once at start) every organization is given the current month's grant; `0` turns the sweep off (requests still grant lazily).",
  },
  ASSAY_BILLING_PROVIDER: {
    section: "billing",
    kind: "text",
    default: "local",
    doc: "Where an organization's plan comes from: `local` is the plan the event log records; `stripe` asks Stripe (see [billing providers](plans-and-billing.md#billing-providers)).",
  },
  ASSAY_STRIPE_SECRET_KEY: {
    section: "billing",
    kind: "secret",
    doc: "The Stripe provider's secret key; without it the server starts, but plan-dependent requests answer `SERVICE_UNAVAILABLE`.",
  },
  ASSAY_STRIPE_API_BASE: {
    section: "billing",
    kind: "url",
    defaultText: "Stripe's",
    doc: "Another address for Stripe's API (`http(s)://host:port`; the tests' fake Stripe).",
  },
  ASSAY_STRIPE_FREE_PRICE: {
    section: "billing",
    kind: "text",
    doc: "The Stripe price a new organization is subscribed to when it opens (its product's metadata `assay_plan=free`); unset, it opens with a customer only, and its every plan-dependent call is `BILLING_NOT_PROVISIONED` until it subscribes (signup's `billing` says so). Set it under `stripe` unless every organization is subscribed by hand.",
  },
  ASSAY_PLAN_CACHE_SECONDS: {
    section: "billing",
    kind: "integer",
    default: 60,
    doc: "A Stripe plan resolution is reused this long without asking Stripe.",
  },
  ASSAY_PLAN_STALE_SECONDS: {
    section: "billing",
    kind: "integer",
    max: 300,
    default: 300,
    doc: "While Stripe is unreachable, a resolution at most this old is still served.",
  },
  ASSAY_FEEDBACK_SETS_FILE: {
    section: "billing",
    kind: "path",
    defaultText: "the embedded `src/catalog/feedback-sets.json`",
    doc: "A feedback sets file replacing the embedded one ([feedback that pays](feedback.md)); validated at start (a bad file stops the start, naming the file and the problem).",
  },

  // judges
  ASSAY_VISION_BASE_URL: {
    section: "judges",
    kind: "url",
    doc: "An OpenAI-compatible endpoint (e.g. `https://api.openai.com/v1`); when set, visual checks are judged by that vision model instead of the offline inspector.",
  },
  ASSAY_VISION_MODEL: {
    section: "judges",
    kind: "text",
    default: "gpt-4o-mini",
    doc: "The model name sent to that endpoint.",
  },
  ASSAY_VISION_API_KEY: { section: "judges", kind: "secret", doc: "Its API key." },

  // playground
  ASSAY_PLAYGROUND_CHECKS: {
    section: "playground",
    kind: "list",
    default: "web-essentials",
    doc: "What a playground run checks: one validation set id, or comma-separated check ids (webpage checks that need no parameters); checked at start.",
  },
  ASSAY_PLAYGROUND_VIEWPORT: {
    section: "playground",
    kind: "text",
    default: "desktop-md",
    doc: "The one capture size a playground run is shown at (`mobile-sm`, `tablet-portrait` or `desktop-md`).",
  },
  ASSAY_PLAYGROUND_RUN_TTL_SECONDS: {
    section: "playground",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "How long a playground run and its screenshot are kept in memory; then `404 PLAYGROUND_RUN_NOT_FOUND`.",
  },
  ASSAY_PLAYGROUND_MAX_RUNS: {
    section: "playground",
    kind: "integer",
    min: 1,
    default: 500,
    doc: "At most this many playground runs are kept; past it the oldest is dropped.",
  },
  ASSAY_PLAYGROUND_RUNS_PER_SESSION: {
    section: "playground",
    kind: "integer",
    min: 1,
    default: 3,
    doc: "Runs one anonymous playground session (its cookie, 7 days) may start; more get `429 PLAYGROUND_LIMIT_REACHED`.",
  },
  ASSAY_PLAYGROUND_RUNS_PER_ADDRESS: {
    section: "playground",
    kind: "integer",
    min: 1,
    default: 10,
    doc: "Playground runs one client address (an IPv4 address, or an IPv6 /64) may start per window; more get `429 PLAYGROUND_RATE_LIMITED` with `Retry-After`. Per process on SQLite; shared by every node on PostgreSQL.",
  },
  ASSAY_PLAYGROUND_WINDOW_SECONDS: {
    section: "playground",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_PLAYGROUND_RUNS_PER_ADDRESS`.",
  },

  // webhooks
  ASSAY_WEBHOOK_ENDPOINTS_PER_ORGANIZATION: {
    section: "webhooks",
    kind: "integer",
    min: 1,
    default: 20,
    doc: "Webhook endpoints one organization may have; one more is `409 WEBHOOK_LIMIT_REACHED`. An endpoint may subscribe to several event types.",
  },
  ASSAY_WEBHOOK_RETRY_BASE_SECONDS: {
    section: "webhooks",
    kind: "integer",
    min: 1,
    default: 30,
    doc: "A delivery the endpoint did not take (no 2xx answer) is tried again after this many seconds, then after twice as long each time (30 s, 1 min, 2 min, … by default).",
  },
  ASSAY_WEBHOOK_RETRY_WINDOW_SECONDS: {
    section: "webhooks",
    kind: "integer",
    default: 86400,
    doc: "How long a delivery is retried from the event it announces (or from its replay): its last retry is at the window's end, and a delivery that still failed then is given up (24 hours).",
  },

  // catalog
  ASSAY_CATALOG_BASE_URL: {
    section: "catalog",
    kind: "url",
    defaultText: "`PUBLIC_BASE_URL`",
    doc: "Where the public catalog site is published: the base of its pages' links, canonical URLs, Open Graph URLs, the sitemap and the `links.standard`/`links.custom` of validation records.",
  },

  // tests
  ASSAY_ALLOW_PRIVATE_TARGETS: {
    section: "tests",
    kind: "flag",
    doc: "`1` lets url jobs, subresources and webhook endpoints reach loopback (only loopback, never private networks).",
  },
  ASSAY_CLOCK_OFFSET_DAYS: {
    section: "tests",
    kind: "integer",
    default: 0,
    doc: "Days added to the clock the monthly grant reads its period from, so a test can be in a later month.",
  },
  ASSAY_DNS_FIXTURES: {
    section: "tests",
    kind: "path",
    doc: "A JSON file of DNS records (format in `src/capture/email/dns-resolver.ts`) answered instead of real DNS, with real DNS's answer shapes and error codes, so authentication tests run offline; the network guard reads its A and AAAA records too.",
  },
  ASSAY_CRASH_AT: {
    section: "tests",
    kind: "text",
    doc: "A named point of a job's life (`job-accepted`, `checks-done`, `email-received`; listed and described in `src/faults.ts`) at which the server kills itself with SIGKILL, for the crash tests (`test/service/crash-recovery.test.ts`); a name that is no point stops the start.",
  },

  // cli
  ASSAY_BASE_URL: {
    section: "cli",
    kind: "url",
    default: "http://localhost:8080",
    doc: "The server client commands talk to, when `--base-url` is not given.",
  },
  ASSAY_API_KEY: {
    section: "cli",
    kind: "secret",
    defaultText: "the key `assay login` stored",
    doc: "The key client commands use; it wins over the stored key (`assay status` says which is in use and why). Agents set up by `assay install` read it too.",
  },
  ASSAY_SMTP_HOST: {
    section: "cli",
    kind: "text",
    defaultText: "the server's host name",
    doc: "The inbox `assay run --email` delivers to, when `--smtp-host` is not given.",
  },
  ASSAY_SMTP_PORT: {
    section: "cli",
    kind: "integer",
    default: 2525,
    doc: "The inbox's port, when `--smtp-port` is not given.",
  },
  XDG_CONFIG_HOME: {
    section: "cli",
    kind: "path",
    defaultText: "`~/.config`",
    doc: "`assay login` keeps its keys in `$XDG_CONFIG_HOME/assay/hosts.json`.",
  },
  HOME: {
    section: "cli",
    kind: "path",
    defaultText: "the system's",
    doc: "The home folder `assay install` and `update` look in for agents' settings.",
  },
  CI: {
    section: "cli",
    kind: "text",
    doc: "Set (to anything), `assay login` never opens a browser, only prints the code and address.",
  },
  DISPLAY: {
    section: "cli",
    kind: "text",
    doc: "On Linux, `assay login` opens a browser only when this or `WAYLAND_DISPLAY` is set.",
  },
  WAYLAND_DISPLAY: { section: "cli", kind: "text", doc: "See `DISPLAY`." },
  NO_COLOR: { section: "cli", kind: "text", doc: "Set (to anything), reports on a terminal are not coloured." },
  GITHUB_OUTPUT: {
    section: "cli",
    kind: "path",
    doc: "Set (by GitHub Actions), `run` and `wait` write the outputs `job-id`, `verdict`, `credits` and `blocking-checks` there, and `start` writes `job-id` and `test-email`.",
  },
  GITHUB_STEP_SUMMARY: {
    section: "cli",
    kind: "path",
    doc: "Set (by GitHub Actions), `run` and `wait` append a markdown table of the verdicts there.",
  },

  // development
  ASSAY_CORPUS_DIR: {
    section: "development",
    kind: "path",
    defaultText: "`../shared/corpus`, beside the repository",
    doc: "The synthetic corpus `npm run accuracy` scores (skipped when absent).",
  },
  ASSAY_ACCURACY_CORPORA: {
    section: "development",
    kind: "list",
    default: "synthetic,real-world",
    doc: "Which corpora `npm run accuracy` scores (`real-world`, `synthetic`).",
  },
  ASSAY_ACCURACY_SUBJECTS: {
    section: "development",
    kind: "list",
    default: "web,email",
    doc: "Which subjects `npm run accuracy` scores (`web`, `email`).",
  },
  ASSAY_ACCURACY_CASES: {
    section: "development",
    kind: "list",
    defaultText: "every case",
    doc: "Narrows `npm run accuracy` to these case ids.",
  },
  ASSAY_SELF_CHECK_SEED: {
    section: "development",
    kind: "text",
    defaultText: "today's date",
    doc: "The catalog's self-check (`test/catalog/self-check.test.ts`) runs a sample of check pages drawn from this seed; give a printed seed to repeat a draw.",
  },
  ASSAY_SELF_CHECK_PAGES: {
    section: "development",
    kind: "text",
    doc: "`all`: the self-check runs every catalog page (what `npm run self-check` sets).",
  },
  BENCH_SOAK_SECONDS: {
    section: "development",
    kind: "integer",
    default: 60,
    doc: "How long `npm run bench`'s soak (and the remote-browsers bench) runs.",
  },
  BENCH_CLI_ROUNDS: {
    section: "development",
    kind: "integer",
    default: 7,
    doc: "Rounds of `bench/cli-run-bench.ts` (CLI against bare HTTP).",
  },
} as const satisfies Record<string, VarSpec>;

export type ConfigVar = keyof typeof CONFIG_VARS;
