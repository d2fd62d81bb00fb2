import { afterAll, beforeAll, expect, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { ScriptWatchdog } from "../../src/capture/script-watchdog";

/**
 * The script watchdog on real Chromium pages: an endless loop is stopped and reported once; a quiet page is not
 * reported when it is Assay's own process that stops answering for longer than the stall (its event loop held by
 * synchronous work, as when a check computes another job's verdicts on a loaded machine).
 */
// Long enough that a loaded machine (other test files running beside this one, `npm test` runs a file per core)
// answers a probe in time, a renderer that has just had its script stopped included: at 1 s, under that load, the
// stopped page's late answer was taken for a second stall.
const STALL_MS = 2_000;
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: findChromium(process.env.CHROMIUM_PATH),
    headless: true,
    args: BASE_CHROMIUM_ARGS,
  });
});
afterAll(() => browser?.close());

async function watchedPage(html: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Watched before the content arrives, as a capture does: a session attached once a loop holds the page's thread
  // is never attached at all (its commands, the termination included, wait for the thread), which under load made
  // the loop look unstoppable here.
  const cdp = await context.newCDPSession(page);
  const stops: number[] = [];
  const watchdog = new ScriptWatchdog(cdp, STALL_MS, () => stops.push(performance.now()));
  await page.setContent(html);
  return { context, page, watchdog, stops };
}

test("an endless loop is stopped and reported once; the page then answers", async () => {
  const { context, page, watchdog, stops } = await watchedPage(
    "<p>Looping</p><script>setTimeout(() => { for (;;) {} }, 50)</script>",
  );
  await Bun.sleep(4 * STALL_MS);
  await watchdog.finish();
  expect(stops.length).toBe(1);
  await expect(page.evaluate(() => document.querySelector("p")!.textContent)).resolves.toBe("Looping");
  await context.close();
});

test("a quiet page is not reported while this process's own event loop is held past the stall", async () => {
  const { context, watchdog, stops } = await watchedPage("<p>Quiet</p>");
  // The first probe is in flight; nothing here answers it for three stalls' worth of time.
  Bun.sleepSync(3 * STALL_MS);
  await Bun.sleep(STALL_MS);
  Bun.sleepSync(2 * STALL_MS);
  await watchdog.finish();
  expect(stops).toEqual([]);
  await context.close();
});
