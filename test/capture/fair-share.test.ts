import { afterAll, beforeAll, expect, test } from "bun:test";
import { BrowserPool } from "../../src/capture/browser-pool";
import { findChromium } from "../../src/capture/chromium-launch";

/**
 * The pool's admission is fair across lanes: round robin between the lanes that have uses waiting, arrival order
 * within one. One real Chromium with two turns; each use holds its turn (with a context open) until the test ends
 * it, so the order in which waiting uses get their turns is seen exactly.
 */

let pool: BrowserPool;

beforeAll(async () => {
  pool = new BrowserPool({ executablePath: findChromium()!, browsers: 1, pagesPerBrowser: 2 });
  await pool.warm();
});
afterAll(() => pool.close());

/** Uses of the pool that each hold their turn until ended; `started` lists their names in the order they got one. */
function holder() {
  const started: string[] = [];
  const ends = new Map<string, () => void>();
  const done: Promise<unknown>[] = [];
  const use = (name: string, lane?: string) => {
    const ended = new Promise<void>((resolve) => ends.set(name, resolve));
    done.push(
      pool.use(async (browser) => {
        started.push(name);
        const context = await browser.newContext();
        await ended;
        await context.close();
      }, lane),
    );
  };
  const end = async (name: string) => {
    ends.get(name)!();
    const count = started.length;
    // The turn passes on once the use has ended: wait until the next waiter has it (or none waits).
    while (pool.waiting > 0 && started.length === count) await Bun.sleep(5);
  };
  return { started, use, end, all: () => Promise.all(done) };
}

test("a run of many uses in one lane and a single use of another lane after it: the single one gets the first turn that ends", async () => {
  const h = holder();
  for (let i = 0; i < 10; i++) h.use(`run-${i}`, "org-a");
  while (h.started.length < 2) await Bun.sleep(5);
  expect(pool.waiting).toBe(8);
  h.use("single", "org-b");
  expect(pool.waiting).toBe(9);

  await h.end("run-0");
  expect(h.started).toEqual(["run-0", "run-1", "single"]);
  // Then the run takes its turns in arrival order, the single use's lane having nothing more waiting.
  for (const name of ["run-1", "single", "run-2", "run-3", "run-4", "run-5", "run-6", "run-7", "run-8"])
    await h.end(name);
  await h.end("run-9");
  await h.all();
  expect(h.started).toEqual(["run-0", "run-1", "single", ...Array.from({ length: 8 }, (_, i) => `run-${i + 2}`)]);
  expect(pool.waiting).toBe(0);
});

test("lanes that keep uses waiting take turns one for one, each in its own arrival order", async () => {
  const h = holder();
  h.use("hold-1");
  h.use("hold-2");
  while (h.started.length < 2) await Bun.sleep(5);
  for (let i = 0; i < 4; i++) h.use(`a-${i}`, "org-a");
  for (let i = 0; i < 4; i++) h.use(`b-${i}`, "org-b");
  for (let i = 0; i < 2; i++) h.use(`c-${i}`, "org-c");
  expect(pool.waiting).toBe(10);

  await h.end("hold-1");
  await h.end("hold-2");
  for (let i = 2; i < 12; i++) await h.end(h.started[i]!);
  await h.all();
  expect(h.started.slice(2)).toEqual(["a-0", "b-0", "c-0", "a-1", "b-1", "c-1", "a-2", "b-2", "a-3", "b-3"]);
});

test("uses that name no lane share one, in arrival order", async () => {
  const h = holder();
  for (let i = 0; i < 5; i++) h.use(`u-${i}`);
  for (let i = 0; i < 5; i++) await h.end(`u-${i}`);
  await h.all();
  expect(h.started).toEqual(["u-0", "u-1", "u-2", "u-3", "u-4"]);
});
