/** What the declaration of environment variables (src/config-vars.ts) is made of: its sections, and one variable's spec. */

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
  runs: {
    title: "Runs",
    intro: "A whole site or campaign checked in one request, compared with its project's baseline ([runs](runs.md)).",
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
  sites: {
    title: "Site discovery",
    intro:
      "How often the server may fetch a site's sitemap or crawl it to list the pages of a run ([command line](cli.md#pages-from-a-sitemap-or-a-crawl)).",
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
