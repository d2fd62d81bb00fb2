import type { BrowserContext, Page } from "playwright-core";
import type { NetworkGuard } from "./network-guard";
import { guardedFetch } from "./guarded-fetch";
import type { ImageSourceInfo, ImagesSnapshot } from "./artifact-shapes";
import type { CaptureSize } from "./vocabulary";
import { helpersScript, PAGE_HELPERS_KEY } from "./page-helpers";
import { PICTURE_HELPERS } from "./page-functions/pictures";

/** Image responses the page received, kept (only when a check compares images) so their pictures can be decoded again. */
export interface ImageBodies {
  bodies: Map<string, { contentType: string; body: Uint8Array }>;
  bytes: number;
}

/** Limits on the decoding work: distinct page sources hashed, bytes kept. */
const IMAGE_EVIDENCE_LIMITS = { maxSources: 80, maxKeptBytes: 32 * 1024 * 1024, maxBodyBytes: 5 * 1024 * 1024 };

export function keepImageBody(kept: ImageBodies, url: string, contentType: string, body: Uint8Array): void {
  if (
    body.byteLength > IMAGE_EVIDENCE_LIMITS.maxBodyBytes ||
    kept.bytes + body.byteLength > IMAGE_EVIDENCE_LIMITS.maxKeptBytes
  )
    return;
  if (kept.bodies.has(url)) return;
  kept.bodies.set(url, { contentType, body });
  kept.bytes += body.byteLength;
}

/** The bytes a data: URL holds (base64 or percent-encoded), or null when it is not one. */
function dataUrlBytes(url: string): Uint8Array | null {
  const comma = url.indexOf(",");
  if (!/^data:/i.test(url) || comma < 0) return null;
  const data = url.slice(comma + 1);
  if (/;base64$/i.test(url.slice(0, comma))) return Buffer.from(data.replace(/\s+/g, ""), "base64");
  // Percent-escapes are bytes; any other character stands for its UTF-8 bytes.
  return Buffer.from(
    data.replace(/%([0-9a-f]{2})|[^%]+|%/gi, (m, hex: string | undefined) =>
      hex ? String.fromCharCode(parseInt(hex, 16)) : Buffer.from(m, "utf8").toString("latin1"),
    ),
    "latin1",
  );
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** Adds each source's byte digest to what the blank page measured. */
function withDigests(measured: Record<string, ImageSourceInfo>, sources: Array<{ key: string; src: string }>) {
  for (const { key, src } of sources) {
    const bytes = dataUrlBytes(src);
    if (bytes && measured[key]) measured[key]!.sha256 = sha256(bytes);
  }
  return measured;
}

/** Bytes as a data: URL of their image type (application/octet-stream when the type is not an image). */
export const dataUrl = (contentType: string, body: Uint8Array) =>
  `data:${/^image\//i.test(contentType) ? contentType.split(";")[0]!.trim() : "application/octet-stream"};base64,${Buffer.from(body).toString("base64")}`;

/**
 * The page's pictures decoded, in a blank page of the job's context after every size, when the checks name reference
 * images: the references (fetched through the guard unless the page already loaded them) and the page's image
 * sources, hashed so that a check can find a picture by content.
 */
export async function decodeImageSources(opts: {
  context: BrowserContext;
  guard: NetworkGuard;
  signal: AbortSignal;
  referenceImages: readonly string[];
  images: Partial<Record<CaptureSize, ImagesSnapshot>>;
  kept: ImageBodies;
}): Promise<{ referenceImages?: Record<string, ImageSourceInfo>; imageSources?: Record<string, ImageSourceInfo> }> {
  if (!opts.referenceImages.length) return {};
  return inBlankPage(opts.context, async (lab) => {
    const failed: Record<string, ImageSourceInfo> = {};
    const refSources: Array<{ key: string; src: string }> = [];
    for (const url of new Set(opts.referenceImages)) {
      const loaded = await loadReference(url, opts);
      if ("error" in loaded)
        failed[url] = { naturalWidth: 0, naturalHeight: 0, hash: null, thumbnail: null, error: loaded.error };
      else refSources.push({ key: url, src: loaded.src });
    }
    const referenceImages = {
      ...withDigests(await measureIn(lab, refSources), refSources),
      ...failed,
    };
    const pageSources: Array<{ key: string; src: string }> = [];
    const seen = new Set<string>();
    for (const snapshot of Object.values(opts.images)) {
      for (const image of snapshot?.images ?? []) {
        if (seen.has(image.src) || pageSources.length >= IMAGE_EVIDENCE_LIMITS.maxSources) continue;
        seen.add(image.src);
        const kept = opts.kept.bodies.get(image.src);
        if (image.src.startsWith("data:")) pageSources.push({ key: image.src, src: image.src });
        else if (kept) pageSources.push({ key: image.src, src: dataUrl(kept.contentType, kept.body) });
      }
    }
    return {
      referenceImages,
      imageSources: withDigests(await measureIn(lab, pageSources), pageSources),
    };
  });
}

/** measureImageSources in a blank page, its helpers installed. */
async function measureIn(lab: Page, sources: Array<{ key: string; src: string }>) {
  await lab.evaluate(helpersScript([PICTURE_HELPERS]));
  return lab.evaluate(measureImageSources, { sources, helpersKey: PAGE_HELPERS_KEY });
}

/** Runs `fn` in a blank page of the job's browser context (no subject script can reach it), closed after. */
export async function inBlankPage<T>(context: BrowserContext, fn: (page: Page) => Promise<T>): Promise<T> {
  const page = await context.newPage();
  try {
    return await fn(page);
  } finally {
    await page.close().catch(() => {});
  }
}

/** An image as a data: URL: as given, from what the page already loaded, or fetched through the guard. */
export async function loadReference(
  url: string,
  opts: { guard: NetworkGuard; signal: AbortSignal; kept: ImageBodies },
): Promise<{ src: string } | { error: string }> {
  if (/^data:/i.test(url)) return { src: url };
  let href: string;
  try {
    const parsed = new URL(url);
    parsed.hash = "";
    href = parsed.href;
  } catch {
    return { error: "it is not a URL" };
  }
  const kept = opts.kept.bodies.get(href);
  if (kept) return { src: dataUrl(kept.contentType, kept.body) };
  try {
    const res = await guardedFetch(opts.guard, href, {
      headers: { accept: "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5" },
      maxBytes: IMAGE_EVIDENCE_LIMITS.maxBodyBytes,
      timeoutMs: 10_000,
      signal: opts.signal,
    });
    if (res.refused) return { error: `the network guard refused it: ${res.detail}` };
    if (res.status >= 400) return { error: `it answered HTTP ${res.status}` };
    return { src: dataUrl(res.headers["content-type"] ?? "", res.body) };
  } catch (e) {
    return { error: `it could not be fetched: ${(e as Error).message}` };
  }
}

/**
 * Runs in a blank page of the job's browser context (no subject script can reach it): decodes each source
 * (a data: URL) and measures its natural size, a 128-bit difference hash of its luminance over white (9×8
 * horizontal and 8×9 vertical gradients) and a 16×16 colour thumbnail. Decodes with PICTURE_HELPERS (installed before it runs).
 */
export async function measureImageSources({
  sources,
  helpersKey,
}: {
  sources: Array<{ key: string; src: string }>;
  helpersKey: string;
}): Promise<Record<string, ImageSourceInfo>> {
  const out: Record<string, ImageSourceInfo> = {};
  // Every picture is first painted over white at one fixed size, so a vector and a raster copy of the same
  // logo are reduced the same way from there.
  const base = document.createElement("canvas");
  base.width = base.height = 64;
  const b = base.getContext("2d")!;
  const canvas = document.createElement("canvas");
  const g = canvas.getContext("2d", { willReadFrequently: true })!;
  const draw = (w: number, h: number) => {
    canvas.width = w;
    canvas.height = h;
    g.imageSmoothingEnabled = true;
    g.imageSmoothingQuality = "high";
    g.drawImage(base, 0, 0, w, h);
    return g.getImageData(0, 0, w, h).data;
  };
  const luma = (d: Uint8ClampedArray, i: number) => 0.299 * d[i * 4]! + 0.587 * d[i * 4 + 1]! + 0.114 * d[i * 4 + 2]!;
  const h = (globalThis as unknown as Record<symbol, typeof PICTURE_HELPERS>)[Symbol.for(helpersKey)]!;
  for (const { key, src } of sources) {
    const im = await h.decodedPicture(src);
    if (!im) {
      out[key] = {
        naturalWidth: 0,
        naturalHeight: 0,
        hash: null,
        thumbnail: null,
        error: "it could not be decoded as an image",
      };
      continue;
    }
    try {
      b.fillStyle = "#fff";
      b.fillRect(0, 0, 64, 64);
      b.imageSmoothingEnabled = true;
      b.imageSmoothingQuality = "high";
      b.drawImage(im, 0, 0, 64, 64);
      // A bit is set where a cell is brighter than the next by more than a few levels: flat areas read as 0
      // every time instead of flipping on encoding noise.
      const bits: number[] = [];
      const across = draw(9, 8);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) bits.push(luma(across, y * 9 + x) > luma(across, y * 9 + x + 1) + 3 ? 1 : 0);
      const down = draw(8, 9);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) bits.push(luma(down, y * 8 + x) > luma(down, (y + 1) * 8 + x) + 3 ? 1 : 0);
      let hash = "";
      for (let i = 0; i < bits.length; i += 4)
        hash += ((bits[i]! << 3) | (bits[i + 1]! << 2) | (bits[i + 2]! << 1) | bits[i + 3]!).toString(16);
      const small = draw(16, 16);
      const thumbnail: number[] = [];
      for (let i = 0; i < 256; i++) thumbnail.push(small[i * 4]!, small[i * 4 + 1]!, small[i * 4 + 2]!);
      out[key] = { naturalWidth: im.naturalWidth, naturalHeight: im.naturalHeight, hash, thumbnail };
    } catch (e) {
      out[key] = {
        naturalWidth: im.naturalWidth,
        naturalHeight: im.naturalHeight,
        hash: null,
        thumbnail: null,
        error: String(e),
      };
    }
  }
  return out;
}
