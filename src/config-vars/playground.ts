import type { VarSpec } from "./declaration";

/** The section "The anonymous playground" (CONFIG_SECTIONS.playground), in the order docs/configuration.md lists it. */
export const PLAYGROUND_VARS = {
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
} as const satisfies Record<string, VarSpec & { section: "playground" }>;
