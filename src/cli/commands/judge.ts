import type { Command } from "commander";
import { action, UsageError } from "../program";

/**
 * `assay judge evaluate`: measures the configured vision model (ASSAY_VISION_*) on the labelled corpora's visual
 * checks before anyone turns it on (docs/judges.md). The corpora and the tools that build their emails are part of
 * the repository, so it runs from a checkout (scripts/corpus/judge-run.ts); they are loaded only by this command.
 */
/**
 * The corpus runner, from the checkout this binary runs from. Its path is not a literal on purpose: a compiled binary
 * (`npm run build`) does not carry the corpora or their email build tools, and says so instead of bundling them.
 */
async function corpusRunner(): Promise<typeof import("../../../scripts/corpus/judge-run")> {
  const runner = ["..", "..", "..", "scripts", "corpus", "judge-run.ts"].join("/");
  try {
    return await import(runner);
  } catch (e) {
    throw new UsageError(
      `assay judge evaluate runs from a checkout of the repository (bun src/main.ts judge evaluate), where the corpora are: ${(e as Error).message}`,
    );
  }
}

export function registerJudgeCommands(program: Command): void {
  program
    .command("judge")
    .description("operator: the vision-model judge of visual checks")
    .command("evaluate")
    .description(
      "run the labelled corpora's visual checks through the configured vision model (ASSAY_VISION_*) and report, per check, agreement with the labels and with the inspector, false fails, misses, needs-review rows, p50 latency and tokens",
    )
    .option("--check <id...>", "only these visual checks (repeat, or separate with commas)")
    .option("--limit <n>", "at most n cases from each corpus and subject")
    .option("--corpora <list>", "real-world (corpus/ in the repository) and/or synthetic", "real-world,synthetic")
    .option("--write", "store the evaluation in DATA_DIR (judge-evaluation.json), read by ASSAY_VISION_MIN_AGREEMENT")
    .option("--json", "the evaluation as JSON")
    .action(
      action(async (opts: { check?: string[]; limit?: string; corpora: string; write?: boolean; json?: boolean }) => {
        const { loadConfig } = await import("../../config");
        const config = loadConfig();
        if (!config.vision)
          throw new UsageError(
            "no vision model is configured: set ASSAY_VISION_BASE_URL (and ASSAY_VISION_MODEL, ASSAY_VISION_API_KEY) to the model to evaluate",
          );
        const { EVALUABLE_CHECKS, runJudgeEvaluation } = await corpusRunner();
        const checks = (opts.check ?? [])
          .flatMap((c) => c.split(","))
          .map((c) => c.trim())
          .filter(Boolean);
        const unknown = checks.filter((c) => !EVALUABLE_CHECKS.includes(c));
        if (unknown.length)
          throw new UsageError(
            `--check: ${unknown.join(", ")}: not evaluable; the visual checks are ${EVALUABLE_CHECKS.join(", ")}`,
          );
        const limit = opts.limit === undefined ? undefined : Number(opts.limit);
        if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1))
          throw new UsageError(
            `--limit must be a whole number of cases, at least 1; got ${JSON.stringify(opts.limit)}`,
          );
        const corpora = opts.corpora.split(",").map((c) => c.trim());
        const bad = corpora.filter((c) => c !== "real-world" && c !== "synthetic");
        if (bad.length) throw new UsageError(`--corpora: ${bad.join(", ")}: expected real-world and/or synthetic`);
        const { evaluation, report, notRun } = await runJudgeEvaluation(config, {
          checks,
          corpora,
          ...(limit ? { limit } : {}),
        });
        if (opts.json) console.log(JSON.stringify({ evaluation, notRun }, null, 2));
        else {
          console.log(report);
          if (notRun.length) console.log(`\nNot run (${notRun.length}):\n${notRun.map((n) => `  ${n}`).join("\n")}`);
        }
        if (opts.write) {
          const { writeEvaluation } = await import("../../judge/evaluation");
          const { path, stored } = writeEvaluation(config.dataDir, evaluation);
          console.error(
            `evaluation of ${evaluation.model} (prompt ${evaluation.promptVersion}) written to ${path}, ${Object.keys(stored.checks).length} check(s) in it; ASSAY_VISION_MIN_AGREEMENT=<percent> enables the checks at or above it`,
          );
        }
        return 0;
      }),
    );
}
