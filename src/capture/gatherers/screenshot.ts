import type { Screenshot } from "../artifact-shapes";
import { defineWebGatherer } from "./web-page";

/** "screenshot": a full-page JPEG at each size (faster than PNG at the same use), cut at the height limit. */
export const screenshotGatherer = defineWebGatherer({
  kind: "screenshot",
  sizes: "each",
  dependsOn: [],
  async gather({ page, world, limits }, size) {
    const { width, height } = await world.run(() => ({
      width: document.documentElement.clientWidth,
      height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
    }));
    const cut = height > limits.screenshotMaxHeight;
    const clipHeight = Math.min(height, limits.screenshotMaxHeight);
    const data = await page.screenshot({
      type: "jpeg",
      quality: 80,
      fullPage: true,
      clip: { x: 0, y: 0, width, height: clipHeight },
    });
    const screenshots: Screenshot = {
      viewport: size,
      contentType: "image/jpeg",
      width,
      height: clipHeight,
      pageHeight: height,
      cut,
      data,
    };
    return { screenshots };
  },
});
