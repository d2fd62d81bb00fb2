import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { descendants } from "../../bench/support";
import {
  BASE_CHROMIUM_ARGS,
  CHROMIUM_ARGS,
  PLAYWRIGHT_DISABLED_FEATURES,
  findChromium,
} from "../../src/capture/chromium-launch";

/**
 * The browser's feature switches: Chromium reads only the last --disable-features, so CHROMIUM_ARGS restates the
 * list Playwright passes and adds Assay's; and with them a context starts one renderer, its page's.
 */

const executablePath = findChromium(process.env.CHROMIUM_PATH)!;
let browser: Browser | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

/** The command lines of this process's descendants (the Chromium processes a test launched), read from /proc. */
function chromiumProcesses(): string[][] {
  return [...descendants(process.pid, new Set())]
    .filter((pid) => pid !== process.pid)
    .flatMap((pid) => {
      try {
        return [readFileSync(`/proc/${pid}/cmdline`, "utf8").split(/[\0 ]/)];
      } catch {
        return [];
      }
    });
}

const disabledFeatures = (args: string[]) =>
  args
    .filter((a) => a.startsWith("--disable-features="))
    .flatMap((a) => a.slice("--disable-features=".length).split(","));

test("CHROMIUM_ARGS restate every feature Playwright's launch disables, in the one --disable-features Chromium reads", async () => {
  browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
  const main = chromiumProcesses().find((args) => args.some((a) => a.startsWith("--remote-debugging-pipe")))!;
  const playwrights = disabledFeatures(main);
  expect(playwrights.length).toBeGreaterThan(0);
  expect([...playwrights].sort()).toEqual([...PLAYWRIGHT_DISABLED_FEATURES].sort());
  expect(CHROMIUM_ARGS.filter((a) => a.startsWith("--disable-features="))).toHaveLength(1);
  expect(disabledFeatures(CHROMIUM_ARGS)).toEqual(expect.arrayContaining(playwrights));
});

test("with CHROMIUM_ARGS a context starts one renderer, its page's: no spare renderer, no omnibox pop-up WebUI", async () => {
  const renderers = () => chromiumProcesses().filter((args) => args.includes("--type=renderer")).length;
  const openTwo = async () => {
    const contexts = await Promise.all([browser!.newContext(), browser!.newContext()]);
    for (const context of contexts) {
      const page = await context.newPage();
      await page.setContent("<h1>One renderer</h1>");
    }
    await Bun.sleep(500);
    const targets = (await (await browser!.newBrowserCDPSession()).send("Target.getTargets", {})).targetInfos;
    const counted = { renderers: renderers(), browserUi: targets.filter((t) => t.type === "browser_ui").length };
    await Promise.all(contexts.map((c) => c.close()));
    return counted;
  };
  browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
  const withoutOurs = await openTwo();
  // What the flags are for: without them Chromium 156 starts more than a renderer per page.
  expect(withoutOurs.renderers).toBeGreaterThan(2);
  expect(withoutOurs.browserUi).toBeGreaterThan(0);
  await browser.close();
  browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
  expect(await openTwo()).toEqual({ renderers: 2, browserUi: 0 });
});
