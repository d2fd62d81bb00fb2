/**
 * Agreement between the real-world corpus's labels and Assay's verdicts, per check and overall. A label of
 * `pass` met by `fail` is a false fail; `fail` met by `pass` a miss; an `error` row on a labelled case is counted
 * apart (no verdict to agree or disagree with); `n/a` labels are not scored.
 */
import type { CorpusLabel } from "./cases";

export interface VerdictRow {
  validationId: string;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  reasoning?: string;
}

interface Disagreement {
  caseId: string;
  check: string;
  label: CorpusLabel;
  assay: string;
}

interface CheckTally {
  scored: number;
  agreed: number;
  falseFails: number;
  misses: number;
  errors: number;
  notApplicable: number;
}

export class Agreement {
  readonly perCheck = new Map<string, CheckTally>();
  readonly falseFails: Disagreement[] = [];
  readonly misses: Disagreement[] = [];
  readonly errors: Disagreement[] = [];
  readonly unlabelled: Array<{ caseId: string; check: string }> = [];
  readonly notRun: Array<{ caseId: string; why: string }> = [];

  constructor(
    readonly subject: "web" | "email",
    readonly checks: string[],
  ) {
    for (const c of checks)
      this.perCheck.set(c, { scored: 0, agreed: 0, falseFails: 0, misses: 0, errors: 0, notApplicable: 0 });
  }

  /** Scores one case's result rows against its labels. */
  score(caseId: string, labels: Record<string, CorpusLabel>, results: VerdictRow[]): void {
    const byCheck = new Map(results.map((r) => [r.validationId, r]));
    for (const check of this.checks) {
      const tally = this.perCheck.get(check)!;
      const label = labels[check];
      const row = byCheck.get(check);
      if (!label) {
        this.unlabelled.push({ caseId, check });
        continue;
      }
      if (label.expect === "n/a") {
        tally.notApplicable++;
        continue;
      }
      const assay = row ? `${row.verdict}: ${row.reason ?? row.reasoning ?? ""}` : "no result row";
      if (!row || row.verdict === "error") {
        tally.errors++;
        this.errors.push({ caseId, check, label, assay });
        continue;
      }
      tally.scored++;
      if (row.verdict === label.expect) tally.agreed++;
      else if (row.verdict === "fail") {
        tally.falseFails++;
        this.falseFails.push({ caseId, check, label, assay });
      } else {
        tally.misses++;
        this.misses.push({ caseId, check, label, assay });
      }
    }
  }

  /** A case that got no results (the job was refused, or never completed). */
  failedToRun(caseId: string, why: string): void {
    this.notRun.push({ caseId, why });
  }

  totals(): CheckTally {
    const t: CheckTally = { scored: 0, agreed: 0, falseFails: 0, misses: 0, errors: 0, notApplicable: 0 };
    for (const x of this.perCheck.values()) for (const k of Object.keys(t) as Array<keyof CheckTally>) t[k] += x[k];
    return t;
  }

  report(header: string): void {
    const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");
    console.log(`\n${header}\n`);
    console.log(
      "check".padEnd(36),
      "agree".padStart(9),
      "".padStart(7),
      "false fails".padStart(12),
      "misses".padStart(7),
      "errors".padStart(7),
      "n/a".padStart(5),
    );
    for (const [check, t] of this.perCheck) {
      console.log(
        check.padEnd(36),
        `${t.agreed}/${t.scored}`.padStart(9),
        pct(t.agreed, t.scored).padStart(7),
        String(t.falseFails).padStart(12),
        String(t.misses).padStart(7),
        String(t.errors).padStart(7),
        String(t.notApplicable).padStart(5),
      );
    }
    const list = (title: string, rows: Disagreement[]) => {
      console.log(`\n${title} (${rows.length}):`);
      for (const r of rows)
        console.log(`  ${r.caseId}: ${r.check}\n    label ${r.label.expect}: ${r.label.reason}\n    Assay ${r.assay}`);
    };
    list("False fails", this.falseFails);
    list("Misses", this.misses);
    list("Errors on labelled checks", this.errors);
    if (this.unlabelled.length)
      console.log(
        `\nUnlabelled (${this.unlabelled.length}): ${this.unlabelled.map((u) => `${u.caseId}/${u.check}`).join(", ")}`,
      );
    if (this.notRun.length)
      console.log(
        `\nNot run (${this.notRun.length}):\n${this.notRun.map((n) => `  ${n.caseId}: ${n.why}`).join("\n")}`,
      );
    const t = this.totals();
    console.log(
      `\nReal-world ${this.subject} summary: agreement ${t.agreed}/${t.scored} (${pct(t.agreed, t.scored)}) on scored labels; ` +
        `${t.falseFails} false fail(s), ${t.misses} miss(es), ${t.errors} error row(s) on labelled checks, ${t.notApplicable} n/a label(s).`,
    );
  }
}
