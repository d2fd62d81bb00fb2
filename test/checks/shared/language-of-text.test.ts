import { beforeAll, expect, test } from "bun:test";
import { judgeLanguage } from "../../../src/validations/shared/language-of-text";
import { loadSpeller, type Speller } from "../../../src/validations/web/data/spellchecker";

/** The decision behind accessibility-wcag's language rules (html-lang-matches-text, lang-matches-text). */

let speller: Speller;
beforeAll(async () => {
  speller = await loadSpeller();
});
const judge = (text: string, lang: string) => judgeLanguage(text, lang, (w) => speller.correct(w));

const ENGLISH =
  "Our library opens every weekday from nine in the morning until six in the evening. Members can borrow up to ten books at a time and keep them for three weeks. If you need a book for longer, you can renew it online or ask at the front desk, as long as nobody else has reserved it in the meantime.";
const GERMAN =
  "Unsere Bibliothek ist an allen Werktagen von neun Uhr morgens bis sechs Uhr abends geöffnet. Mitglieder können bis zu zehn Bücher gleichzeitig ausleihen und sie drei Wochen lang behalten. Wenn Sie ein Buch länger brauchen, können Sie es online verlängern oder an der Theke fragen, solange es niemand vorgemerkt hat.";
const SPANISH =
  "Nuestra biblioteca abre todos los días laborables desde las nueve de la mañana hasta las seis de la tarde. Los socios pueden llevarse hasta diez libros a la vez y quedárselos durante tres semanas. Si necesita un libro durante más tiempo, puede renovarlo en línea o preguntar en el mostrador.";

test("long text passes in its own language, whatever the region or case of the tag", () => {
  for (const [text, lang] of [
    [ENGLISH, "en"],
    [ENGLISH, "en-GB"],
    [GERMAN, "de-AT"],
    [SPANISH, "ES"],
  ] as const)
    expect({ lang, outcome: judge(text, lang).outcome }).toEqual({ lang, outcome: "pass" });
});

test("long text whose every stretch reads as another language fails, naming the language detected and the scores", () => {
  const j = judge(ENGLISH, "da");
  expect(j).toMatchObject({ outcome: "fail", declared: "da", detected: "en", stretches: [["en", 1]] });
  expect(j.scores![0]).toEqual(["en", 1]);
  expect(judge(SPANISH, "en")).toMatchObject({ outcome: "fail", detected: "es" });
  expect(judge(GERMAN, "fr")).toMatchObject({ outcome: "fail", detected: "de" });
});

test("eight or more words, three in four of them English dictionary words, read as English by franc: English, even when short", () => {
  const j = judge(
    'literally translates into "He went to roost with the chickens", but it means that he went to bed early.',
    "fr",
  );
  expect(j).toMatchObject({ outcome: "fail", detected: "en", englishWords: [19, 19] });
  // "Gelukkig" twice is Dutch, the other 8 words English (ACT ucwvc8's failed example 2).
  expect(judge('Gelukkig The Dutch word "gelukkig" has no equivalent in English.', "nl").outcome).toBe("fail");
});

test("short text is not failed on a guess: the declared language passes when it reads best, else the text needs review", () => {
  // French and English at once (ACT's own example of an ambiguous sentence).
  expect(judge("Paul put dire comment on tape", "fr").outcome).toBe("pass");
  expect(judge("Paul put dire comment on tape", "en").outcome).toBe("needs review");
  // Read as Portuguese by trigrams; three words are too few for the dictionary.
  expect(judge("Fireworks over Paris", "en").outcome).toBe("needs review");
  expect(judge('"Hij ging met de kippen op stok"', "nl").outcome).toBe("pass");
  expect(judge('"Hij ging met de kippen op stok"', "fr")).toMatchObject({ outcome: "needs review", detected: "nl" });
});

test("a declared language franc scores within 0.05 of its best passes: franc cannot tell the two apart", () => {
  // A documentation menu franc reads as French by a hair.
  expect(judge("Tables Buttons Forms Icons Typography Navigation Components", "en")).toMatchObject({
    outcome: "pass",
    detected: "fr",
    scores: [
      ["fr", 1],
      ["en", 0.987],
      ["ca", 0.81],
      ["es", 0.643],
    ],
  });
  // But not a language franc puts well behind: a two-word greeting in a test page's title reads as Dutch.
  expect(judge("Test Suite Hello world", "en").outcome).toBe("needs review");
});

test("Latin placeholder copy is in no language: never failed", () => {
  const lorem =
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore.";
  expect(judge(lorem, "en")).toMatchObject({ outcome: "needs review" });
});

test("not judged: fewer than 10 letters, a tag that names no language the detector knows (ISO 639-2 'eng', grandfathered 'i-lux', 'français')", () => {
  expect(judge("Deutsch", "de").outcome).toBe("not judged");
  expect(judge("Español", "en").outcome).toBe("not judged");
  for (const lang of ["eng", "i-lux", "français", "lb"]) expect(judge(ENGLISH, lang).outcome).toBe("not judged");
});
