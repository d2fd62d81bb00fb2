import { expect, test } from "bun:test";
import { colorContrast } from "../../../src/validations/web/color-contrast";
import { evaluate, selectors, text, withDom } from "../support/web-artifacts";

const grey = (g: number, a = 1): [number, number, number, number] => [g, g, g, a];

test("#767676 on white (4.54:1) passes; large text needs only 3:1 (#949494, 3.03:1)", async () => {
  const out = await evaluate(
    colorContrast,
    withDom({
      visibleText: [
        text("#body", "Body", { color: grey(0x76) }),
        text("#big", "Big heading", { color: grey(0x94), fontSizePx: 24 }),
        text("#bold", "Bold subheading", { color: grey(0x94), fontSizePx: 18.66, fontWeight: 700 }),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("#777777 on white (4.48:1) fails: no rounding up to 4.5", async () => {
  const out = await evaluate(colorContrast, withDom({ visibleText: [text("#ok", "Black"), text("#faint", "Grey #777777 on white is 4.48:1.", { color: grey(0x77) })] }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#faint"]);
  expect(out.findings[0]!.measured).toMatchObject({ ratio: 4.47, required: 4.5 });
});

test("large text below 3:1 fails, and not-quite-large bold text needs 4.5:1", async () => {
  const out = await evaluate(
    colorContrast,
    withDom({ visibleText: [text("#pale", "Pale heading", { color: grey(0x95), fontSizePx: 24 }), text("#semi", "Semibold", { color: grey(0x94), fontSizePx: 18.66, fontWeight: 600 })] }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#pale", "#semi"]);
  expect(out.findings.map((f) => f.measured?.required)).toEqual([3, 4.5]);
});

test("translucent text is blended over its background first", async () => {
  // Black at 50% on white is mid grey: about 3.98:1.
  const out = await evaluate(colorContrast, withDom({ visibleText: [text("#ghost", "Ghost", { color: [0, 0, 0, 0.5] })] }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#ghost"]);
});
