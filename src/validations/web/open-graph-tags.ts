import { pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";

const REQUIRED = ["og:title", "og:description", "og:image"];

export const openGraphTags: WebValidation = {
  meta: domCheck({
    id: "open-graph-tags",
    name: "Open Graph tags",
    category: "seo",
    severity: "minor",
    summary: "og:title, og:description and og:image are present, so shared links get a proper preview.",
    judgment:
      'Fails when any of <meta property="og:title">, "og:description" or "og:image" is absent or has empty content.',
    references: [{ title: "The Open Graph protocol", url: "https://ogp.me/" }],
  }),
  evaluate(artifacts) {
    const metas = domAt(artifacts).metas;
    const filled = (p: string) =>
      metas.some((m) => (m.property ?? m.name ?? "").trim().toLowerCase() === p && (m.content ?? "").trim());
    const missing = REQUIRED.filter((p) => !filled(p));
    if (missing.length === 0) return pass(`${REQUIRED.join(", ")} are all present with content.`);
    return {
      verdict: "fail",
      reason: `Add ${missing.map((p) => `<meta property="${p}" content="…">`).join(", ")} to <head> so shared links show a title, summary and image`,
      reasoning: `Missing or empty: ${missing.join(", ")}.`,
      findings: missing.map((p) => ({ message: `${p} is missing or empty`, selector: "head" })),
    };
  },
};
