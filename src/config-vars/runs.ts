import type { VarSpec } from "./declaration";

/** The section "Runs" (CONFIG_SECTIONS.runs), in the order docs/configuration.md lists it. */
export const RUNS_VARS = {
  ASSAY_RUN_MAX_PAGES: {
    section: "runs",
    kind: "integer",
    min: 1,
    default: 1000,
    doc: "Pages one run may hold (`POST /api/runs`, `run_site`); more are refused with `RUN_TOO_MANY_PAGES` before anything is planned or charged. A run's body weighs at most 16 MiB over HTTP (5 MiB through `/mcp`), whatever its page count.",
  },
} as const satisfies Record<string, VarSpec & { section: "runs" }>;
