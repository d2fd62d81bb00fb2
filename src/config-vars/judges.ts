import type { VarSpec } from "./declaration";

/** The section "Judges" (CONFIG_SECTIONS.judges), in the order docs/configuration.md lists it. */
export const JUDGES_VARS = {
  ASSAY_VISION_BASE_URL: {
    section: "judges",
    kind: "url",
    doc: "An OpenAI-compatible endpoint (e.g. `https://api.openai.com/v1`, or a local Ollama or vLLM server) of a vision model that may judge visual checks. Setting it alone changes no verdict: the model judges only the checks ASSAY_VISION_CHECKS or ASSAY_VISION_MIN_AGREEMENT enable, the offline inspector every other ([judges](judges.md)).",
  },
  ASSAY_VISION_MODEL: {
    section: "judges",
    kind: "text",
    default: "gpt-4o-mini",
    doc: "The model name sent to that endpoint.",
  },
  ASSAY_VISION_API_KEY: { section: "judges", kind: "secret", doc: "Its API key." },
  ASSAY_VISION_CHECKS: {
    section: "judges",
    kind: "list",
    defaultText: "none",
    doc: "The visual checks the model judges, by id (e.g. `layout-not-broken,email-layout-not-broken`), or `all`; checked at start. Unset: none by id. A check nobody evaluated keeps the inspector's verdicts until someone names it here.",
  },
  ASSAY_VISION_MIN_AGREEMENT: {
    section: "judges",
    kind: "integer",
    default: 0,
    min: 0,
    max: 100,
    doc: "Also enables every visual check whose measured agreement with the corpora's labels is at least this percentage, read from the evaluation `assay judge evaluate --write` stored in DATA_DIR (judge-evaluation.json) for this model and prompt version; re-read when that file changes. 0: off.",
  },
  ASSAY_VISION_TIMEOUT_SECONDS: {
    section: "judges",
    kind: "integer",
    default: 30,
    min: 1,
    max: 600,
    doc: "How long one answer of the model may take (one retry after a failure); past it the row is an error, refunded.",
  },
} as const satisfies Record<string, VarSpec & { section: "judges" }>;
