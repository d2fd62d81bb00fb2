import type { Severity } from "../validations/types";
import { findValidation, validationModules } from "./registry";

export interface ValidationSet {
  id: string;
  name: string;
  description: string;
  subjectType: "url" | "email";
  validationIds: string[];
}

/** Sets only hold checks that run without parameters, so a set id alone is always a complete job. */
const definitions: ValidationSet[] = [
  {
    id: "web-essentials",
    name: "Web essentials",
    description: "The basics every public page should get right: content left unfinished, titles, language, headings, alt text and the mobile viewport.",
    subjectType: "url",
    validationIds: [
      "no-lorem-ipsum",
      "no-unrendered-placeholders",
      "image-alt-text",
      "page-title",
      "meta-description",
      "html-lang",
      "viewport-meta",
      "single-h1",
      "heading-order",
    ],
  },
  {
    id: "seo",
    name: "Search and sharing",
    description: "What search engines and link previews read: title, description, canonical URL, robots directives, Open Graph tags and structured data.",
    subjectType: "url",
    validationIds: ["page-title", "meta-description", "canonical-url", "no-accidental-noindex", "open-graph-tags", "structured-data-valid", "single-h1"],
  },
  {
    id: "accessibility",
    name: "Accessibility",
    description: "WCAG 2.2 A and AA basics that code can decide: alt text, language, labels, contrast, heading structure and legible text.",
    subjectType: "url",
    validationIds: ["image-alt-text", "html-lang", "form-labels", "color-contrast", "heading-order", "font-size-body-min-max"],
  },
];

for (const set of definitions) {
  for (const id of set.validationIds) {
    const m = findValidation(id);
    if (!m) throw new Error(`set ${set.id} names unknown validation ${id}`);
    if (m.meta.requiresConfiguration) throw new Error(`set ${set.id} holds ${id}, which needs parameters`);
    if (m.meta.subjectType !== set.subjectType) throw new Error(`set ${set.id} holds ${id} of another subject type`);
  }
}

export const validationSets: readonly ValidationSet[] = definitions;

export function findSet(id: string): ValidationSet | undefined {
  return definitions.find((s) => s.id === id);
}

export function setsContaining(validationId: string): string[] {
  return definitions.filter((s) => s.validationIds.includes(validationId)).map((s) => s.id);
}

export function setSeverities(set: ValidationSet): Record<string, Severity> {
  return Object.fromEntries(set.validationIds.map((id) => [id, findValidation(id)!.meta.severity]));
}

export { validationModules };
