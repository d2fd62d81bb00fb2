import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JudgeProvenance, Verdict } from "../validations/types";

/** Where `assay judge evaluate --write` stores its evaluation, in DATA_DIR; ASSAY_VISION_MIN_AGREEMENT reads it. */
export const EVALUATION_FILE = "judge-evaluation.json";

const Percent = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);

/** One check's figures: agreement with the labels and with the inspector, the model's mistakes, its cost. */
const CheckFigures = Type.Object({
  /** Rows with a label (pass or fail) that ran. */
  rows: Type.Integer(),
  /**
   * Against the labels: rows the model answered (pass or fail), how many agreed, and its mistakes. agreement is
   * agreed of all rows: a row the model could not answer counts against it (enabled, that row would have no verdict).
   */
  labels: Type.Object({
    scored: Type.Integer(),
    agreed: Type.Integer(),
    agreement: Percent,
    falseFails: Type.Integer(),
    misses: Type.Integer(),
  }),
  /** Against the inspector's verdict on the same captures (what the model was given). */
  inspector: Type.Object({ compared: Type.Integer(), agreed: Type.Integer(), agreement: Percent }),
  /** The model failed, the inspector found nothing: these rows would be NEEDS_REVIEW errors, not fails. */
  needsReview: Type.Integer(),
  /** The model did not answer, or not in the schema. */
  errors: Type.Integer(),
  latencyP50Ms: Type.Union([Type.Number(), Type.Null()]),
  tokens: Type.Object({ prompt: Type.Integer(), completion: Type.Integer(), total: Type.Integer() }),
});

export const EvaluationFile = Type.Object({
  model: Type.String(),
  promptVersion: Type.String(),
  evaluatedAt: Type.String(),
  corpora: Type.Array(Type.String()),
  checks: Type.Record(Type.String(), CheckFigures),
});
export type Evaluation = Static<typeof EvaluationFile>;
export type CheckEvaluation = Static<typeof CheckFigures>;

/** A visual row as the job answered it in verbose detail (its judge's provenance included). */
export interface JudgedRow {
  validationId: string;
  verdict: Verdict;
  reasonCode?: string;
  judge?: JudgeProvenance;
}

/** One row of the evaluation, for the per-case listing. */
export interface EvaluatedRow {
  caseId: string;
  check: string;
  label: "pass" | "fail";
  inspector: Verdict | null;
  model: "pass" | "fail" | "error";
}

const percent = (a: number, b: number) => (b ? Math.round((1000 * a) / b) / 10 : null);

/**
 * Tallies a model's verdicts on labelled rows. The model's own answer is read from the provenance (a NEEDS_REVIEW
 * row is the model's fail, scored as such: the evaluation measures the model, not the guard in front of it).
 */
export class JudgeEvaluation {
  readonly rows: EvaluatedRow[] = [];
  private readonly latencies = new Map<string, number[]>();
  private readonly tokens = new Map<string, CheckEvaluation["tokens"]>();

  score(caseId: string, check: string, label: "pass" | "fail", row: JudgedRow): void {
    const judge = row.judge;
    const model = judge?.answer ?? (row.verdict === "error" || !judge ? "error" : row.verdict);
    this.rows.push({ caseId, check, label, inspector: judge?.inspection.verdict ?? null, model });
    if (judge) {
      this.latencies.set(check, [...(this.latencies.get(check) ?? []), judge.latencyMs]);
      const t = this.tokens.get(check) ?? { prompt: 0, completion: 0, total: 0 };
      t.prompt += judge.usage?.promptTokens ?? 0;
      t.completion += judge.usage?.completionTokens ?? 0;
      t.total += judge.usage?.totalTokens ?? 0;
      this.tokens.set(check, t);
    }
  }

  figures(): Record<string, CheckEvaluation> {
    const out: Record<string, CheckEvaluation> = {};
    for (const check of [...new Set(this.rows.map((r) => r.check))].sort()) {
      const rows = this.rows.filter((r) => r.check === check);
      const answered = rows.filter((r) => r.model !== "error");
      const agreed = answered.filter((r) => r.model === r.label).length;
      const compared = answered.filter((r) => r.inspector === "pass" || r.inspector === "fail");
      const sorted = [...(this.latencies.get(check) ?? [])].sort((a, b) => a - b);
      out[check] = {
        rows: rows.length,
        labels: {
          scored: answered.length,
          agreed,
          agreement: percent(agreed, rows.length),
          falseFails: answered.filter((r) => r.model === "fail" && r.label === "pass").length,
          misses: answered.filter((r) => r.model === "pass" && r.label === "fail").length,
        },
        inspector: {
          compared: compared.length,
          agreed: compared.filter((r) => r.model === r.inspector).length,
          agreement: percent(compared.filter((r) => r.model === r.inspector).length, compared.length),
        },
        needsReview: answered.filter((r) => r.model === "fail" && r.inspector === "pass").length,
        errors: rows.length - answered.length,
        latencyP50Ms: sorted.length ? sorted[Math.ceil(sorted.length / 2) - 1]! : null,
        tokens: this.tokens.get(check) ?? { prompt: 0, completion: 0, total: 0 },
      };
    }
    return out;
  }

  /** The report as text: a line per check, then the rows where the model and the label disagree. */
  report(model: string): string {
    const pct = (p: number | null) => (p === null ? "-" : `${p}%`);
    const lines = [
      `Model ${model}: agreement per visual check on the labelled corpora (figures measured here, on these cases only)`,
      "",
      [
        "check".padEnd(28),
        "labels".padStart(14),
        "inspector".padStart(14),
        "false fails".padStart(12),
        "misses".padStart(7),
        "review".padStart(7),
        "errors".padStart(7),
        "p50 ms".padStart(8),
        "tokens".padStart(9),
      ].join(" "),
    ];
    for (const [check, f] of Object.entries(this.figures()))
      lines.push(
        [
          check.padEnd(28),
          `${f.labels.agreed}/${f.rows} ${pct(f.labels.agreement)}`.padStart(14),
          `${f.inspector.agreed}/${f.inspector.compared} ${pct(f.inspector.agreement)}`.padStart(14),
          String(f.labels.falseFails).padStart(12),
          String(f.labels.misses).padStart(7),
          String(f.needsReview).padStart(7),
          String(f.errors).padStart(7),
          String(f.latencyP50Ms ?? "-").padStart(8),
          String(f.tokens.total).padStart(9),
        ].join(" "),
      );
    const wrong = this.rows.filter((r) => r.model !== r.label);
    if (wrong.length) {
      lines.push("", `Disagreements with the labels (${wrong.length}):`);
      for (const r of wrong)
        lines.push(`  ${r.caseId}: ${r.check}: label ${r.label}, model ${r.model}, inspector ${r.inspector ?? "-"}`);
    }
    return lines.join("\n");
  }
}

const checkFile = TypeCompiler.Compile(EvaluationFile);
let cached: { path: string; mtimeMs: number; size: number; evaluation: Evaluation | null } | undefined;

/** The stored evaluation, re-read when the file changes; null when there is none or it is not one. */
export function readEvaluation(dataDir: string): Evaluation | null {
  const path = join(dataDir, EVALUATION_FILE);
  if (!existsSync(path)) return null;
  const { mtimeMs, size } = statSync(path);
  if (cached?.path === path && cached.mtimeMs === mtimeMs && cached.size === size) return cached.evaluation;
  let evaluation: Evaluation | null = null;
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (checkFile.Check(value)) evaluation = value;
    else console.warn(`${path} is not an evaluation written by \`assay judge evaluate\`; no check is enabled by it.`);
  } catch (e) {
    console.warn(`${path} could not be read (${(e as Error).message}); no check is enabled by it.`);
  }
  cached = { path, mtimeMs, size, evaluation };
  return evaluation;
}

/**
 * Stores the evaluation. The stored figures of checks not evaluated this time are kept when they measured the same
 * model and prompt version (an evaluation of one check adds to the others); otherwise the file is replaced. Written
 * whole (a temporary file renamed over the old one), so a server never reads half of it. Returns the path and what
 * was stored.
 */
export function writeEvaluation(dataDir: string, evaluation: Evaluation): { path: string; stored: Evaluation } {
  const path = join(dataDir, EVALUATION_FILE);
  const before = readEvaluation(dataDir);
  const same = before?.model === evaluation.model && before.promptVersion === evaluation.promptVersion;
  const stored = same
    ? {
        ...evaluation,
        corpora: [...new Set([...before.corpora, ...evaluation.corpora])],
        checks: { ...before.checks, ...evaluation.checks },
      }
    : evaluation;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(stored, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
  return { path, stored };
}
