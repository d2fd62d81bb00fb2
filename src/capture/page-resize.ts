import type { WebPage } from "./gatherers/web-page";
import { timed } from "../phases";

/**
 * Waits until the transitions and animations running after a resize have ended (those with an end: a spinner that
 * turns forever is not waited for), two frames first so that the resize's new styles have started theirs; at most
 * capMs. Whether the page was still at the end.
 */
export async function untilStill(page: Pick<WebPage, "world">, capMs: number): Promise<boolean> {
  const waiting = page.world.run(async (cap: number) => {
    // Frames may not come (a page busy in a loop the watchdog has yet to stop): a tenth of a second at most.
    await Promise.race([
      new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
      new Promise((r) => setTimeout(r, 100)),
    ]);
    const deadline = performance.now() + cap;
    const moving = () =>
      document
        .getAnimations()
        .filter((a) => a.playState === "running" && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    for (let now = moving(); now.length; now = moving()) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      await Promise.race([
        Promise.all(now.map((a) => a.finished.catch(() => undefined))),
        new Promise((r) => setTimeout(r, left)),
      ]);
    }
    return true;
  }, capMs);
  // A page that took the world with it (it navigated) has nothing left moving to wait for.
  return waiting.catch(() => true);
}

/**
 * The CSS viewport of a 1280×1024 screen zoomed to 200%, the size W3C ACT's zoom rules judge at (59br37). Chromium's
 * browser zoom scales CSS pixels to device pixels, so the page lays out in a viewport of half the width and height:
 * innerWidth is 640, media queries match 640, vw and vh are of 640×512. CSS `zoom: 2` on the root would not do: the
 * viewport, its media queries and units would stay those of 1280×1024. The device scale itself changes how the
 * layout is rasterised, not the layout measured here, so it is left as it is (nor do 2x pictures get fetched).
 */
export const ZOOMED_VIEWPORT = { width: 640, height: 512 };

/**
 * Runs `read` on the page laid out as zoomed to 200% (ZOOMED_VIEWPORT), once it is still there, then gives the page
 * back at the size it had, still again, for whatever reads it next.
 */
export async function atZoom<T>(page: Pick<WebPage, "page" | "world" | "limits">, read: () => Promise<T>): Promise<T> {
  const size = page.page.viewportSize();
  await timed("resize for 200% zoom", async () => {
    await page.page.setViewportSize(ZOOMED_VIEWPORT);
    await untilStill(page, page.limits.resizeStillCapMs);
  });
  try {
    return await read();
  } finally {
    if (size && !page.page.isClosed())
      await timed("resize for 200% zoom", async () => {
        await page.page.setViewportSize(size);
        await untilStill(page, page.limits.resizeStillCapMs);
      });
  }
}
