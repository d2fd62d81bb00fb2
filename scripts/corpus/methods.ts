/**
 * Which method decided each result row (issue 28): a finding says how it was decided (its `method`: dom, axe,
 * pixels, ocr, model), a check declares how its verdicts are decided where its findings do not say
 * (ValidationMeta.method), and a row a model judged was decided by the model. A row that passed while some of its
 * findings still need review stayed "needs review". A row decided by two methods (axe failed one element, pixels
 * another) counts under each.
 */
import { validationModules } from "../../src/catalog/registry";
import type { Finding } from "../../src/validations/types";

export interface MethodRow {
  validationId: string;
  verdict: "pass" | "fail" | "error";
  findings?: Finding[];
  judge?: unknown;
}

const METHODS = ["dom", "axe", "pixels", "ocr", "model"] as const;
const REVIEW = "needs review";

/** The methods that decided a row, or "needs review" when it passed with findings nobody could decide. */
export function rowMethods(row: MethodRow): string[] {
  const declared = validationModules.find((m) => m.meta.id === row.validationId)?.meta.method ?? "dom";
  if (row.judge) return ["model"];
  const findings = row.findings ?? [];
  const outcome = (f: Finding) => (f.measured?.outcome as string | undefined) ?? row.verdict;
  if (row.verdict === "pass" && findings.some((f) => outcome(f) === REVIEW)) return [REVIEW];
  const deciding = findings.filter((f) => outcome(f) === row.verdict && f.method).map((f) => f.method!);
  // A fail rests on its failing findings alone; a pass also on what the check read without a finding.
  return [...new Set(row.verdict === "fail" && deciding.length ? deciding : [declared, ...deciding])];
}

/** Rows per deciding method, over one corpus, and per check. */
export class MethodTally {
  private readonly total = new Map<string, number>();
  private readonly perCheck = new Map<string, Map<string, number>>();
  private readonly undecided: string[] = [];
  private rows = 0;

  add(caseId: string, results: MethodRow[]): void {
    for (const row of results) {
      if (row.verdict === "error") continue;
      this.rows++;
      const check = this.perCheck.get(row.validationId) ?? new Map<string, number>();
      this.perCheck.set(row.validationId, check);
      const methods = rowMethods(row);
      if (methods.includes(REVIEW)) this.undecided.push(`${caseId}: ${row.validationId}`);
      for (const m of methods) {
        this.total.set(m, (this.total.get(m) ?? 0) + 1);
        check.set(m, (check.get(m) ?? 0) + 1);
      }
    }
  }

  report(header: string): void {
    const line = (counts: Map<string, number>) =>
      [...METHODS, REVIEW].map((m) => `${m} ${counts.get(m) ?? 0}`).join(", ");
    console.log(`\n${header}: ${this.rows} row(s) with a verdict; decided by ${line(this.total)}`);
    for (const [check, counts] of [...this.perCheck].sort(([a], [b]) => a.localeCompare(b)))
      if ([...counts.keys()].some((m) => m !== "dom")) console.log(`  ${check.padEnd(34)} ${line(counts)}`);
    if (this.undecided.length) console.log(`Rows left needing review (${this.undecided.length}):`);
    for (const row of this.undecided.sort()) console.log(`  ${row}`);
  }
}
