import { expect, test } from "bun:test";
import { responsiveConsistency } from "../../../src/validations/web/responsive-consistency";
import { control, evaluate, withLayouts } from "../support/web-artifacts";

const go = (shown = true) =>
  control("#go", { x: 16, y: 100, width: 120, height: 48 }, { text: "Go", buttonStyled: true, shown });

test("the h1 and the CTA present at every size pass", async () => {
  const out = await evaluate(
    responsiveConsistency,
    withLayouts({
      "desktop-md": { visibleH1: "Kettles", controls: [go()] },
      "mobile-sm": { visibleH1: "Kettles", controls: [go()] },
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("a page with no h1 and no CTA at desktop has nothing to miss elsewhere", async () => {
  const out = await evaluate(responsiveConsistency, withLayouts({ "desktop-md": {}, "mobile-sm": {} }));
  expect(out.verdict).toBe("pass");
});

test("the h1 not visible and the CTA hidden at a smaller size fail there", async () => {
  const out = await evaluate(
    responsiveConsistency,
    withLayouts({
      "desktop-md": { visibleH1: "Desktop only heading", controls: [go()] },
      "tablet-portrait": { visibleH1: null, controls: [go()] },
      "mobile-sm": { visibleH1: "Desktop only heading", controls: [go(false)] },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: 'the h1 "Desktop only heading" is not visible', viewport: "tablet-portrait", selector: "h1" },
    { message: 'the call to action "Go" is hidden', viewport: "mobile-sm", selector: "#go" },
  ]);
});
