import { validationModules } from "../catalog/registry";
import { validationSets } from "../catalog/sets";

/** Assay's own brand: the source of /.well-known/brand-card.json and the logos under /brand/. */
const BRAND = {
  name: "Assay",
  tagline: "Headless QA for webpages and emails",
  colors: [
    { name: "Assay Ink", hex: "#14213d", role: "primary", usage: "Wordmark, headings, primary buttons." },
    {
      name: "Touchstone Gold",
      hex: "#e0a526",
      role: "accent",
      usage: "The mark's streak, highlights, focus rings. Never for body text on white.",
    },
    { name: "Paper", hex: "#f7f5f0", role: "background", usage: "Page background." },
    { name: "Pass Green", hex: "#1f7a4d", role: "status-pass", usage: "pass verdicts only." },
    { name: "Fail Red", hex: "#c0392b", role: "status-fail", usage: "fail verdicts only." },
    {
      name: "Error Slate",
      hex: "#5b6472",
      role: "status-error",
      usage: "error results: the check could not run; never styled as a failure.",
    },
  ],
  typography: {
    heading: { family: "Inter", weights: [600, 700], fallback: "system-ui, -apple-system, Segoe UI, sans-serif" },
    body: {
      family: "Inter",
      weights: [400, 500],
      fallback: "system-ui, -apple-system, Segoe UI, sans-serif",
      minSizePx: 16,
      lineHeight: 1.5,
    },
    code: { family: "JetBrains Mono", weights: [400], fallback: "ui-monospace, SFMono-Regular, Menlo, monospace" },
  },
  voice: {
    summary: "A calm, exact reviewer: says what was measured, what to fix and where, and nothing it did not measure.",
    traits: ["plain", "exact", "calm", "honest about limits"],
    do: [
      "Name the element and the measurement: \"the 'Buy now' button is 38 px below the fold at mobile-sm\".",
      "Say what to do next in one sentence.",
      "Call an error an error: the check could not run, it was refunded, it is not a verdict on the work.",
      "Ask for business facts (postal address, unsubscribe URL, sender domain) instead of guessing them.",
    ],
    dont: [
      "Hype, exclamation marks or scores without their measurement.",
      "Blame the user.",
      "Invent facts to make a check pass.",
    ],
    examples: {
      pass: "Clean on this one. Nothing to fix.",
      fail: "Worth fixing before this ships: the reason says what and where.",
      error: "We could not run this check, so it is not a verdict on your work. It was refunded.",
    },
  },
};

const MARK_PATHS =
  '<rect x="4" y="4" width="56" height="56" rx="12" fill="#14213d"/><path d="M18 46 L32 16 L46 46" fill="none" stroke="#f7f5f0" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/><path d="M22 37 H42" stroke="#e0a526" stroke-width="6" stroke-linecap="round"/>';

export const LOGOS: Record<string, { svg: string; description: string; background: string }> = {
  "assay-mark.svg": {
    description: "The mark: an A on ink with a gold streak (a touchstone's assay line). Square; at least 24 px.",
    background: "any",
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="Assay">${MARK_PATHS}</svg>\n`,
  },
  "assay-logo.svg": {
    description: "The horizontal logo: the mark and the wordmark in Assay Ink. On light backgrounds.",
    background: "light",
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 64" width="240" height="64" role="img" aria-label="Assay">${MARK_PATHS}<text x="76" y="44" font-family="Inter, system-ui, sans-serif" font-size="34" font-weight="700" fill="#14213d">Assay</text></svg>\n`,
  },
};

/** /.well-known/brand-card.json: logos, colours, type and voice, with the parameters Assay's own brand checks take. */
export function brandCard(baseUrl: string) {
  return {
    name: BRAND.name,
    tagline: BRAND.tagline,
    url: baseUrl,
    logos: Object.entries(LOGOS).map(([file, l]) => ({
      role: file === "assay-mark.svg" ? "mark" : "primary",
      url: `${baseUrl}/brand/${file}`,
      format: "image/svg+xml",
      background: l.background,
      description: l.description,
    })),
    colors: BRAND.colors,
    typography: BRAND.typography,
    voice: BRAND.voice,
    /** The same brand, as parameters of the brand checks: a job can check a page against this card. */
    checkParameters: {
      "brand-colors": { palette: BRAND.colors.map((c) => c.hex) },
      "logo-usage": { logoUrl: `${baseUrl}/brand/assay-logo.svg` },
    },
    schema: `${baseUrl}/.well-known/brand-schema.json`,
  };
}

/** /.well-known/brand-schema.json: the experimental category catalog, every validation category with its checks. */
export function brandSchema(baseUrl: string) {
  const categories = [...new Set(validationModules.map((m) => m.meta.category))].sort();
  return {
    experimental: true,
    description:
      "Assay's validation categories and the checks in each; every check id can be sent in a job's validations[].",
    catalog: `${baseUrl}/api/validations`,
    categories: categories.map((category) => {
      const checks = validationModules.filter((m) => m.meta.category === category);
      return {
        id: category,
        subjectTypes: [...new Set(checks.map((m) => m.meta.subjectType))],
        checks: checks.map((m) => ({
          id: m.meta.id,
          name: m.meta.name,
          subjectType: m.meta.subjectType,
          executionKind: m.meta.kind,
          severity: m.meta.severity,
          requiresConfiguration: m.meta.requiresConfiguration,
          summary: m.meta.summary,
          url: `${baseUrl}/api/validations/${m.meta.slug}`,
        })),
      };
    }),
    sets: validationSets.map((s) => ({
      id: s.id,
      name: s.name,
      subjectType: s.subjectType,
      validationIds: s.validationIds,
    })),
  };
}
