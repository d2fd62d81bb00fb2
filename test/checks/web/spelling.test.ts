import { expect, test } from "bun:test";
import { spelling } from "../../../src/validations/web/spelling";
import { evaluate, text, withDom } from "../support/web-artifacts";

test("American and British spellings, names, code and allowed words pass", async () => {
  const out = await evaluate(
    spelling,
    withDom({
      visibleText: [
        text("#p", "The colour and color of our organisation's organization, by Kubernetez."),
        text("#code", "recieve()", { inCode: true }),
        text("#j", "Our webhookz ship daily."),
      ],
    }),
    { allowedWords: ["Webhookz"] },
  );
  expect(out.verdict).toBe("pass");
});

test("known misspellings fail once each, with the word and where it is", async () => {
  const out = await evaluate(
    spelling,
    withDom({
      visibleText: [
        text("html > body > h1", "How to Recieve your order"),
        text("html > body > p", "We will definately ship it to thier door, and recieve it back."),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: '"Recieve" should probably be "receive"', selector: "html > body > h1", text: "Recieve" },
    { message: '"definately" should probably be "definitely"', selector: "html > body > p", text: "definately" },
    { message: '"thier" should probably be "their"', selector: "html > body > p", text: "thier" },
  ]);
});

test("an unknown lower-case word one typing slip from a dictionary word fails; other unknown words do not", async () => {
  const out = await evaluate(
    spelling,
    withDom({ visibleText: [text("#p", "Free shippping by our freindly frobnicator team. Wrtie to us.")] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual([
    '"shippping" should probably be "shipping"',
    '"freindly" should probably be "friendly"',
  ]);
});
