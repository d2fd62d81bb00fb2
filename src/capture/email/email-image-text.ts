import PostalMime from "postal-mime";
import type { BrowserPool } from "../browser-pool";
import type { NetworkGuard } from "../network-guard";
import type { TextReader } from "../ocr";
import { dataUrl, inBlankPage, loadReference } from "../image-evidence";
import { IMAGE_TEXT_LIMITS, readPictures, type ImageTexts, type PictureSource } from "../image-text";
import type { EmailHtmlSnapshot } from "./snapshot-email-html";

/** A message's remote pictures are fetched (side by side) for at most this long in all. */
const REMOTE_PICTURE_TIMEOUT_MS = 5000;

/**
 * "image-text" of a message: the text painted in the pictures of its HTML part, read by OCR (ocr.ts). The pictures
 * are the HTML part's <img> elements not hidden and not declared smaller than IMAGE_TEXT_LIMITS (1×1 tracking
 * pixels are never fetched), at most IMAGE_TEXT_LIMITS.maxPictures distinct sources: a data: URL as written, a cid:
 * from the message's own parts, a remote one fetched through the network guard (as an images-on client would).
 * They are decoded in a blank page of their own context (offline: nothing in it reaches the network).
 */
export async function readEmailPictures(opts: {
  raw: Uint8Array;
  images: EmailHtmlSnapshot["images"];
  pool: BrowserPool;
  guard: NetworkGuard;
  reader: TextReader;
  admissionLane?: string;
}): Promise<ImageTexts> {
  const candidates = [
    ...new Set(
      opts.images
        .filter(
          (i) =>
            i.visible &&
            i.src &&
            !(i.width > 0 && i.width < IMAGE_TEXT_LIMITS.minWidth) &&
            !(i.height > 0 && i.height < IMAGE_TEXT_LIMITS.minHeight),
        )
        .map((i) => i.src),
    ),
  ];
  const read = candidates.slice(0, IMAGE_TEXT_LIMITS.maxPictures);
  const parts = read.some((src) => /^cid:/i.test(src)) ? await inlineParts(opts.raw) : new Map();
  const signal = AbortSignal.timeout(REMOTE_PICTURE_TIMEOUT_MS);
  const sources: PictureSource[] = await Promise.all(
    read.map(async (src): Promise<PictureSource> => {
      if (/^data:/i.test(src)) return { key: src, dataUrl: src };
      if (/^cid:/i.test(src)) {
        const part = parts.get(src.slice(4).trim().toLowerCase());
        return part ? { key: src, dataUrl: part } : { key: src, error: "the message has no part with this Content-ID" };
      }
      if (!/^(https?:)?\/\//i.test(src)) return { key: src, error: "it is not a data:, cid: or http(s) URL" };
      const loaded = await loadReference(src.startsWith("//") ? `https:${src}` : src, {
        guard: opts.guard,
        signal,
        kept: { bodies: new Map(), bytes: 0 },
      });
      return "src" in loaded ? { key: src, dataUrl: loaded.src } : { key: src, error: loaded.error };
    }),
  );
  return readPictures(
    (fn) =>
      opts.pool.use(async (browser, finishLater) => {
        const context = await browser.newContext({ offline: true, serviceWorkers: "block", acceptDownloads: false });
        try {
          await context.route("**/*", (route) => route.abort("blockedbyclient").catch(() => {}));
          return await inBlankPage(context, fn);
        } finally {
          finishLater(context.close().catch(() => {}));
        }
      }, opts.admissionLane),
    opts.reader,
    sources,
    candidates.length - read.length,
  );
}

/** The message's parts with a Content-ID, as data: URLs by their id (lower-cased, without <>). */
async function inlineParts(raw: Uint8Array): Promise<Map<string, string>> {
  const parsed = await new PostalMime().parse(raw);
  const parts = new Map<string, string>();
  for (const a of parsed.attachments) {
    const id = a.contentId?.replace(/^<|>$/g, "").trim().toLowerCase();
    if (id && typeof a.content !== "string") parts.set(id, dataUrl(a.mimeType, new Uint8Array(a.content)));
  }
  return parts;
}
