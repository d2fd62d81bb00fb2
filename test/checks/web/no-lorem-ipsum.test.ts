import { expect, test } from "bun:test";
import { noLoremIpsum } from "../../../src/validations/web/no-lorem-ipsum";
import { evaluate, selectors, text, withDom } from "../support/web-artifacts";

test("real copy passes, even with Latin-looking words", async () => {
  const out = await evaluate(noLoremIpsum, withDom({ visibleText: [text("#p", "Dolores ipsum-free roasting, sit back and consect.")] }));
  expect(out.verdict).toBe("pass");
});

test("each filler phrase fails, in any case, by selector", async () => {
  const out = await evaluate(
    noLoremIpsum,
    withDom({ visibleText: [text("#h", "Roasters"), text("#a", "LOREM IPSUM is here."), text("#b", "Pain, dolor sit amet."), text("#c", "Consectetur adipiscing elit.")] }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#a", "#b", "#c"]);
  expect(out.findings[0]!.text).toBe('"LOREM IPSUM is here."');
});

test("filler quoted in code, pre, kbd or samp is an example, not filler left in", async () => {
  const out = await evaluate(noLoremIpsum, withDom({ visibleText: [text("#quoted", "Lorem ipsum dolor sit amet", { inCode: true }), text("#p", "Real copy.")] }));
  expect(out.verdict).toBe("pass");
});
