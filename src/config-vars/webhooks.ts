import type { VarSpec } from "./declaration";

/** The section "Webhooks" (CONFIG_SECTIONS.webhooks), in the order docs/configuration.md lists it. */
export const WEBHOOKS_VARS = {
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
} as const satisfies Record<string, VarSpec & { section: "webhooks" }>;
