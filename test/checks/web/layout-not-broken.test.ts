import { expect, test } from "bun:test";
import { layoutNotBroken } from "../../../src/validations/web/layout-not-broken";
import { evaluate, withLayouts } from "../support/web-artifacts";

test("no overlapping text and no broken image passes at every captured size", async () => {
  const out = await evaluate(layoutNotBroken, withLayouts({ "desktop-md": {}, "mobile-sm": {} }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("desktop-md, mobile-sm");
});

test("overlapping text and a broken image fail, each at its size", async () => {
  const out = await evaluate(
    layoutNotBroken,
    withLayouts({
      "desktop-md": {
        textOverlaps: [
          {
            a: "#a",
            b: "#b",
            textA: "This paragraph sits here.",
            textB: "And this one is pulled up.",
            width: 180,
            height: 6,
          },
        ],
      },
      "mobile-sm": { brokenImages: [{ selector: "#hero", src: "https://shop.example/hero.jpg" }] },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"This paragraph sits here." overlaps "And this one is pulled up." by 180×6px',
      selector: "#a ↔ #b",
      viewport: "desktop-md",
      measured: { width: 180, height: 6 },
    },
    {
      message: "visible image did not load",
      selector: "#hero",
      url: "https://shop.example/hero.jpg",
      viewport: "mobile-sm",
    },
  ]);
});

test("a word broken letter by letter in a narrow column fails, with the word, its lines and the column's width", async () => {
  const out = await evaluate(
    layoutNotBroken,
    withLayouts({
      "mobile-sm": { brokenWords: [{ selector: "td.subject", word: "Subject", lines: 7, width: 9 }] },
      "desktop-md": {},
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"Subject" is broken letter by letter over 7 lines in a column 9px wide',
      selector: "td.subject",
      viewport: "mobile-sm",
      text: "Subject",
      measured: { lines: 7, widthPx: 9 },
    },
  ]);
  expect(out.reason).toContain("first at mobile-sm");
});

test("near miss: no word broken letter by letter at any size passes (what the page function leaves out is in test/checks/web-regressions.test.ts)", async () => {
  const out = await evaluate(layoutNotBroken, withLayouts({ "mobile-sm": { brokenWords: [] }, "desktop-md": {} }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("no word broken letter by letter");
});

test("where the page still moved when its geometry was read (the wait after a resize hit its cap), the reasoning says so", async () => {
  const page = { ...withLayouts({ "desktop-md": {}, "mobile-sm": {} }), stillMoving: { "mobile-sm": 1500 } };
  const out = await evaluate(layoutNotBroken, page);
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(
    "Still moving when read (transitions or animations outlasted the wait after the resize): mobile-sm after 1500 ms.",
  );
  const still = await evaluate(layoutNotBroken, withLayouts({ "desktop-md": {}, "mobile-sm": {} }));
  expect(still.reasoning).not.toContain("Still moving");
});
