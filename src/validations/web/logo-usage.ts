import { Type } from "@sinclair/typebox";
import { CAPTURE_SIZES } from "../../capture/vocabulary";
import type { Finding, WebValidation } from "../types";
import type { ImageSourceInfo, PageImage, WebArtifacts } from "../../capture/artifacts";
import { visualCheck } from "./_helpers";

/** A rendered aspect ratio further than this from the natural one is a distorted logo. */
const MAX_DISTORTION = 0.03;
/**
 * Content match: at most this many of the 128 hash bits differ and the 16×16 thumbnails differ by at most this
 * on average (0-255). Measured: the same picture re-encoded as JPEG at twice or half the size differs by 0-8
 * bits and 0.4-6.2; distinct pictures that are not near-flat differ by 16 bits or more.
 */
const MAX_HASH_DISTANCE = 12;
const MAX_THUMBNAIL_DIFFERENCE = 8;
/**
 * A picture with fewer hash bits set is plain at 9×8 (a flat colour, a fine pattern): its hash cannot tell it
 * from other plain pictures, so its thumbnail must agree more closely (re-encoded copies measured 0.3-1.5,
 * distinct plain pictures 3.8 and more).
 */
const MIN_STRUCTURE_BITS = 8;
const MAX_PLAIN_THUMBNAIL_DIFFERENCE = 2.5;
/** A renamed or re-encoded copy keeps the picture's proportions. */
const MAX_NATURAL_RATIO_DIFFERENCE = 0.05;

/** http(s) or data:image/… (JSON Schema patterns have no flags, so the schemes' case is spelt out). */
const LOGO_URL =
  "^([hH][tT][tT][pP][sS]?://\\S+|[dD][aA][tT][aA]:[iI][mM][aA][gG][eE]/[a-zA-Z0-9.+-]+(;[a-zA-Z0-9=.+-]+)*,\\S+)$";

/** A URL as the page would resolve it: the fragment dropped; a data: URL with its white space removed. */
function normaliseUrl(url: string): string {
  if (/^data:/i.test(url)) return url.replace(/\s+/g, "");
  try {
    const u = new URL(url);
    u.hash = "";
    return u.href;
  } catch {
    return url;
  }
}

const bitCount = (hash: string) =>
  [...hash].reduce((n, c) => n + [...parseInt(c, 16).toString(2)].filter((bit) => bit === "1").length, 0);

function hashDistance(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    let x = parseInt(a[i]!, 16) ^ parseInt(b[i]!, 16);
    for (; x; x &= x - 1) d++;
  }
  return d + Math.abs(a.length - b.length) * 4;
}

/** Same picture: the same bytes; or the hashes and the colour thumbnails agree and the natural proportions match. */
function sameContent(a: ImageSourceInfo | undefined, b: ImageSourceInfo | undefined): boolean {
  if (a?.sha256 && a.sha256 === b?.sha256) return true;
  if (!a?.hash || !b?.hash || !a.thumbnail || !b.thumbnail || !a.naturalHeight || !b.naturalHeight) return false;
  if (hashDistance(a.hash, b.hash) > MAX_HASH_DISTANCE) return false;
  const plain = bitCount(a.hash) < MIN_STRUCTURE_BITS || bitCount(b.hash) < MIN_STRUCTURE_BITS;
  const thumbnailDifference =
    a.thumbnail.reduce((sum, v, i) => sum + Math.abs(v - (b.thumbnail![i] ?? 0)), 0) / a.thumbnail.length;
  if (thumbnailDifference > (plain ? MAX_PLAIN_THUMBNAIL_DIFFERENCE : MAX_THUMBNAIL_DIFFERENCE)) return false;
  const ra = a.naturalWidth / a.naturalHeight;
  const rb = b.naturalWidth / b.naturalHeight;
  return Math.abs(ra / rb - 1) <= MAX_NATURAL_RATIO_DIFFERENCE;
}

const describeSrc = (src: string) =>
  /^data:/i.test(src) ? `${src.slice(0, src.indexOf(",") + 1)}… (${src.length} characters)` : src;
const px = (n: number) => `${Math.round(n)}`;
const ratio = (w: number, h: number) => (h > 0 ? w / h : 0);

export const logoUsage: WebValidation = {
  meta: visualCheck({
    id: "logo-usage",
    name: "Logo present and undistorted",
    category: "brand",
    severity: "major",
    standard: ["mobile-sm", "tablet-portrait", "desktop-md"],
    summary: "Your logo appears on the page at every captured size, at its own proportions.",
    judgment:
      "The logo is the image given as logoUrl. At each captured size it is found among the page's <img> elements and CSS background images (not ::before/::after) by resolved URL, or by content: the same picture under another name, size or format (the same bytes; or a 128-bit difference hash of its luminance within 12 bits, a 16×16 colour thumbnail within 8 of 255 on average, 2.5 for plain pictures with fewer than 8 hash bits set, and natural proportions within 5%). Fails when no shown copy is found at a size (absent, hidden, failed to load, or outside the viewport's width), or when a shown copy is painted (after object-fit, background-size and transforms) at an aspect ratio more than 3% away from the picture's natural one.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "logoUrl",
        description: "The logo image: an http(s) URL (fetched through the network guard) or a data: URL.",
        format: "http(s) URL or data:image/… URL, up to 2,000,000 characters",
        schema: Type.String({ minLength: 1, maxLength: 2_000_000, pattern: LOGO_URL }),
        example: "https://example.com/assets/logo.svg",
        referenceImage: true,
      },
    ],
    needs: ["images", "screenshot"],
    references: [
      {
        title: "Nielsen Norman Group: logo placement and brand recall",
        url: "https://www.nngroup.com/articles/logo-placement-brand-recall/",
      },
    ],
  }),
  evaluate(artifacts: WebArtifacts, params) {
    const logoUrl = params.logoUrl as string;
    const wanted = normaliseUrl(logoUrl);
    const reference = artifacts.referenceImages?.[logoUrl];
    const sources = artifacts.imageSources ?? {};
    const matchesLogo = (image: PageImage) =>
      normaliseUrl(image.src) === wanted || sameContent(sources[image.src], reference);
    const sizes = CAPTURE_SIZES.filter((s) => artifacts.images?.[s]);
    if (sizes.length === 0) throw new Error("no image snapshot gathered");

    const missing: Finding[] = [];
    const distorted: Array<Finding & { natural: string }> = [];
    const notes: string[] = [];
    let foundAnywhere = false;
    for (const size of sizes) {
      const copies = artifacts.images![size]!.images.filter(matchesLogo);
      const shown = copies.filter((c) => c.shown);
      foundAnywhere ||= copies.length > 0;
      if (shown.length === 0) {
        const hidden = copies[0];
        missing.push({
          message: hidden
            ? `At ${size} the logo (${hidden.selector}) is not shown: hidden, without area, failed to load, or outside the ${artifacts.images![size]!.viewport.width}px width`
            : `At ${size} the logo is not on the page`,
          viewport: size,
          ...(hidden ? { selector: hidden.selector } : {}),
        });
        const count = artifacts.images![size]!.images.length;
        notes.push(
          `${size}: ${copies.length ? `no copy shown (${copies.map((c) => c.selector).join(", ")} hidden, broken or off-screen)` : `not among the ${count} image(s) painted`}`,
        );
        continue;
      }
      const measured: string[] = [];
      for (const copy of shown) {
        const nw = copy.naturalWidth || sources[copy.src]?.naturalWidth || reference?.naturalWidth || 0;
        const nh = copy.naturalHeight || sources[copy.src]?.naturalHeight || reference?.naturalHeight || 0;
        if (!copy.painted || !nw || !nh) {
          measured.push(
            `${copy.selector} shown at ${px(copy.box.width)}×${px(copy.box.height)} (natural size unknown)`,
          );
          continue;
        }
        const natural = ratio(nw, nh);
        const painted = ratio(copy.painted.width, copy.painted.height);
        const off = painted / natural - 1;
        const line = `${copy.selector} painted ${px(copy.painted.width)}×${px(copy.painted.height)} (ratio ${painted.toFixed(3)}), natural ${nw}×${nh} (ratio ${natural.toFixed(3)}), ${off >= 0 ? "+" : ""}${(off * 100).toFixed(1)}%`;
        measured.push(line);
        if (Math.abs(off) > MAX_DISTORTION) {
          distorted.push({
            natural: `${nw}×${nh}`,
            message: `At ${size} the logo is ${off > 0 ? "stretched wide" : "squeezed narrow"}: painted ${px(copy.painted.width)}×${px(copy.painted.height)} (ratio ${painted.toFixed(2)}) against its natural ${nw}×${nh} (ratio ${natural.toFixed(2)}), ${Math.abs(off * 100).toFixed(1)}% off`,
            selector: copy.selector,
            viewport: size,
            ...(/^https?:/i.test(copy.src) ? { url: copy.src } : {}),
            measured: {
              paintedWidth: Math.round(copy.painted.width),
              paintedHeight: Math.round(copy.painted.height),
              naturalWidth: nw,
              naturalHeight: nh,
              distortionPercent: Math.round(off * 1000) / 10,
              fit: copy.fit,
            },
          });
        }
      }
      notes.push(`${size}: ${measured.join("; ")}`);
    }

    if (!foundAnywhere && reference?.error) {
      const cause = `The logo ${describeSrc(logoUrl)} could not be loaded to look for it by content: ${reference.error}; and no image on the page has its URL.`;
      return { verdict: "error", reason: cause, reasoning: cause, findings: [] };
    }
    const refText =
      reference && !reference.error
        ? `The logo is ${reference.naturalWidth}×${reference.naturalHeight} (ratio ${ratio(reference.naturalWidth, reference.naturalHeight).toFixed(3)}). `
        : "";
    const reasoning = `${refText}${notes.join(". ")}.`;
    if (missing.length === 0 && distorted.length === 0) return { verdict: "pass", reasoning, findings: [] };
    const hiddenCopy = missing.find((f) => f.selector);
    const otherCopies = new Set(distorted.map((f) => f.selector)).size - 1;
    const parts = [
      ...(missing.length
        ? [
            `Show the logo at ${missing.map((f) => f.viewport).join(", ")}${hiddenCopy ? ` (${hiddenCopy.selector} is not shown at ${hiddenCopy.viewport})` : ""}`,
          ]
        : []),
      ...(distorted.length
        ? [
            `${missing.length ? "paint" : "Paint"} ${distorted[0]!.selector} at its natural proportions (${distorted[0]!.natural}) at ${distorted
              .filter((f) => f.selector === distorted[0]!.selector)
              .map((f) => f.viewport)
              .join(
                ", ",
              )}: it is ${Math.abs(distorted[0]!.measured!.distortionPercent as number)}% off; set one dimension to auto, or use object-fit: contain / background-size: contain${otherCopies ? ` (${otherCopies} other distorted cop${otherCopies > 1 ? "ies" : "y"} in the findings)` : ""}`,
          ]
        : []),
    ];
    return {
      verdict: "fail",
      reason: parts.join("; and "),
      reasoning,
      findings: [...missing, ...distorted.map(({ natural: _, ...f }) => f)],
    };
  },
};
