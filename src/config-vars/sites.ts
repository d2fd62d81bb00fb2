import type { VarSpec } from "./declaration";

/** The section "Site discovery" (CONFIG_SECTIONS.sites), in the order docs/configuration.md lists it. */
export const SITES_VARS = {
  ASSAY_DISCOVERIES_PER_ORGANIZATION: {
    section: "sites",
    kind: "integer",
    min: 1,
    default: 60,
    doc: "Site discoveries (`POST /api/sites/discover`, `discover_pages`) one organization may ask for per window; more get `429 DISCOVERY_RATE_LIMITED` with `Retry-After`. Each one fetches up to a thousand pages of another site through the network guard. Per process on SQLite; shared by every node on PostgreSQL.",
  },
  ASSAY_DISCOVERY_WINDOW_SECONDS: {
    section: "sites",
    kind: "integer",
    min: 1,
    default: 3600,
    doc: "The window of `ASSAY_DISCOVERIES_PER_ORGANIZATION`.",
  },
} as const satisfies Record<string, VarSpec & { section: "sites" }>;
