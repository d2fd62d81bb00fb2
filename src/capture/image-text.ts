import type { Page } from "playwright-core";
import type { OcrWord, TextReader } from "./ocr";
import { helpersScript, PAGE_HELPERS_KEY } from "./page-helpers";
import { PICTURE_HELPERS } from "./page-functions/pictures";

/** Limits on reading text in a job's pictures. */
export const IMAGE_TEXT_LIMITS = {
  /** Distinct pictures read per job (per page or message); the others are counted as skipped. */
  maxPictures: 10,
  /**
   * Pictures painted smaller than this (CSS pixels) are not read: icons, spacers, tracking pixels. 64 px wide leaves
   * out the common 40-48 px feature icons, each of which cost a rasterization and a Tesseract reading for words no
   * such icon holds.
   */
  minWidth: 64,
  minHeight: 14,
  /** The picture as Tesseract gets it: at most this many pixels, and this long a side (its time grows with them). */
  maxPixels: 2_000_000,
  maxSide: 2500,
  /** Reading stops starting new pictures once a job's reading has taken this long; the rest are counted as skipped. */
  budgetMs: 6000,
  /** Small pictures are enlarged until their longer side reaches this (at most 3×): Tesseract reads 20 px+ glyphs best. */
  targetSide: 1000,
};

/** The text read in one picture: its words, boxes in the picture's natural pixels. */
export interface PictureText {
  words: OcrWord[];
  naturalWidth: number;
  naturalHeight: number;
}

/** What reading the text in a job's pictures came to, by picture source (its URL as the page names it). */
export interface ImageTexts {
  read: Record<string, PictureText | { error: string }>;
  /** Set when the OCR engine could not be run at all (no picture was read): why. */
  unavailable?: string;
  /** Pictures not read because of the caps (IMAGE_TEXT_LIMITS.maxPictures, budgetMs). */
  skipped: number;
  /** Time spent rasterizing and reading, in ms (0 when there was nothing to read). */
  ms: number;
}

/** A picture to read: its source as the page names it, and its bytes as a data: URL (or why there are none). */
export type PictureSource = { key: string; dataUrl: string } | { key: string; error: string };

/** Runs `fn` in a page where no subject script runs (and JavaScript is on): a blank page of the job's context. */
export type InBlankPage = <T>(fn: (page: Page) => Promise<T>) => Promise<T>;

/**
 * Reads the text in pictures: each decoded and rasterized to PNG in a blank page (opened only when there is a picture
 * to decode), over white, enlarged when small, bounded in size; then read by `reader` (Tesseract, one process for
 * them all), no picture begun once IMAGE_TEXT_LIMITS.budgetMs is spent.
 */
export async function readPictures(
  inPage: InBlankPage,
  reader: TextReader,
  sources: PictureSource[],
  skipped: number,
): Promise<ImageTexts> {
  if (!sources.length) return { read: {}, skipped, ms: 0 };
  const started = performance.now();
  const read: ImageTexts["read"] = {};
  const decodable = sources.filter((s): s is { key: string; dataUrl: string } => "dataUrl" in s);
  for (const s of sources) if ("error" in s) read[s.key] = { error: s.error };
  const rasters = decodable.length
    ? await inPage(async (page) => {
        await page.evaluate(helpersScript([PICTURE_HELPERS]));
        return page.evaluate(rasterizeForOcr, {
          sources: decodable.map((s) => ({ key: s.key, src: s.dataUrl })),
          limits: IMAGE_TEXT_LIMITS,
          helpersKey: PAGE_HELPERS_KEY,
        });
      })
    : [];
  let unavailable: string | undefined;
  const pictures = rasters.filter((r) => "png" in r);
  for (const r of rasters) if ("error" in r) read[r.key] = { error: r.error };
  const outcomes = await reader.read(
    pictures.map((r) => Buffer.from(r.png, "base64")),
    () => performance.now() - started <= IMAGE_TEXT_LIMITS.budgetMs,
  );
  let overBudget = 0;
  pictures.forEach((r, i) => {
    const outcome = outcomes[i];
    if (!outcome) {
      overBudget++;
      read[r.key] = {
        error: `not read: the job's ${IMAGE_TEXT_LIMITS.budgetMs / 1000} s for reading images was spent`,
      };
      return;
    }
    if (!outcome.ok) {
      if (outcome.unavailable) unavailable = outcome.error;
      read[r.key] = { error: outcome.error };
      return;
    }
    read[r.key] = {
      naturalWidth: r.naturalWidth,
      naturalHeight: r.naturalHeight,
      words: outcome.words.map((w) => ({
        ...w,
        box: {
          x: Math.round(w.box.x / r.scale),
          y: Math.round(w.box.y / r.scale),
          width: Math.round(w.box.width / r.scale),
          height: Math.round(w.box.height / r.scale),
        },
      })),
    };
  });
  return {
    read,
    skipped: skipped + overBudget,
    ms: Math.round(performance.now() - started),
    ...(unavailable ? { unavailable } : {}),
  };
}

/**
 * Runs in a page where no subject script runs: decodes each data: URL and paints it over white on a canvas, enlarged
 * (at most 3×) until its longer side reaches `targetSide` and shrunk to the size limits, as a PNG (base64) with the
 * scale applied. Decodes with PICTURE_HELPERS (installed before it runs).
 */
export async function rasterizeForOcr(args: {
  sources: Array<{ key: string; src: string }>;
  limits: typeof IMAGE_TEXT_LIMITS;
  helpersKey: string;
}): Promise<
  Array<
    | { key: string; png: string; scale: number; naturalWidth: number; naturalHeight: number }
    | { key: string; error: string }
  >
> {
  const { limits } = args;
  const out: Array<
    | { key: string; png: string; scale: number; naturalWidth: number; naturalHeight: number }
    | { key: string; error: string }
  > = [];
  const helpers = (globalThis as unknown as Record<symbol, typeof PICTURE_HELPERS>)[Symbol.for(args.helpersKey)]!;
  for (const { key, src } of args.sources) {
    const im = await helpers.decodedPicture(src);
    if (!im) {
      out.push({ key, error: "it could not be decoded as an image" });
      continue;
    }
    const w = im.naturalWidth;
    const h = im.naturalHeight;
    const longer = Math.max(w, h);
    const scale = Math.min(
      Math.max(1, Math.min(3, limits.targetSide / longer)),
      limits.maxSide / longer,
      Math.sqrt(limits.maxPixels / (w * h)),
    );
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(w * scale));
    canvas.height = Math.max(1, Math.round(h * scale));
    const g = canvas.getContext("2d")!;
    g.fillStyle = "#fff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = "high";
    g.drawImage(im, 0, 0, canvas.width, canvas.height);
    out.push({
      key,
      png: canvas.toDataURL("image/png").slice("data:image/png;base64,".length),
      scale,
      naturalWidth: w,
      naturalHeight: h,
    });
  }
  return out;
}
