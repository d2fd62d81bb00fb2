import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, scratchDirs } from "../support/harness";
import { visionModel } from "../support/vision-model";
import { PROMPT_VERSION } from "../../src/judge/model";
import { JudgeEvaluation } from "../../src/judge/evaluation";
import { loadCases } from "../../scripts/corpus/cases";

const vision = visionModel();
const dirs = scratchDirs();
afterAll(() => {
  vision.stop();
  dirs.removeAll();
});

/** The operator's data directory of the first two tests: the second adds its check to the first's evaluation. */
const dataDir = dirs.next();
const modelEnv = (dir: string) => ({
  DATA_DIR: dir,
  ASSAY_VISION_BASE_URL: vision.baseURL,
  ASSAY_VISION_MODEL: "test-vision",
  ASSAY_VISION_API_KEY: "sk-test",
});

test("assay judge evaluate: a slice of the real-world corpus through a model that agrees on some cases and not others", async () => {
  // The first four real-world webpages, in the corpus's order: the first labelled fail for no-horizontal-overflow
  // (AdminLTE's page is wider than a phone), the others pass.
  const slice = loadCases("web").slice(0, 4);
  expect(slice.map((c) => c.labels["no-horizontal-overflow"]?.expect)).toEqual(["fail", "pass", "pass", "pass"]);
  const usage = (total: number) => ({ prompt_tokens: total - 10, completion_tokens: 10, total_tokens: total });
  vision.script.push(
    { verdict: "fail", reasoning: "Runs off.", reason: "Too wide", findings: [], usage: usage(1000) },
    { verdict: "fail", reasoning: "Runs off.", reason: "Too wide", findings: [], usage: usage(1100) },
    { verdict: "pass", reasoning: "Fits.", findings: [], usage: usage(1200) },
    { content: "no idea", usage: usage(900) },
  );
  const before = vision.requests.length;
  const res = await runCli(
    [
      "judge",
      "evaluate",
      "--corpora",
      "real-world",
      "--check",
      "no-horizontal-overflow",
      "--limit",
      "4",
      "--json",
      "--write",
    ],
    modelEnv(dataDir),
  );
  expect(res.code).toBe(0);
  expect(vision.requests.length - before).toBe(4);
  const { evaluation, notRun } = JSON.parse(res.stdout);
  expect(notRun).toEqual([]);
  expect(evaluation.model).toBe("test-vision");
  expect(evaluation.promptVersion).toBe(PROMPT_VERSION);
  expect(evaluation.corpora).toEqual(["real-world"]);
  const figures = evaluation.checks["no-horizontal-overflow"];
  expect(Object.keys(evaluation.checks)).toEqual(["no-horizontal-overflow"]);
  // Four rows: three answered (two agree with the label, the first's fail among them, one false fail), one answer not in the schema, which
  // counts against the agreement (enabled, that row would have had no verdict).
  expect(figures.rows).toBe(4);
  expect(figures.labels).toEqual({ scored: 3, agreed: 2, agreement: 50, falseFails: 1, misses: 0 });
  // The inspector judges these pages as their labels say: the model's fail on a page it passes is one to review.
  expect(figures.inspector).toEqual({ compared: 3, agreed: 2, agreement: 66.7 });
  expect(figures.needsReview).toBe(1);
  expect(figures.errors).toBe(1);
  expect(figures.tokens).toEqual({ prompt: 4160, completion: 40, total: 4200 });
  expect(typeof figures.latencyP50Ms).toBe("number");
  // Stored for ASSAY_VISION_MIN_AGREEMENT, and nothing else written to the operator's data directory.
  expect(readdirSync(dataDir)).toEqual(["judge-evaluation.json"]);
  expect(JSON.parse(readFileSync(join(dataDir, "judge-evaluation.json"), "utf8"))).toEqual(evaluation);
  expect(res.stderr).toContain("written to");
});

test("the report as text: a line per check and each disagreement; --write adds the check to the stored evaluation", async () => {
  vision.script.push(
    { verdict: "fail", reasoning: "Overlaps.", reason: "Text overlaps", findings: [] },
    { verdict: "pass", reasoning: "Fine.", findings: [] },
  );
  const res = await runCli(
    ["judge", "evaluate", "--corpora", "real-world", "--check", "layout-not-broken", "--limit", "2", "--write"],
    modelEnv(dataDir),
  );
  expect(res.code).toBe(0);
  expect(res.stdout).toContain("Model test-vision");
  expect(res.stdout).toMatch(/layout-not-broken\s+1\/2 50%\s+1\/2 50%\s+1\s+0\s+1\s+0/);
  expect(res.stdout).toContain("Disagreements with the labels (1):");
  expect(res.stdout).toContain(
    "real-world/web/adminlte-docs-introduction: layout-not-broken: label pass, model fail, inspector pass",
  );
  const stored = JSON.parse(readFileSync(join(dataDir, "judge-evaluation.json"), "utf8"));
  expect(Object.keys(stored.checks).sort()).toEqual(["layout-not-broken", "no-horizontal-overflow"]);
  expect(stored.checks["layout-not-broken"].labels.agreement).toBe(50);
  expect(stored.checks["no-horizontal-overflow"].labels.agreement).toBe(50);
});

test("without a model configured, or with a check that is not visual, it refuses before running anything", async () => {
  const none = await runCli(["judge", "evaluate"], { DATA_DIR: dirs.next(), ASSAY_VISION_BASE_URL: "" });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("no vision model is configured");
  const before = vision.requests.length;
  const bad = await runCli(["judge", "evaluate", "--check", "page-title"], modelEnv(dirs.next()));
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("--check: page-title: not evaluable");
  const limit = await runCli(["judge", "evaluate", "--limit", "0"], modelEnv(dirs.next()));
  expect(limit.code).toBe(2);
  expect(limit.stderr).toContain("--limit must be a whole number");
  expect(vision.requests.length).toBe(before);
});

test("the figures: misses, needs review and inspector agreement from the rows' provenance", () => {
  const provenance = (answer: "pass" | "fail" | undefined, inspector: "pass" | "fail", latencyMs: number) => ({
    judge: "model" as const,
    model: "m",
    promptVersion: PROMPT_VERSION,
    images: [],
    inspection: { verdict: inspector, reasoning: "measured", findings: [] },
    ...(answer ? { answer } : {}),
    usage: { promptTokens: 90, completionTokens: 10, totalTokens: 100 },
    latencyMs,
  });
  const scored = new JudgeEvaluation();
  const row = (verdict: "pass" | "fail" | "error", judge: ReturnType<typeof provenance>) => ({
    validationId: "layout-not-broken",
    verdict,
    judge,
  });
  scored.score("a", "layout-not-broken", "fail", row("pass", provenance("pass", "fail", 300))); // a miss
  scored.score("b", "layout-not-broken", "fail", row("fail", provenance("fail", "fail", 100))); // agrees with both
  scored.score("c", "layout-not-broken", "fail", row("error", provenance("fail", "pass", 200))); // NEEDS_REVIEW row
  scored.score("d", "layout-not-broken", "pass", row("error", provenance(undefined, "pass", 400))); // no answer
  expect(scored.figures()["layout-not-broken"]).toEqual({
    rows: 4,
    labels: { scored: 3, agreed: 2, agreement: 50, falseFails: 0, misses: 1 },
    inspector: { compared: 3, agreed: 1, agreement: 33.3 },
    needsReview: 1,
    errors: 1,
    latencyP50Ms: 200,
    tokens: { prompt: 360, completion: 40, total: 400 },
  });
});
