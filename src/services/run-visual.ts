import type { RunStartedData, VisualDiffData } from "../../events/runs";
import { screenshotsOf, type ScreenshotRow } from "../../projections/jobs";
import { runPages, type RunPageRow } from "../../projections/runs";
import type { ReadModels } from "../../projections/projection";
import { AppError } from "../errors/app-error";
import type { ArtifactKind } from "../capture/artifacts";
import { pageMatches } from "../domain/run-comparison";
import { parseRunFailOn } from "../domain/run-policy";
import { DEFAULT_MAX_CHANGED_RATIO, DEFAULT_VISUAL_THRESHOLD, type Box } from "../domain/visual-diff";
import { diffOnThread } from "../visual-diff-thread";
import type { CaptureService } from "./captures";
import type { CaptureExtras } from "./job-runner";
import type { ServiceContext } from "./context";

/**
 * A run's visual comparison (issue 26 §3): each page's screenshot at each size against its baseline page's (same
 * pageKey, same size), diffed by src/domain/visual-diff.ts when the run completes, and recorded on RunCompleted. A run
 * asks for it with `visual` settings or with `visual` in failOn; its pages are then screenshotted at each of their
 * sizes (at no extra credit), with the boxes of its mask selectors measured beside each screenshot.
 */

type VisualSettings = NonNullable<RunStartedData["visual"]>;
type Mask = NonNullable<VisualSettings["masks"]>[number];

/** Whether a run compares its screenshots with its baseline's: it names visual settings, or blocks on visual changes. */
export const asksVisual = (run: { visual?: VisualSettings | null; failOn: string }): boolean =>
  Boolean(run.visual) || parseRunFailOn(run.failOn).visual;

const masksFor = (visual: VisualSettings | null | undefined, pageKey: string): Mask[] =>
  (visual?.masks ?? []).filter((m) => !m.page || pageMatches(m.page, pageKey));

/** What a page of a run that asks for the visual comparison captures beyond its checks' needs. */
export function visualCapture(visual: VisualSettings | undefined, pageKey: string): CaptureExtras {
  const selectors = [...new Set(masksFor(visual, pageKey).flatMap((m) => (m.selector ? [m.selector] : [])))];
  const alsoNeeds: ArtifactKind[] = selectors.length ? ["screenshot", "mask-boxes"] : ["screenshot"];
  return { alsoNeeds, ...(selectors.length ? { maskSelectors: selectors } : {}) };
}

/** A page of the run and its counterpart in the baseline run. */
export interface PagePair {
  current: RunPageRow;
  baseline: RunPageRow;
}

/**
 * A run's webpage pages with their counterparts in the baseline run (the same pageKey). Email pages are not compared:
 * an email page's captures are its mail-client renders, several at one size.
 */
export function pagePairs(db: ReadModels, runId: string, baselineRunId: string): PagePair[] {
  const web = (id: string) => runPages(db, id).filter((p) => p.type !== "email");
  const before = new Map(web(baselineRunId).map((p) => [p.pageKey, p]));
  return web(runId).flatMap((current) => {
    const baseline = before.get(current.pageKey);
    return baseline ? [{ current, baseline }] : [];
  });
}

/**
 * Diffs every page that has a baseline counterpart, size by size where both have a screenshot (identical bytes are
 * unchanged without decoding), stores a diff image where any pixel changed, and answers what RunCompleted records.
 * One size at a time, decoded and diffed on the visual diff's thread (src/visual-diff-thread.ts), so the node's main
 * thread serves its requests meanwhile.
 */
export async function compareVisually(
  ctx: Pick<ServiceContext, "readModels"> & { captures: CaptureService },
  customerId: string,
  visual: VisualSettings | null | undefined,
  pairs: readonly PagePair[],
): Promise<VisualDiffData[]> {
  const threshold = visual?.threshold ?? DEFAULT_VISUAL_THRESHOLD;
  const maxChangedRatio = visual?.maxChangedRatio ?? DEFAULT_MAX_CHANGED_RATIO;
  const shots = screenshotsOf(ctx.readModels, [
    ...pairs.map((p) => p.current.jobId),
    ...pairs.map((p) => p.baseline.jobId),
  ]);
  const out: VisualDiffData[] = [];
  for (const { current, baseline } of pairs) {
    const before = new Map(shots.get(baseline.jobId)!.map((s) => [s.viewport, s]));
    const masks = masksFor(visual, current.pageKey);
    for (const now of shots.get(current.jobId)!) {
      const then = before.get(now.viewport);
      if (!then) continue;
      const entry = { index: current.index, jobId: current.jobId, size: now.viewport };
      const keys = { baselineKey: then.key, currentKey: now.key };
      if (now.sha256 === then.sha256) {
        out.push({ ...entry, changedRatio: 0, changed: false, ...keys });
        continue;
      }
      try {
        out.push({
          ...entry,
          ...keys,
          ...(await diffOne(ctx, customerId, { then, now, masks, threshold, maxChangedRatio })),
        });
      } catch (e) {
        // A screenshot that cannot be read or decoded (its file gone from the store) is left out of the comparison.
        console.error(`visual diff of ${now.key} against ${then.key}:`, (e as Error).message);
      }
    }
  }
  return out;
}

async function diffOne(
  ctx: { captures: CaptureService },
  customerId: string,
  o: { then: ScreenshotRow; now: ScreenshotRow; masks: readonly Mask[]; threshold: number; maxChangedRatio: number },
): Promise<Pick<VisualDiffData, "changedRatio" | "changed" | "diff">> {
  const [a, b] = await Promise.all([
    ctx.captures.read(customerId, o.then.key),
    ctx.captures.read(customerId, o.now.key),
  ]);
  const result = await diffOnThread({
    baseline: { contentType: a.row.contentType, data: a.data },
    current: { contentType: b.row.contentType, data: b.data },
    threshold: o.threshold,
    masks: maskBoxes(o.masks, o.then, o.now),
  });
  if (!result.png) return { changedRatio: 0, changed: false };
  const diff = await ctx.captures.store(customerId, o.now.jobId, `${o.now.jobId}-${o.now.viewport}-diff.png`, {
    viewport: o.now.viewport,
    contentType: "image/png",
    data: result.png,
  });
  return { changedRatio: result.changedRatio, changed: result.changedRatio > o.maxChangedRatio, diff };
}

/** A selector's boxes are widened by a JPEG block each way: the compression smears an element's edges that far. */
const EDGE = 8;

/**
 * The regions left out of one size's comparison: the run's rectangles, and wherever a mask selector's elements were
 * in either screenshot (an element that moved is masked where it was and where it is, when the baseline run named the selector too).
 */
function maskBoxes(masks: readonly Mask[], then: ScreenshotRow, now: ScreenshotRow): Box[] {
  const boxes: Box[] = [];
  for (const m of masks) {
    if (m.selector) {
      for (const b of [...then.maskBoxes, ...now.maskBoxes])
        if (b.selector === m.selector)
          boxes.push({ x: b.x - EDGE, y: b.y - EDGE, width: b.width + 2 * EDGE, height: b.height + 2 * EDGE });
    } else if (m.x !== undefined && m.y !== undefined && m.width !== undefined && m.height !== undefined) {
      boxes.push({ x: m.x, y: m.y, width: m.width, height: m.height });
    }
  }
  return boxes;
}

/** A visual mask names a selector or a whole rectangle (x, y, width and height); INVALID_REQUEST_BODY otherwise. */
export function checkMasks(visual: { masks?: Array<Record<string, unknown>> } | undefined): void {
  const problems = (visual?.masks ?? []).flatMap((m, i) =>
    m.selector !== undefined || ["x", "y", "width", "height"].every((f) => m[f] !== undefined)
      ? []
      : [
          {
            path: `visual.masks[${i}]`,
            message: "A mask names a selector, or a rectangle with x, y, width and height",
          },
        ],
  );
  if (problems.length)
    throw new AppError(
      "INVALID_REQUEST_BODY",
      `${problems[0]!.path}: a mask names a selector, or a rectangle with x, y, width and height. Nothing was charged.`,
      { problems },
    );
}
