import type { VarSpec } from "./declaration";

/** The section "The public catalog site" (CONFIG_SECTIONS.catalog), in the order docs/configuration.md lists it. */
export const CATALOG_VARS = {
  ASSAY_CATALOG_BASE_URL: {
    section: "catalog",
    kind: "url",
    defaultText: "`PUBLIC_BASE_URL`",
    doc: "Where the public catalog site is published: the base of its pages' links, canonical URLs, Open Graph URLs, the sitemap and the `links.standard`/`links.custom` of validation records.",
  },
} as const satisfies Record<string, VarSpec & { section: "catalog" }>;
