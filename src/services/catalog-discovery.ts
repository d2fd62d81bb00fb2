import { findValidation, validationModules } from "../catalog/registry";
import { validationSets, type ValidationSet } from "../catalog/sets";
import { catalogEntry } from "../catalog/views";
import type { ValidationModule } from "../validations/types";
import { type JobType, type SubjectType, subjectExample, subjectOf } from "./job-request-description";

// The catalog's discovery helpers agents use: search, recommend, compare. Deterministic: the same question gives
// the same answer.

/** Ranked word matching over ids, names, categories, summaries and judgments; deterministic. */
export function searchCatalog(q: { query: string; subjectType?: SubjectType; limit?: number }) {
  const words = tokens(q.query);
  const matches = validationModules
    .filter((m) => !q.subjectType || m.meta.subjectType === q.subjectType)
    .map((m) => ({ m, ...scoreModule(m, words, q.query) }))
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score || a.m.meta.id.localeCompare(b.m.meta.id))
    .slice(0, q.limit ?? 10);
  return {
    query: q.query,
    matches: matches.map(({ m, score, matchedOn }) => ({ ...catalogEntry(m), score, matchedOn })),
  };
}

/**
 * Checks and a set for a plain-language goal: keyword rules over the catalog's categories and ids, plus
 * word matches on the checks' own text. Every pick says why. Deterministic: the same goal gives the same answer.
 */
export function recommendChecks(q: { goal: string; subjectType: JobType }) {
  const subject = subjectOf(q.subjectType);
  const goal = q.goal.toLowerCase();
  const words = tokens(q.goal);
  const candidates = validationModules.filter((m) => m.meta.subjectType === subject);
  const reasons = new Map<string, string[]>();
  const add = (id: string, why: string) => {
    if (!candidates.some((m) => m.meta.id === id)) return;
    const list = reasons.get(id) ?? [];
    if (!list.includes(why)) list.push(why);
    reasons.set(id, list);
  };
  const setVotes = new Map<string, string[]>();
  for (const rule of GOAL_RULES) {
    const hit = rule.words.find((w) =>
      w.includes(" ") ? goal.includes(w) : words.includes(w) || words.some((t) => t.startsWith(w) && w.length >= 5),
    );
    if (!hit) continue;
    const why = `your goal mentions "${hit}": ${rule.because}`;
    for (const m of candidates) if (rule.categories?.includes(m.meta.category)) add(m.meta.id, why);
    for (const id of rule.checks ?? []) add(id, why);
    if (rule.set) setVotes.set(rule.set, [...(setVotes.get(rule.set) ?? []), why]);
  }
  for (const m of candidates) {
    const { score, matchedOn } = scoreModule(
      m,
      words.filter((w) => !STOP_WORDS.has(w)),
      q.goal,
    );
    if (score >= 4) add(m.meta.id, `its ${matchedOn.join(", ")} match${matchedOn.length === 1 ? "es" : ""} your words`);
  }
  const sets = validationSets.filter((s) => s.subjectType === subject);
  // The set: one the goal names outright, else the one holding the most picked checks (ties: the smaller set).
  let chosen: { set: ValidationSet; why: string } | undefined;
  const voted = sets.find((s) => setVotes.has(s.id));
  if (voted) chosen = { set: voted, why: setVotes.get(voted.id)![0]! };
  else if (reasons.size) {
    const ranked = sets
      .map((s) => ({ s, overlap: s.validationIds.filter((id) => reasons.has(id)).length }))
      .filter((r) => r.overlap >= 2)
      .sort((a, b) => b.overlap - a.overlap || a.s.validationIds.length - b.s.validationIds.length);
    if (ranked[0])
      chosen = { set: ranked[0].s, why: `it holds ${ranked[0].overlap} of the checks your goal points at` };
  }
  if (reasons.size === 0) {
    // Nothing matched: the broadest starting point for the subject type.
    const fallback = sets.find((s) => s.id === "web-essentials") ?? sets[0];
    if (fallback)
      chosen = {
        set: fallback,
        why: "nothing in the goal pointed at specific checks, so this is the general starting point",
      };
    else
      for (const m of candidates.filter((c) => !c.meta.requiresConfiguration))
        add(
          m.meta.id,
          "nothing in the goal pointed at specific checks; every email check that runs without parameters",
        );
  }
  const inSet = new Set(chosen?.set.validationIds ?? []);
  for (const id of inSet) if (!reasons.has(id)) reasons.set(id, [`part of the ${chosen!.set.id} set`]);
  const checks = [...reasons.entries()]
    .map(([id, why]) => {
      const m = findValidation(id)!;
      return {
        id,
        name: m.meta.name,
        category: m.meta.category,
        executionKind: m.meta.kind,
        credits: m.meta.price.credits,
        inSet: inSet.has(id),
        requiresConfiguration: m.meta.requiresConfiguration,
        why: why.join("; "),
        ...(m.meta.requiresConfiguration
          ? {
              askUserFor: m.meta.parameters.map((p) => ({
                parameter: p.name,
                description: p.description,
                format: p.format,
              })),
            }
          : {}),
      };
    })
    .sort((a, b) => Number(b.inSet) - Number(a.inSet) || a.id.localeCompare(b.id));
  const extras = checks.filter((c) => !c.inSet);
  const jobRequest: Record<string, unknown> = { ...subjectExample(q.subjectType) };
  if (chosen) jobRequest.validationSetId = chosen.set.id;
  if (extras.length) {
    jobRequest.validations = extras.map((c) =>
      c.requiresConfiguration
        ? {
            id: c.id,
            parameters: Object.fromEntries(
              findValidation(c.id)!.meta.parameters.map((p) => [p.name, `<ask the user: ${p.description}>`]),
            ),
          }
        : c.id,
    );
  }
  const needsAnswers = checks.filter((c) => c.requiresConfiguration);
  return {
    goal: q.goal,
    jobType: q.subjectType,
    subjectType: subject,
    validationSet: chosen ? { id: chosen.set.id, name: chosen.set.name, why: chosen.why } : null,
    checks,
    estimatedCredits: checks.reduce((n, c) => n + c.credits, 0),
    jobRequest,
    notes: [
      needsAnswers.length
        ? `${needsAnswers.map((c) => c.id).join(", ")} need${needsAnswers.length === 1 ? "s" : ""} facts only the user has (see askUserFor): ask for them and never invent them; without them the check is skipped, not run.`
        : "Every recommended check runs without parameters.",
      "Replace the subject in jobRequest with the user's, check it with check_job_request, then run it with run_job.",
    ],
  };
}

/** Side by side: what differs, the sets they share, whether one job can run them, what they cost together. */
export function compareChecks(modules: ValidationModule[]) {
  const views = modules.map((m) => ({
    ...catalogEntry(m, true),
    judgment: m.meta.judgment,
    validationSets: validationSets.filter((s) => s.validationIds.includes(m.meta.id)).map((s) => s.id),
    captureSizes: m.meta.capture.standard,
  }));
  const differing: string[] = (
    ["subjectType", "category", "severity", "executionKind", "requiresConfiguration", "price"] as const
  ).filter((f) => new Set(views.map((v) => JSON.stringify(v[f]))).size > 1);
  const sharedSets = views.reduce<string[]>(
    (acc, v, i) => (i === 0 ? v.validationSets : acc.filter((s) => v.validationSets.includes(s))),
    [],
  );
  return {
    validations: views,
    differences: differing,
    sharedSets,
    canRunTogether: new Set(views.map((v) => v.subjectType)).size === 1,
    totalCredits: views.reduce((n, v) => n + v.price.credits, 0),
  };
}

// ------------------------------------------------------------------ matching

const STOP_WORDS = new Set(
  "a an and are as at be by check checks for from has have i in is it its make me my of on or our page pages site sure that the this to up we website with work works".split(
    " ",
  ),
);

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1);
}

function scoreModule(m: ValidationModule, words: string[], raw: string): { score: number; matchedOn: string[] } {
  const meta = m.meta;
  const q = raw.trim().toLowerCase();
  if (q === meta.id || q === meta.slug) return { score: 100, matchedOn: ["id"] };
  const fields: Array<[string, string, number]> = [
    ["id", meta.id.replace(/-/g, " "), 5],
    ["name", meta.name.toLowerCase(), 4],
    ["category", meta.category, 4],
    ["summary", meta.summary.toLowerCase(), 2],
    ["judgment", meta.judgment.toLowerCase(), 1],
  ];
  let score = 0;
  const matchedOn = new Set<string>();
  for (const w of words) {
    for (const [field, text, weight] of fields) {
      if (tokens(text).some((t) => t === w || (w.length >= 4 && t.startsWith(w)))) {
        score += weight;
        matchedOn.add(field);
      }
    }
  }
  return { score, matchedOn: [...matchedOn] };
}

interface GoalRule {
  words: string[];
  because: string;
  categories?: string[];
  checks?: string[];
  set?: string;
}

/** Plain-language words and what they point at in the catalog. Ids or sets missing from the catalog are ignored. */
const GOAL_RULES: GoalRule[] = [
  {
    words: [
      "launch",
      "go live",
      "golive",
      "release",
      "ship",
      "publish",
      "pre-launch",
      "prelaunch",
      "production",
      "ready",
    ],
    because: "a pre-launch sweep",
    set: "launch-readiness",
  },
  {
    words: ["seo", "search engine", "google", "ranking", "rank", "indexing", "indexed", "crawl", "serp"],
    because: "what search engines read",
    categories: ["seo"],
    set: "seo",
  },
  {
    words: ["share", "sharing", "social", "preview", "open graph", "og", "twitter", "linkedin", "facebook"],
    because: "link previews",
    checks: ["open-graph-tags"],
  },
  {
    words: ["accessible", "accessibility", "a11y", "wcag", "ada", "screen reader", "blind", "disabilit", "keyboard"],
    because: "accessibility",
    categories: ["accessibility"],
    set: "accessibility",
  },
  {
    words: ["contrast", "legible", "readable", "readability"],
    because: "legibility",
    checks: ["color-contrast", "font-size-body-min-max"],
  },
  {
    words: ["mobile", "phone", "phones", "responsive", "tablet", "small screen", "iphone", "android"],
    because: "how the page holds up on small screens",
    categories: ["mobile"],
    checks: ["layout-not-broken", "no-horizontal-overflow"],
  },
  {
    words: ["layout", "broken layout", "overlap", "overflow", "looks broken", "visual"],
    because: "the rendered layout",
    categories: ["visual"],
    checks: ["layout-not-broken", "no-horizontal-overflow"],
  },
  {
    words: ["brand", "on-brand", "logo", "colour", "colours", "color", "colors", "palette", "style guide"],
    because: "brand presentation",
    categories: ["brand"],
    set: "brand-compliance",
  },
  {
    words: ["broken", "dead link", "404", "links", "link"],
    because: "links and images that do not load",
    checks: ["broken-links", "broken-images"],
  },
  { words: ["image", "images"], because: "images", checks: ["broken-images", "image-alt-text"] },
  {
    words: ["speed", "fast", "slow", "performance", "weight", "heavy", "vitals", "lcp", "cls", "load time"],
    because: "page weight and loading",
    categories: ["performance"],
  },
  {
    words: ["security", "secure", "https", "mixed content", "insecure"],
    because: "insecure content",
    categories: ["security"],
  },
  {
    words: ["javascript", "console", "script error", "js error", "errors"],
    because: "JavaScript errors",
    checks: ["console-errors"],
  },
  { words: ["typo", "typos", "spelling", "spell", "proofread", "grammar"], because: "spelling", checks: ["spelling"] },
  {
    words: ["placeholder", "lorem", "unfinished", "template", "draft", "dummy"],
    because: "unfinished copy",
    checks: ["no-lorem-ipsum", "no-unrendered-placeholders"],
  },
  {
    words: ["cta", "call to action", "button", "sign up button", "buy button", "conversion"],
    because: "the call to action",
    checks: ["cta-visible"],
  },
  {
    words: ["legal", "disclaimer", "required text", "must say", "must mention", "price", "terms"],
    because: "text that must appear",
    checks: ["required-text-present"],
  },
  {
    words: ["forbidden", "banned", "must not say", "never say", "competitor"],
    because: "text that must not appear",
    checks: ["forbidden-text-absent"],
  },
  {
    words: ["domain", "domains", "allowlist", "whitelist", "outbound", "external links"],
    because: "where links may point",
    checks: ["link-domain-allowlist"],
  },
  { words: ["form", "forms", "label", "labels", "input"], because: "form fields", checks: ["form-labels"] },
  { words: ["heading", "headings", "h1", "structure"], because: "the heading structure", categories: ["structure"] },
  {
    words: ["structured data", "schema.org", "json-ld", "rich result"],
    because: "structured data",
    checks: ["structured-data-valid"],
  },
  { words: ["favicon", "icon"], because: "the favicon", checks: ["favicon"] },
  {
    words: ["unsubscribe", "list-unsubscribe", "deliverability", "deliver", "inbox", "spam", "gmail", "yahoo", "bulk"],
    because: "deliverability",
    categories: ["deliverability"],
  },
  { words: ["subject", "subject line"], because: "the subject line", checks: ["email-subject-length"] },
];
