/**
 * `npm run act`: every W3C ACT test case (corpus/act, its commit in corpus/act/README.md) run through Assay's HTTP
 * API with the checks its rule's mapping names (scripts/act/mapping.ts), and judged as the W3C judges
 * implementations. Writes reports/act/earl.json (EARL, JSON-LD), reports/act/summary.json and summary.md
 * (docs/act.md).
 *
 * `bun scripts/act.ts <ruleId> ...` runs those rules' cases only and prints their summary, writing nothing.
 * ASSAY_ACT_WIDTH: jobs at a time (default 2).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTestcases, runCases, TESTCASES_COMMIT } from "./act/run";
import { earlReport, summarize, summaryMarkdown } from "./act/report";

const ROOT = join(import.meta.dir, "..");
const OUT = join(ROOT, "reports", "act");

const only = process.argv.slice(2);
const testcases = loadTestcases();
const chosen = only.length ? testcases.filter((c) => only.includes(c.ruleId)) : testcases;

const started = performance.now();
const results = await runCases(chosen, Number(process.env.ASSAY_ACT_WIDTH ?? 2));
const seconds = Math.round((performance.now() - started) / 1000);

const versionOf = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
const meta = {
  version: versionOf(join(ROOT, "package.json")),
  axeVersion: versionOf(join(ROOT, "node_modules", "axe-core", "package.json")),
  testcasesCommit: TESTCASES_COMMIT,
};
const summary = summarize(results, meta);
const markdown = summaryMarkdown(summary);
if (only.length) {
  console.log(markdown);
} else {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "earl.json"), `${JSON.stringify(earlReport(results, meta), null, 2)}\n`);
  writeFileSync(join(OUT, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  writeFileSync(join(OUT, "summary.md"), markdown);
  console.log(markdown.split("\n").slice(0, 6).join("\n"));
}
console.error(`${chosen.length} cases in ${seconds} s`);
