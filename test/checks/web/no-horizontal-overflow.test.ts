import { expect, test } from "bun:test";
import { noHorizontalOverflow } from "../../../src/validations/web/no-horizontal-overflow";
import { evaluate, selectors, withLayouts } from "../support/web-artifacts";

test("a document exactly as wide as the 375px viewport passes", async () => {
  const out = await evaluate(noHorizontalOverflow, withLayouts({ "mobile-sm": { documentWidth: 375 } }));
  expect(out.verdict).toBe("pass");
});

test("a wider document fails, naming the outermost elements that stick out (at most five)", async () => {
  const overflowing = [700, 650, 600, 550, 500, 450].map((w, i) => ({
    selector: `#wide${i}`,
    right: w + 16,
    width: w,
  }));
  const out = await evaluate(noHorizontalOverflow, withLayouts({ "mobile-sm": { documentWidth: 716, overflowing } }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#wide0", "#wide1", "#wide2", "#wide3", "#wide4"]);
  expect(out.findings[0]).toEqual({
    message: "700px wide, right edge at 716px",
    selector: "#wide0",
    viewport: "mobile-sm",
    measured: { right: 716, width: 700 },
  });
});
