import { expect, test } from "bun:test";
import { noLoremIpsum } from "../../../src/validations/web/no-lorem-ipsum";
import { evaluate, selectors, text, withDom } from "../support/web-artifacts";

test("real copy passes, even with Latin-looking words", async () => {
  const out = await evaluate(
    noLoremIpsum,
    withDom({ visibleText: [text("#p", "Dolores ipsum-free roasting, sit back and consect.")] }),
  );
  expect(out.verdict).toBe("pass");
});

test("each filler phrase fails, in any case, by selector", async () => {
  const out = await evaluate(
    noLoremIpsum,
    withDom({
      visibleText: [
        text("#h", "Roasters"),
        text("#a", "LOREM IPSUM is here."),
        text("#b", "Pain, dolor sit amet."),
        text("#c", "Consectetur adipiscing elit."),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#a", "#b", "#c"]);
  expect(out.findings[0]!.text).toBe('"LOREM IPSUM is here."');
});

/** Generator output that avoids the three classic phrases. */
const VOCABULARY_FILLER = [
  "Maecenas sed ante pellentesque, posuere velit in, tincidunt massa.",
  "Vestibulum ullamcorper tortor",
  "Our roasts. Pellentesque habitant morbi tristique senectus et netus et malesuada fames ac turpis egestas.",
];
/** Real copy with Latin in it: mottos, phrases, words that are also English, Romance-language prose. */
const NOT_FILLER = [
  "Lux et veritas",
  "Semper fidelis: the regiment's motto since 1883.",
  "Spices, herbs, et cetera.",
  "Nulla dies sine linea, as the painter said.",
  "Sit in a quiet corner and order the magna tasting flight, non-stop.",
  "Il caffè non è mai troppo: porta a casa la nostra miscela.",
  "Ad astra per aspera. Veni, vidi, vici. Carpe diem.",
];

test("Latin filler is found by its vocabulary, not by three phrases; mottos and everyday words are not filler", async () => {
  const out = await evaluate(
    noLoremIpsum,
    withDom({
      visibleText: [
        ...VOCABULARY_FILLER.map((t, i) => text(`#f${i}`, t)),
        ...NOT_FILLER.map((t, i) => text(`#r${i}`, t)),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#f0", "#f1", "#f2"]);
});

test("filler quoted in code, pre, kbd or samp is an example, not filler left in", async () => {
  const out = await evaluate(
    noLoremIpsum,
    withDom({
      visibleText: [text("#quoted", "Lorem ipsum dolor sit amet", { inCode: true }), text("#p", "Real copy.")],
    }),
  );
  expect(out.verdict).toBe("pass");
});
