import { dataUrl, inBlankPage } from "../image-evidence";
import { IMAGE_TEXT_LIMITS, readPictures, type ImageTexts, type PictureSource } from "../image-text";
import { PAGE_HELPERS_KEY } from "../page-helpers";
import { IMAGES_HELPERS, snapshotPictures } from "../page-functions/images";
import type { PagePicture } from "../artifact-shapes";
import { defineWebGatherer } from "./web-page";

/**
 * "image-text": the text painted in the page's pictures, read by OCR (ocr.ts, Tesseract) at the size the page loaded
 * at (desktop-md): each shown <img> or <input type=image> large enough to hold text, from the bytes the page received
 * (kept as they arrive) or its data: URL, at most IMAGE_TEXT_LIMITS.maxPictures distinct sources. A page without
 * such pictures costs one page function and nothing more. The pictures are listed at load; they are rasterized
 * (in a blank page) and read in the background while the page is gathered at its sizes.
 */
export const imageTextGatherer = defineWebGatherer({
  kind: "image-text",
  sizes: "background",
  dependsOn: [],
  helpers: [IMAGES_HELPERS],
  prepare({ network }) {
    network.keepImageBodies();
  },
  async begin({ world, context, network, textReader }): Promise<{
    rest: Promise<{ imageText: { pictures: PagePicture[]; texts: ImageTexts } }>;
  }> {
    const pictures = await world.run(snapshotPictures, {
      helpersKey: PAGE_HELPERS_KEY,
      min: { width: IMAGE_TEXT_LIMITS.minWidth, height: IMAGE_TEXT_LIMITS.minHeight },
    });
    const sources: PictureSource[] = [];
    let skipped = 0;
    for (const src of new Set(pictures.map((p) => p.src))) {
      const kept = network.keptImages.bodies.get(src);
      const bytes = /^data:/i.test(src) ? src : kept ? dataUrl(kept.contentType, kept.body) : null;
      if (!bytes) sources.push({ key: src, error: "its bytes were not received while the page loaded" });
      else if (sources.filter((s) => "dataUrl" in s).length >= IMAGE_TEXT_LIMITS.maxPictures) skipped++;
      else sources.push({ key: src, dataUrl: bytes });
    }
    const reading = readPictures((fn) => inBlankPage(context, fn), textReader, sources, skipped);
    return { rest: reading.then((texts) => ({ imageText: { pictures, texts } })) };
  },
});
