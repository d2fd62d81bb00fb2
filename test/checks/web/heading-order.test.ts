import { expect, test } from "bun:test";
import { headingOrder } from "../../../src/validations/web/heading-order";
import { evaluate, heading, selectors, withDom } from "../support/web-artifacts";

test("descending one level at a time and climbing back any number passes", async () => {
  const levels = [1, 2, 3, 4, 2, 1, 2];
  const out = await evaluate(headingOrder, withDom({ headings: levels.map((l, i) => heading(`#h${i}`, l, `H${i}`)) }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("h1 h2 h3 h4 h2 h1 h2");
});

test("the first heading is not compared: a page starting at h3 passes", async () => {
  const out = await evaluate(headingOrder, withDom({ headings: [heading("#a", 3, "Side"), heading("#b", 4, "Note")] }));
  expect(out.verdict).toBe("pass");
});

test("a skipped level fails on the heading that skips", async () => {
  const out = await evaluate(
    headingOrder,
    withDom({
      headings: [
        heading("#a", 1, "A"),
        heading("#b", 2, "B"),
        heading("html > body > h4", 4, "Skipped a level"),
        heading("#d", 2, "D"),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["html > body > h4"]);
  expect(out.findings[0]!.message).toBe('h4 "Skipped a level" follows h2 "B"');
  expect(out.findings[0]!.measured).toEqual({ previousLevel: 2, level: 4 });
});
