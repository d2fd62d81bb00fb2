import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { findChromium, LAUNCH_OPTIONS } from "../../src/capture/chromium-launch";
import { AXE_TAGS, runAxe } from "../../src/capture/gatherers/axe";
import { IsolatedWorld } from "../../src/capture/isolated-world";

/**
 * axe runs at load, before the page is read at each size (screenshots, the DOM): Assay's aria-hidden-focus checks
 * (src/capture/axe-rules/hidden-focus.ts) focus elements of the page to decide, and must give the page back as they
 * found it. On real Chromium, in Assay's isolated world, as the axe gatherer runs it.
 */
const FIXTURE = join(
  import.meta.dir,
  "..",
  "fixtures",
  "web",
  "accessibility-wcag",
  "act",
  "aria-hidden-focus-sentinels.html",
);

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ ...LAUNCH_OPTIONS, executablePath: findChromium(process.env.CHROMIUM_PATH)! });
});
afterAll(() => browser.close());

test("deciding aria-hidden content by focusing it gives the page back its focused element and scroll position", async () => {
  const page = await browser.newPage();
  // A page scrolled down, with focus on the dialog's Close button, as a reader may have left it.
  const tall =
    '<div style="height: 3000px"></div><script>document.getElementById("close").focus(); scrollTo(0, 700);</script>';
  await page.setContent(readFileSync(FIXTURE, "utf8").replace("</body>", `${tall}</body>`));
  const world = await IsolatedWorld.open(page, await page.context().newCDPSession(page));
  const axe = await runAxe(world, AXE_TAGS);
  expect(axe.violations.find((r) => r.id === "aria-hidden-focus")?.nodes.map((n) => n.target)).toEqual(["#strands"]);
  expect(await page.evaluate(() => ({ focused: document.activeElement?.id, y: scrollY }))).toEqual({
    focused: "close",
    y: 700,
  });
  await page.close();
});
