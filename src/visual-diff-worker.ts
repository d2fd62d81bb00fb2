import { decodedScreenshot, encodedPng } from "./capture/screenshot-codec";
import { diffImages } from "./domain/visual-diff";
import type { VisualDiffRequest, VisualDiffAnswer } from "./visual-diff-thread";

/**
 * The visual diff's thread (src/visual-diff-thread.ts starts it): decodes a pair of screenshots, diffs them
 * (src/domain/visual-diff.ts) and encodes the diff image, off the node's main thread, so that a run's comparison of
 * tall pages never holds up its requests. It lives beside src/main.ts: a compiled binary bundles it as a second
 * entrypoint (package.json's build), found beside the first.
 */

declare const self: Worker;

self.onmessage = (event: MessageEvent<VisualDiffRequest>) => {
  const { id, baseline, current, threshold, masks } = event.data;
  try {
    const result = diffImages(decodedScreenshot(baseline), decodedScreenshot(current), { threshold, masks });
    const png = result.changedPixels ? encodedPng(result.diff) : undefined;
    const answer: VisualDiffAnswer = {
      id,
      changedPixels: result.changedPixels,
      changedRatio: result.changedRatio,
      png,
    };
    self.postMessage(answer, png ? [png.buffer as ArrayBuffer] : []);
  } catch (e) {
    self.postMessage({ id, error: (e as Error).message } satisfies VisualDiffAnswer);
  }
};
