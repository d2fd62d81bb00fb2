import type { VarSpec } from "./declaration";

/** The section "Credits, plans and billing" (CONFIG_SECTIONS.billing), in the order docs/configuration.md lists it. */
export const BILLING_VARS = {
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
} as const satisfies Record<string, VarSpec & { section: "billing" }>;
