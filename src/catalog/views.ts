import type { ValidationModule } from "../validations/types";
import { findSet, setSeverities, setsContaining, validationSets, type ValidationSet } from "./sets";

/** The public shapes of catalog entries, built from the modules (the single source of these facts). */

function parameterView(m: ValidationModule) {
  return m.meta.parameters.map((p) => ({
    name: p.name,
    description: p.description,
    format: p.format,
    schema: p.schema,
    ...(p.default !== undefined ? { default: p.default } : {}),
    example: p.example,
  }));
}

export function catalogEntry(m: ValidationModule, includeParameters = false) {
  const meta = m.meta;
  return {
    id: meta.id,
    slug: meta.slug,
    name: meta.name,
    summary: meta.summary,
    subjectType: meta.subjectType,
    category: meta.category,
    severity: meta.severity,
    executionKind: meta.kind,
    runnable: true,
    requiresConfiguration: meta.requiresConfiguration,
    price: meta.price,
    ...(includeParameters ? { parameters: parameterView(m) } : {}),
  };
}

/** An example body an agent can send as-is (parameters filled with their documented examples). */
function jobSnippet(m: ValidationModule) {
  const entry = m.meta.parameters.length
    ? { id: m.meta.id, parameters: Object.fromEntries(m.meta.parameters.map((p) => [p.name, p.example])) }
    : m.meta.id;
  return m.meta.subjectType === "url"
    ? { type: "url", url: "https://example.com/", validations: [entry] }
    : { type: "email", subject: "Your subject line", validations: [entry] };
}

/** `links.self` is the API's (PUBLIC_BASE_URL); the pages are the catalog site's (ASSAY_CATALOG_BASE_URL). */
export function validationDetail(m: ValidationModule, publicBaseUrl: string, catalogBaseUrl: string) {
  const meta = m.meta;
  return {
    ...catalogEntry(m, true),
    judgment: meta.judgment,
    validationSets: setsContaining(meta.id),
    references: meta.references,
    capture: meta.capture,
    agentJobSnippet: jobSnippet(m),
    links: {
      self: `${publicBaseUrl}/api/validations/${meta.slug}`,
      standard: `${catalogBaseUrl}/validations/${meta.slug}/standard`,
      ...(meta.parameters.length ? { custom: `${catalogBaseUrl}/validations/${meta.slug}/custom` } : {}),
    },
  };
}

export function setView(set: ValidationSet) {
  return {
    id: set.id,
    name: set.name,
    description: set.description,
    subjectType: set.subjectType,
    /** url sets apply to url and static_html jobs; email sets to email jobs. */
    jobTypes: set.subjectType === "url" ? ["url", "static_html"] : ["email"],
    validationIds: set.validationIds,
    severities: setSeverities(set),
    parameters: [],
  };
}

export function listSets(subjectType?: "url" | "email") {
  return validationSets.filter((s) => !subjectType || s.subjectType === subjectType).map(setView);
}

export { findSet };
