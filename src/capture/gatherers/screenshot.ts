import { documentExtent, fullPageJpeg } from "../full-page-screenshot";
import { defineWebGatherer } from "./web-page";

/** "screenshot": a full-page JPEG at each size, cut at the height limit. */
export const screenshotGatherer = defineWebGatherer({
  kind: "screenshot",
  sizes: "each",
  dependsOn: [],
  async gather({ page, world, limits }, size) {
    const extent = await world.run(documentExtent);
    return { screenshots: await fullPageJpeg(page, size, extent, limits.screenshotMaxHeight) };
  },
});
