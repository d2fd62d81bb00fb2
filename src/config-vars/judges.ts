import type { VarSpec } from "./declaration";

/** The section "Judges" (CONFIG_SECTIONS.judges), in the order docs/configuration.md lists it. */
export const JUDGES_VARS = {
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
} as const satisfies Record<string, VarSpec & { section: "judges" }>;
