import { francAll } from "franc";
import { data } from "franc/data.js";
import { findFillerText } from "./filler-text";
import { francCodesOf, subtagOf } from "./language-subtags";

/**
 * Whether a lang attribute names the language of its text (W3C ACT ucwvc8 and off6ek, WCAG 3.1.1 and 3.1.2), by
 * language detection: franc (trigram profiles of 187 languages) on the text, and, where the text reads as English,
 * the English dictionaries. Pure: the text comes from the page (capture/language-scopes.ts).
 *
 * ACT's default language of an element is the language most of its words are in, and a word may be in several
 * languages ("Paul put dire comment on tape" is French and English). A trigram profile cannot say that of a short
 * text: on this project's real-world pages franc reads a 30-letter English menu as Turkish and 100 letters of English
 * documentation as French. So the declared language passes when franc reads the text as it, in whole or in the most
 * of its sentence-long stretches; it fails only where the evidence is decisive (below); otherwise it passes when franc
 * cannot tell it from the best, and needs review.
 */

/** Every language franc has a profile of. */
const KNOWN = Object.values(data).flatMap((languages) => Object.keys(languages));

/**
 * The languages franc chooses among besides the declared one: the web's most common content languages. franc's
 * rarer profiles (Scots, Catalan's neighbours, creoles) otherwise win short English or French texts; a page in a
 * rarer language declares it, and the declared language is always a candidate.
 */
const COMMON = [
  "eng",
  "spa",
  "deu",
  "fra",
  "por",
  "ita",
  "nld",
  "pol",
  "rus",
  "tur",
  "jpn",
  "cmn",
  "kor",
  "arb",
  "pes",
  "vie",
  "ind",
  "ces",
  "ukr",
  "hun",
  "swe",
  "ron",
  "ell",
  "dan",
  "fin",
  "heb",
  "slk",
  "tha",
  "bul",
  "nob",
  "nno",
  "hrv",
  "srp",
  "bos",
  "lit",
  "slv",
  "cat",
  "lvs",
  "ekk",
  "hin",
  "zlm",
];

/** Fewer letters than this say nothing (franc's own minimum). */
const MIN_LETTERS = 10;
/** A stretch of text franc reads on its own: words up to this many letters, about a sentence. */
const STRETCH_LETTERS = 60;
/**
 * Fewer letters than this are never failed by trigrams alone: under it, franc's best guess for the real-world
 * corpus's English pages swings between English, French, Catalan and Danish.
 */
const DECISIVE_LETTERS = 200;
/** The share of the text's stretches one language must win for it to be the text's language beyond doubt. */
const DECISIVE_SHARE = 2 / 3;
/**
 * A declared language franc scores this close to its best (scores are distances rescaled so that the best is 1) is
 * one it cannot tell from the best: English documentation scores English at 0.96-0.99 where French or Catalan edge it
 * out. It passes unless the evidence above fails it.
 */
const PLAUSIBLE_SCORE = 0.95;
/** A text this many words long, this much of it English dictionary words, read as English by franc, is English. */
const DICTIONARY_WORDS = 8;
const DICTIONARY_SHARE = 0.75;

export type LanguageOutcome = "pass" | "fail" | "needs review" | "not judged";

export interface LanguageJudgement {
  outcome: LanguageOutcome;
  /** The lang attribute's primary subtag, lower-cased. */
  declared: string;
  /** The language franc reads the text as (a BCP 47 subtag), when it read it. */
  detected?: string;
  /** franc's scores of the first few languages (1 is the best), as BCP 47 subtags. */
  scores?: Array<[string, number]>;
  /** The share of the text's letters in the stretches each language won. */
  stretches?: Array<[string, number]>;
  letters: number;
  /** English dictionary words of all words, when they decided. */
  englishWords?: [number, number];
  /** How it was decided, in a sentence. */
  why: string;
}

const lettersIn = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
const round = (n: number) => Math.round(n * 1000) / 1000;

/** The text cut at spaces into stretches of about STRETCH_LETTERS letters (a short tail joins the last one). */
function stretchesOf(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let letters = 0;
  for (const word of text.split(/\s+/)) {
    current.push(word);
    letters += lettersIn(word);
    if (letters >= STRETCH_LETTERS) {
      out.push(current.join(" "));
      current = [];
      letters = 0;
    }
  }
  if (letters >= MIN_LETTERS || !out.length) out.push(current.join(" "));
  else if (current.length) out[out.length - 1] += ` ${current.join(" ")}`;
  return out;
}

/** Each language's share of the text's letters, by the stretches franc reads as it, largest first. */
function stretchShares(text: string, only: string[]): Array<[string, number]> {
  const won = new Map<string, number>();
  let total = 0;
  for (const stretch of stretchesOf(text)) {
    const letters = lettersIn(stretch);
    const [best] = francAll(stretch, { only, minLength: 1 })[0]!;
    total += letters;
    won.set(best, (won.get(best) ?? 0) + letters);
  }
  return [...won].map(([code, n]): [string, number] => [code, n / total]).sort((a, b) => b[1] - a[1]);
}

/** The words of a text, and how many of them the English dictionaries hold. */
function englishWords(text: string, isEnglishWord: (word: string) => boolean): [number, number] {
  const words = text.match(/\p{L}+(?:['’]\p{L}+)*/gu) ?? [];
  return [words.filter((w) => isEnglishWord(w) || isEnglishWord(w.toLowerCase())).length, words.length];
}

/** Judges the text of one lang attribute's scope. */
export function judgeLanguage(text: string, lang: string, isEnglishWord: (word: string) => boolean): LanguageJudgement {
  const declared = lang.trim().split(/[-_]/)[0]!.toLowerCase();
  const letters = lettersIn(text);
  const codes = francCodesOf(declared, KNOWN);
  if (!codes.length)
    return {
      outcome: "not judged",
      declared,
      letters,
      why: `"${declared}" is no primary language subtag of a language the detector knows`,
    };
  if (letters < MIN_LETTERS)
    return { outcome: "not judged", declared, letters, why: `${letters} letter(s) are too few to tell a language by` };
  const only = [...new Set([...COMMON, ...codes])];
  const all = francAll(text, { only, minLength: 1 });
  if (all[0]![0] === "und")
    return { outcome: "not judged", declared, letters, why: "the text's script is no candidate language's" };
  const scores = all.slice(0, 4).map(([code, score]): [string, number] => [subtagOf(code), round(score)]);
  const shares = stretchShares(text, only);
  const stretches = shares.slice(0, 4).map(([code, share]): [string, number] => [subtagOf(code), round(share)]);
  const best = all[0]![0];
  const base = { declared, detected: subtagOf(best), scores, stretches, letters };
  if (codes.includes(best) || codes.includes(shares[0]![0]))
    return { ...base, outcome: "pass", why: `the text reads as "${declared}"` };
  const declaredShare = shares.filter(([code]) => codes.includes(code)).reduce((n, [, s]) => n + s, 0);
  const filler = findFillerText(text);
  if (filler)
    return {
      ...base,
      outcome: "needs review",
      why: `the text holds Latin placeholder copy ("${filler.snippet}"), in no language`,
    };
  if (letters >= DECISIVE_LETTERS && declaredShare === 0 && shares[0]![1] >= DECISIVE_SHARE && best === shares[0]![0])
    return {
      ...base,
      outcome: "fail",
      why: `${letters} letters read as "${subtagOf(best)}", in whole and in ${Math.round(shares[0]![1] * 100)}% of its stretches, and no stretch reads as "${declared}"`,
    };
  if (best === "eng") {
    const [english, words] = englishWords(text, isEnglishWord);
    if (words >= DICTIONARY_WORDS && english / words >= DICTIONARY_SHARE)
      return {
        ...base,
        outcome: "fail",
        englishWords: [english, words],
        why: `the text reads as English, and ${english} of its ${words} words are English dictionary words`,
      };
  }
  const declaredScore = Math.max(0, ...all.filter(([code]) => codes.includes(code)).map(([, score]) => score));
  if (declaredScore >= PLAUSIBLE_SCORE)
    return {
      ...base,
      outcome: "pass",
      why: `the text reads best as "${subtagOf(best)}", but "${declared}" scores ${round(declaredScore)}, as close as franc cannot tell apart`,
    };
  return {
    ...base,
    outcome: "needs review",
    why: `the text reads best as "${subtagOf(best)}", but ${letters < DECISIVE_LETTERS ? `${letters} letters are too few to be sure` : `not decisively`}`,
  };
}
