import type { ImageTexts, PictureText } from "../../capture/image-text";
import type { Finding } from "../types";
import { quote } from "./quote";

/**
 * Text painted in pictures, as the checks that read it decide on it (the OCR is src/capture/ocr.ts). Decisions are
 * conservative: only words Tesseract read with high confidence count, and a picture "holds text" only when several
 * such words cover a real part of it, so a photograph with a stray letter or a sign in the distance never fails.
 */

/** A word counts when Tesseract is at least this confident of it (0-100). */
export const OCR_MIN_CONFIDENCE = 85;
/** A picture holds text (a banner, a headline, an image of a paragraph) when this many confident words are read… */
export const OCR_MIN_WORDS = 3;
/** …and their boxes cover at least this share of it (text in the distance of a photograph does not). */
export const OCR_MIN_TEXT_SHARE = 0.02;

/** A word as compared: lower case, letters and digits only. */
const comparable = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** The words read with high confidence, as painted (punctuation around them trimmed), each of 2+ letters or digits. */
export function confidentWords(text: PictureText): string[] {
  return text.words
    .filter((w) => w.confidence >= OCR_MIN_CONFIDENCE && comparable(w.text).length >= 2)
    .map((w) => w.text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}%]+$/gu, ""));
}

/** The share of the picture the confident words' boxes cover. */
function textShare(text: PictureText): number {
  const area = text.naturalWidth * text.naturalHeight;
  if (!area) return 0;
  const covered = text.words
    .filter((w) => w.confidence >= OCR_MIN_CONFIDENCE && comparable(w.text).length >= 2)
    .reduce((n, w) => n + w.box.width * w.box.height, 0);
  return covered / area;
}

/** The words a picture shows, when it holds text by the rule above; null when it holds none that counts. */
export function paintedWords(text: PictureText | undefined): string[] | null {
  if (!text) return null;
  const words = confidentWords(text);
  return words.length >= OCR_MIN_WORDS && textShare(text) >= OCR_MIN_TEXT_SHARE ? words : null;
}

/**
 * More confident words than this, and a picture is a screenshot or a picture of a page rather than an image of text
 * standing for its words: its alt may describe it (W3C's images tutorial, complex images) instead of repeating them.
 */
export const OCR_MAX_WORDS_FOR_ALT = 40;

/** The words an alt text should carry: a picture's painted words, unless it is a screenshot by the rule above. */
export function wordsForAlt(text: PictureText | undefined): string[] | null {
  const words = paintedWords(text);
  return words && words.length <= OCR_MAX_WORDS_FOR_ALT ? words : null;
}

/** The words of `painted` that `said` (an alt text, a link's text) does not contain. */
export function unsaid(painted: string[], said: string): string[] {
  const have = new Set(said.split(/\s+/).map(comparable).filter(Boolean));
  const joined = comparable(said);
  return painted.filter((w) => {
    const c = comparable(w);
    return c && !have.has(c) && !joined.includes(c);
  });
}

/**
 * Whether a picture's text goes missing where only `said` stands for it: it holds text and `said` leaves out at
 * least OCR_MIN_WORDS of its words and at least half of them.
 */
export function textLost(painted: string[] | null, said: string): string[] | null {
  if (!painted) return null;
  const lost = unsaid(painted, said);
  return lost.length >= OCR_MIN_WORDS && lost.length * 2 >= painted.length ? lost : null;
}

/**
 * The finding of image-alt-text and email-image-alt-text for a picture with an alt attribute: an image of text whose
 * alt leaves out its words (wordsForAlt, textLost); null when it is none.
 */
export function altLeavesOutText(
  picture: { src: string; alt: string | null; selector: string },
  texts: ImageTexts | undefined,
): Finding | null {
  const painted = wordsForAlt(pictureText(texts, picture.src));
  const lost = textLost(painted, picture.alt ?? "");
  if (!painted || !lost) return null;
  return {
    message: `image of text whose alt ${picture.alt ? quote(picture.alt, 60) : '""'} leaves out ${lost.length} of its ${painted.length} words: ${quote(painted.join(" "), 80)}`,
    selector: picture.selector,
    ...(picture.src.startsWith("data:") ? {} : { url: picture.src }),
    text: painted.join(" "),
    measured: { wordsRead: painted.length, wordsMissing: lost.length },
    method: "ocr",
  };
}

/**
 * A label painted in a picture (a button drawn as an image): one to six confident words; null when there is none.
 * A picture with more words is a banner, not a label.
 */
export function paintedLabel(text: PictureText | undefined): string | null {
  if (!text) return null;
  const words = confidentWords(text);
  return words.length >= 1 && words.length <= 6 && textShare(text) >= OCR_MIN_TEXT_SHARE ? words.join(" ") : null;
}

/** The reading of one picture by its source, or why there is none (the OCR was unavailable, the picture unreadable). */
export function pictureText(texts: ImageTexts | undefined, src: string): PictureText | undefined {
  const read = texts?.read[src];
  return read && "words" in read ? read : undefined;
}

/** Why the text in pictures could not be read, when it could not: a sentence for an error or a reasoning. */
export function ocrUnavailable(texts: ImageTexts | undefined): string | null {
  if (!texts) return "the text in images was not read for this check";
  return texts.unavailable ? `the text in images could not be read: ${texts.unavailable}` : null;
}
