import { expect, test } from "bun:test";
import { fontSizeBodyMinMax } from "../../../src/validations/web/font-size-body-min-max";
import { evaluate, heading, selectors, text, withDom } from "../support/web-artifacts";

test("text at exactly the 12px default minimum passes", async () => {
  const out = await evaluate(
    fontSizeBodyMinMax,
    withDom({
      visibleText: [text("#h", "Readable", { fontSizePx: 32 }), text("#small", "Small print", { fontSizePx: 12 })],
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("12px to 32px");
});

test("text below the minimum fails, by selector", async () => {
  const out = await evaluate(
    fontSizeBodyMinMax,
    withDom({
      visibleText: [text("#body", "Body"), text("#fine", "Fine print at eleven pixels.", { fontSizePx: 11 })],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#fine"]);
  expect(out.findings[0]!.measured).toEqual({ fontSizePx: 11 });
});

test("with maxPx, large body text fails but headings may be larger", async () => {
  const page = withDom({
    visibleText: [
      text("html > body > h1", "Title", { fontSizePx: 40 }),
      text("#hero > h2:nth-of-type(2)", "Sub", { fontSizePx: 30 }),
      text("#shout", "Shouting body text", { fontSizePx: 30 }),
    ],
  });
  const out = await evaluate(fontSizeBodyMinMax, page, { maxPx: 24 });
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#shout"]);
  expect((await evaluate(fontSizeBodyMinMax, page)).verdict).toBe("pass");
});

test("a heading whose selector is its id, and text inside it, are headings too, not body text", async () => {
  const page = withDom({
    headings: [heading("#title", 1, "Title"), heading("#tagline", 2, "Tagline")],
    visibleText: [
      text("#title", "Title", { fontSizePx: 40 }),
      text("#tagline > em", "Tag", { fontSizePx: 30 }),
      text("#shout", "Shouting body text", { fontSizePx: 30 }),
    ],
  });
  const out = await evaluate(fontSizeBodyMinMax, page, { maxPx: 24 });
  expect(selectors(out)).toEqual(["#shout"]);
});
