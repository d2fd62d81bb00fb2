import type { EngineCapture, EngineCaptures } from "../capture/engines/engine-captures";
import type { WebArtifacts, Screenshot } from "../capture/artifacts";
import type { WebSubject } from "../capture/web-capture";
import { ENGINE_NAMES, RENDER_ENGINES, type CaptureSize, type RenderEngine } from "../capture/vocabulary";
import { EXTRA_ENGINE_CREDITS_PER_RENDER } from "../catalog/render-pricing";
import { acrossEngines } from "../domain/engine-verdict";
import { enginesOf, sizesOf, type PlannedJob, type PlannedValidation } from "../domain/planned-job";
import type { Finding, Outcome } from "../validations/types";

/**
 * A webpage job's renders in engines beyond Chromium (WebKit, Gecko), for the checks judged in them: the page rendered
 * once per engine at every size those checks read, alongside the Chromium capture and beside each other (each render
 * a turn of the pool's admission); each such check evaluated on
 * each engine's geometry and given one verdict across them (src/domain/engine-verdict.ts); their screenshots stored
 * as captures like Chromium's, under `<jobId>-<engine>-<size>.jpg`.
 */

type ExtraEngine = Exclude<RenderEngine, "chromium">;
export type EngineRenders = Partial<Record<ExtraEngine, EngineCapture>>;

/** What a check's evidence gains from its extra engines: screenshots and their keys, and the parts that failed. */
export interface EngineEvidence {
  screenshots: Screenshot[];
  keys: string[];
  undelivered: Array<{ name: string; credits: number; finding: Finding }>;
}

export const engineCaptureKey = (jobId: string, engine: RenderEngine, size: CaptureSize) =>
  `${jobId}-${engine}-${size}.jpg`;

/** The engine a stored capture was rendered in, from its key (every other capture is Chromium's). */
export function engineOfCaptureKey(key: string): RenderEngine {
  const engine = /-([a-z]+)-[a-z]+-[a-z]+\.jpg$/.exec(key)?.[1];
  return RENDER_ENGINES.find((e) => e === engine && e !== "chromium") ?? "chromium";
}

const extraEnginesOf = (v: PlannedValidation) => enginesOf(v).filter((e): e is ExtraEngine => e !== "chromium");

/** Renders the page in every extra engine a check of the job is judged in, at the sizes those checks read. */
export async function renderInEngines(
  engines: EngineCaptures,
  job: PlannedJob,
  subject: WebSubject,
  lane: string,
): Promise<EngineRenders> {
  const sizes = new Map<ExtraEngine, Set<CaptureSize>>();
  for (const v of job.run)
    for (const engine of extraEnginesOf(v)) {
      const of = sizes.get(engine) ?? new Set<CaptureSize>();
      for (const s of sizesOf(v.module, job.captureSizes)) of.add(s);
      sizes.set(engine, of);
    }
  const capture = { webkit: engines.captureWebKit, gecko: engines.captureGecko };
  return Object.fromEntries(
    await Promise.all(
      [...sizes].map(async ([engine, of]) => [engine, await capture[engine].call(engines, subject, [...of], lane)]),
    ),
  );
}

/** The engine screenshots to store: one per engine and size, however many checks read it. */
export function engineScreenshots(jobId: string, renders: EngineRenders): Array<{ key: string; shot: Screenshot }> {
  return Object.entries(renders).flatMap(([engine, capture]) =>
    capture.ok
      ? Object.entries(capture.shots).map(([size, shot]) => ({
          key: engineCaptureKey(jobId, engine as RenderEngine, size as CaptureSize),
          shot: shot.screenshot,
        }))
      : [],
  );
}

/**
 * A check's verdict across its engines: Chromium's from `inChromium`, each extra engine's from `evaluate` on that
 * engine's geometry at the check's sizes. An engine whose render failed is left out (its part is undelivered).
 */
export async function evaluateAcrossEngines(
  v: PlannedValidation,
  job: PlannedJob,
  renders: EngineRenders,
  finalUrl: string,
  inChromium: () => Outcome | Promise<Outcome>,
  evaluate: (artifacts: WebArtifacts) => Outcome | Promise<Outcome>,
): Promise<Outcome> {
  const outcomes: Array<{ engine: RenderEngine; outcome: Outcome }> = [];
  if (enginesOf(v).includes("chromium")) outcomes.push({ engine: "chromium", outcome: await inChromium() });
  for (const engine of extraEnginesOf(v)) {
    const capture = renders[engine];
    if (!capture?.ok) continue;
    const sizes = sizesOf(v.module, job.captureSizes);
    const layout = Object.fromEntries(sizes.map((s) => [s, capture.shots[s]!.layout]));
    outcomes.push({ engine, outcome: await evaluate({ finalUrl, layout }) });
  }
  if (!outcomes.length) {
    const cause = `The page could not be rendered in ${extraEnginesOf(v)
      .map((e) => ENGINE_NAMES[e])
      .join(", ")}, so this check has no verdict.`;
    return { verdict: "error", reason: cause, reasoning: cause, findings: [] };
  }
  return acrossEngines(outcomes);
}

/** A check's screenshots and keys in its extra engines, and for an engine whose render failed, the part it refunds. */
export function engineEvidence(
  jobId: string,
  v: PlannedValidation,
  job: PlannedJob,
  renders: EngineRenders,
): EngineEvidence {
  const evidence: EngineEvidence = { screenshots: [], keys: [], undelivered: [] };
  const sizes = sizesOf(v.module, job.captureSizes);
  for (const engine of extraEnginesOf(v)) {
    const capture = renders[engine];
    if (capture?.ok) {
      for (const size of sizes) {
        evidence.screenshots.push(capture.shots[size]!.screenshot);
        evidence.keys.push(engineCaptureKey(jobId, engine, size));
      }
      continue;
    }
    const credits = sizes.length * EXTRA_ENGINE_CREDITS_PER_RENDER;
    const error = capture ? capture.error : "not rendered";
    evidence.undelivered.push({
      name: ENGINE_NAMES[engine],
      credits,
      finding: {
        message: `The page could not be rendered in ${ENGINE_NAMES[engine]}, so this verdict does not cover it: ${error} (refunded)`,
        engine,
        measured: { refundedCredits: credits },
      },
    });
  }
  return evidence;
}
