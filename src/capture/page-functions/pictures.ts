/**
 * Page helpers for pictures decoded in a blank page of the job's context (image-evidence.ts measures them,
 * image-text.ts rasterizes them for OCR), installed there by page-helpers.ts before the page function runs.
 */

/** A picture decoded from `src` (a data: URL), or null when it does not decode, or not within 3 s, or has no size. */
export async function decodedPicture(src: string): Promise<HTMLImageElement | null> {
  const im = new Image();
  im.src = src;
  const decoded = await Promise.race([
    im.decode().then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
  ]);
  return decoded && im.naturalWidth && im.naturalHeight ? im : null;
}

export const PICTURE_HELPERS = { decodedPicture };
