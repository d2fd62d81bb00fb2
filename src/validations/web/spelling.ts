import { Type } from "@sinclair/typebox";
import { failWith, pass, type WebValidation } from "../types";
import { domAt, domCheck } from "./_helpers";
import { COMMON_MISSPELLINGS } from "./data/common-misspellings";
import { loadSpeller } from "./data/spellchecker";

const WORD = /[A-Za-z]+(?:['’][A-Za-z]+)*/g;

/**
 * The typing slips that make most real misspellings: two neighbouring letters swapped (recieve), or a
 * letter doubled or undoubled (untill, ocurred). Unknown jargon is rarely one such slip from a word,
 * so only these dictionary suggestions count; other unknown words are left alone.
 */
function isTypingSlip(word: string, correction: string): boolean {
  const [a, b] = [word.toLowerCase(), correction.toLowerCase()];
  if (a.length === b.length) {
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  for (let i = 1; i < long.length; i++) {
    if (long[i] === long[i - 1] && long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

export const spelling: WebValidation = {
  meta: domCheck({
    id: "spelling",
    name: "Spelling",
    category: "content",
    severity: "minor",
    summary: "Visible text has no misspelled English words; British and American spellings both pass.",
    judgment:
      "Fails when visible text outside code holds a known misspelling (`recieve`, `seperate`, `definately`…) or a lower-case word of five or more letters that neither the American nor the British English Hunspell dictionary accepts and that is one typing slip (two neighbouring letters swapped, a letter doubled or undoubled) from a word they suggest. Capitalised words (names, brands) and words in allowedWords are never flagged.",
    parameters: [
      {
        name: "allowedWords",
        description: "Words to accept as spelled (product names, jargon).",
        format: "array of up to 500 words",
        schema: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 }),
        default: [],
        example: ["webhook", "Acme"],
      },
    ],
    references: [
      {
        title: "Hunspell dictionaries for English (wooorm/dictionaries)",
        url: "https://github.com/wooorm/dictionaries",
      },
      {
        title: "Wikipedia: lists of common misspellings",
        url: "https://en.wikipedia.org/wiki/Wikipedia:Lists_of_common_misspellings",
      },
    ],
  }),
  async evaluate(artifacts, params) {
    const allowed = new Set((params.allowedWords as string[]).map((w) => w.toLowerCase()));
    const speller = await loadSpeller();
    const dom = domAt(artifacts);
    const findings = [];
    const seen = new Set<string>();
    let words = 0;
    for (const block of dom.visibleText) {
      if (block.inCode) continue;
      for (const [word] of block.text.matchAll(WORD)) {
        words++;
        const lower = word.toLowerCase();
        if (seen.has(lower) || allowed.has(lower)) continue;
        const known = COMMON_MISSPELLINGS[lower];
        let suggestion: string | undefined = known;
        if (!known && word === lower && lower.length >= 5 && !/['’]/.test(word) && !speller.correct(word)) {
          suggestion = speller.suggest(word).find((s) => isTypingSlip(word, s));
        }
        // Each word is looked up once: a suggestion takes about 0.1 s, and a page may repeat an unknown word hundreds of times.
        seen.add(lower);
        if (!suggestion) continue;
        findings.push({
          message: `"${word}" should probably be "${suggestion}"`,
          selector: block.selector,
          text: word,
        });
      }
    }
    if (findings.length === 0)
      return pass(`Checked ${words} words against American and British English; none misspelled.`);
    return failWith(
      `Correct ${findings.length} misspelling(s): ${findings
        .slice(0, 5)
        .map((f) => f.message)
        .join(", ")}`,
      findings,
      `${findings.length} of ${words} words are misspelled in both American and British English.`,
    );
  },
};
