import { expect, test } from "bun:test";
import { tapTargets } from "../../../src/validations/web/tap-targets";
import { control, evaluate, selectors, withLayouts } from "../support/web-artifacts";

const at = (x: number, y: number, size = 14) => ({ x, y, width: size, height: size });

test("24×24 targets side by side pass", async () => {
  const out = await evaluate(
    tapTargets,
    withLayouts({ "mobile-sm": { controls: [control("#a", at(0, 0, 24)), control("#b", at(24, 0, 24))] } }),
  );
  expect(out.verdict).toBe("pass");
});

test("small targets spaced 24px apart pass; inline links and hidden controls are not judged", async () => {
  const out = await evaluate(
    tapTargets,
    withLayouts({
      "mobile-sm": {
        controls: [
          control("#a", at(0, 0)),
          control("#b", at(24, 0)),
          control("#in-text", at(40, 0, 10), { inline: true }),
          control("#hidden", at(42, 0, 10), { shown: false }),
        ],
      },
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("small crowded targets fail, each by selector", async () => {
  const out = await evaluate(
    tapTargets,
    withLayouts({
      "mobile-sm": {
        controls: [
          control("#one", at(16, 100), { text: "1" }),
          control("#two", at(30, 100)),
          control("#three", at(44, 100)),
          control("#far", at(300, 400)),
        ],
      },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#one", "#two", "#three"]);
  expect(out.findings[0]).toEqual({
    message: '"1" is 14×14px and crowded',
    selector: "#one",
    viewport: "mobile-sm",
    // Its box, so the dashboard can outline the target on the screenshot.
    measured: { width: 14, height: 14, box: { x: 16, y: 100, width: 14, height: 14 } },
  });
});

test("a small target too close to a big one fails; the big one does not", async () => {
  const out = await evaluate(
    tapTargets,
    withLayouts({ "mobile-sm": { controls: [control("#big", at(0, 0, 48)), control("#small", at(50, 17))] } }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#small"]);
});

test("a small link whose circle reaches a wide undersized neighbour fails, though their centres are far apart (stacked breadcrumb links)", async () => {
  // Three links stacked at 18px lines, as an <ol> of breadcrumbs on a phone: each circle touches the next link's box.
  const out = await evaluate(
    tapTargets,
    withLayouts({
      "mobile-sm": {
        controls: [
          control("#home", { x: 48, y: 100, width: 40, height: 18 }),
          control("#housing", { x: 48, y: 118, width: 190, height: 18 }),
          control("#councils", { x: 48, y: 136, width: 180, height: 18 }),
        ],
      },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#home", "#housing", "#councils"]);
});

test("wide undersized controls side by side pass when each one's circle clears the other (a search field and its button)", async () => {
  const out = await evaluate(
    tapTargets,
    withLayouts({
      "mobile-sm": {
        controls: [
          control("#q", { x: 8, y: 100, width: 153, height: 21 }),
          control("#go", { x: 165, y: 100, width: 58, height: 21 }),
        ],
      },
    }),
  );
  expect(out.verdict).toBe("pass");
});
