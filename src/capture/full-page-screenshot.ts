import type { Page } from "playwright-core";
import type { Screenshot } from "./artifact-shapes";
import type { CaptureSize } from "./vocabulary";

/** The document's width and whole height, read in the page (in either world: it reads nothing but the layout). */
export function documentExtent(): { width: number; height: number } {
  return {
    width: document.documentElement.clientWidth,
    height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  };
}

/**
 * A full-page JPEG (faster than PNG at the same use) of a document of the given extent, cut at maxHeight: what a
 * webpage's screenshot gatherer and a mail client's render both keep.
 */
export async function fullPageJpeg(
  page: Page,
  viewport: CaptureSize,
  extent: { width: number; height: number },
  maxHeight: number,
): Promise<Screenshot> {
  const { width, height } = extent;
  const clipHeight = Math.max(1, Math.min(height, maxHeight));
  const data = await page.screenshot({
    type: "jpeg",
    quality: 80,
    fullPage: true,
    clip: { x: 0, y: 0, width, height: clipHeight },
  });
  return {
    viewport,
    contentType: "image/jpeg",
    width,
    height: clipHeight,
    pageHeight: height,
    cut: height > clipHeight,
    data,
  };
}
