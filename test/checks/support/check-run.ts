import type { ValidationMeta, Finding } from "../../../src/validations/types";

/** A check's parameters as the planner hands them over: each parameter's default, then the given values. */
export function withDefaults(meta: ValidationMeta, params: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = {};
  for (const p of meta.parameters) if (p.default !== undefined) defaults[p.name] = p.default;
  return { ...defaults, ...params };
}

/** The strings in mustReport that no finding names in its selector, url, text or message. */
export function unreported(findings: Finding[], mustReport: string[]): string[] {
  const said = findings.map((f) => [f.selector, f.url, f.text, f.message].filter((v) => v !== undefined).join("\n"));
  return mustReport.filter((s) => !said.some((line) => line.includes(s)));
}
