import { errorCatalog } from "../errors/catalog";
import { validationModules } from "../catalog/registry";
import { validationSets } from "../catalog/sets";

/** docs/errors.md, from the one error table. */
export function errorsMarkdown(): string {
  const rows = errorCatalog.map(
    (e) => `| \`${e.code}\` | ${e.status} | ${e.title} | ${e.guidance.replace(/\|/g, "\\|")}${e.addedBySpecGap ? " *(added by Assay)*" : ""} |`,
  );
  return [
    "# Error codes",
    "",
    "<!-- Generated from src/errors/catalog.ts by `npm run docs`; do not edit by hand. -->",
    "",
    "Every error body is `{ code, title, message, developerMessage, details?, requestId }`; 5xx bodies add `retryable`.",
    "Branch on `code`: it is stable; the prose may change. `GET /api/errors` serves this table.",
    "",
    "| Code | HTTP | Title | What to do |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** docs/validations.md, from the validation modules and sets. */
export function validationsMarkdown(): string {
  const out = [
    "# Validations",
    "",
    "<!-- Generated from the validation modules by `npm run docs`; do not edit by hand. -->",
    "",
    "| Id | Subject | Kind | Severity | Credits | Needs configuration | Summary |",
    "|---|---|---|---|---|---|---|",
    ...validationModules.map(
      (m) =>
        `| \`${m.meta.id}\` | ${m.meta.subjectType} | ${m.meta.kind} | ${m.meta.severity} | ${m.meta.price.credits} | ${m.meta.requiresConfiguration ? "yes" : "no"} | ${m.meta.summary} |`,
    ),
    "",
    "## Sets",
    "",
    ...validationSets.flatMap((s) => [`### \`${s.id}\` (${s.subjectType})`, "", s.description, "", s.validationIds.map((id) => `\`${id}\``).join(", "), ""]),
    "## Details",
    "",
  ];
  for (const m of validationModules) {
    out.push(`### \`${m.meta.id}\`: ${m.meta.name}`, "", m.meta.judgment, "");
    if (m.meta.parameters.length) {
      out.push("Parameters:", "");
      for (const p of m.meta.parameters) out.push(`- \`${p.name}\` (${p.format}${p.default !== undefined ? `, default ${JSON.stringify(p.default)}` : ""}): ${p.description}`);
      out.push("");
    }
    if (m.meta.references.length) out.push(`References: ${m.meta.references.map((r) => `[${r.title}](${r.url})`).join(", ")}`, "");
  }
  return out.join("\n");
}

export const generatedDocs: Record<string, () => string> = {
  "docs/errors.md": errorsMarkdown,
  "docs/validations.md": validationsMarkdown,
};
