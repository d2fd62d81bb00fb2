import type { Box } from "./domain/visual-diff";

/**
 * The visual diff's thread, as the services use it: one worker (src/visual-diff-worker.ts) per process, started at
 * the first diff and never holding the process open, given one pair of screenshots at a time. Kept at the top of
 * src/, beside the worker, because a compiled binary resolves the worker's URL from here (import.meta.url is the
 * binary's root there, the worker's directory).
 */

export interface VisualDiffRequest {
  id: number;
  baseline: { contentType: string; data: Uint8Array };
  current: { contentType: string; data: Uint8Array };
  threshold: number;
  masks: Box[];
}

export type VisualDiffAnswer =
  | { id: number; changedPixels: number; changedRatio: number; png?: Uint8Array | undefined }
  | { id: number; error: string };

const WORKER_URL = new URL("./visual-diff-worker.ts", import.meta.url).href;

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, { resolve: (a: VisualDiffAnswer) => void; reject: (e: Error) => void }>();

function thread(): Worker {
  if (worker) return worker;
  const started = new Worker(WORKER_URL);
  (started as Worker & { unref(): void }).unref();
  started.onmessage = (event: MessageEvent<VisualDiffAnswer>) => {
    waiting.get(event.data.id)?.resolve(event.data);
    waiting.delete(event.data.id);
  };
  started.onerror = (event) => {
    // The thread failed outside a request (it could not start): every request waiting fails, the next starts anew.
    for (const w of waiting.values()) w.reject(new Error(`the visual diff thread failed: ${event.message}`));
    waiting.clear();
    worker = null;
  };
  worker = started;
  return started;
}

/** Decodes, diffs and encodes one pair on the thread: the changed pixels and ratio, and the diff image if any changed. */
export function diffOnThread(
  request: Omit<VisualDiffRequest, "id">,
): Promise<{ changedPixels: number; changedRatio: number; png?: Uint8Array | undefined }> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    waiting.set(id, {
      resolve: (a) => ("error" in a ? reject(new Error(a.error)) : resolve(a)),
      reject,
    });
    thread().postMessage({ ...request, id } satisfies VisualDiffRequest);
  });
}
