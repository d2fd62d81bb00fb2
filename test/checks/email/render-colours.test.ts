import { expect, test } from "bun:test";
import { withContrast, type MeasuredEmailRender } from "../../../src/capture/mail-clients/gather-render";
import { invertedColour } from "../../../src/capture/mail-clients/client-rendering";

const measured = (over: Partial<MeasuredEmailRender>): MeasuredEmailRender => ({
  canvas: [255, 255, 255],
  textBlocks: [],
  images: [],
  links: [],
  words: 0,
  altWords: 0,
  viewportWidth: 375,
  ...over,
});
const block = (color: [number, number, number], background: [number, number, number]) => ({
  selector: "p",
  text: "Text",
  fontSizePx: 16,
  bold: false,
  color,
  background,
});

test("a render's contrast ratios are WCAG 2.x ratios (culori), to two decimals; a link without text of its own has none", () => {
  const link = {
    selector: "a",
    href: "https://trailhead.example/",
    text: "Shop",
    box: { x: 0, y: 0, width: 100, height: 40 },
    shown: true,
    buttonStyled: true,
    visibleShare: 1,
  };
  const out = withContrast(
    measured({
      textBlocks: [
        block([0x77, 0x77, 0x77], [255, 255, 255]),
        block([0, 0, 0], [255, 255, 255]),
        block([255, 255, 255], [255, 255, 255]),
      ],
      links: [
        { ...link, color: [255, 255, 255], background: [0x1d, 0x4e, 0xd8] },
        { ...link, text: "Shop (image alt)", color: null, background: [255, 255, 255] },
      ],
    }),
  );
  expect(out.textBlocks.map((t) => t.contrast)).toEqual([4.48, 21, 1]);
  expect(out.links.map((l) => l.contrast)).toEqual([6.7, null]);
});

test("dark-mode inversion (culori's HSL): partial darkens light backgrounds and lifts dark text, keeping what is already dark or light", () => {
  expect(invertedColour("rgb(255, 255, 255)", "background", "partial-invert")).toBe("rgb(18, 18, 18)");
  expect(invertedColour("rgb(34, 34, 34)", "text", "partial-invert")).toBe("rgb(221, 221, 221)");
  expect(invertedColour("rgb(0, 0, 0)", "text", "partial-invert")).toBe("rgb(237, 237, 237)");
  expect(invertedColour("rgb(240, 240, 240)", "text", "partial-invert")).toBeNull();
  expect(invertedColour("rgb(20, 20, 20)", "background", "partial-invert")).toBeNull();
  expect(invertedColour("rgba(0, 0, 0, 0)", "background", "partial-invert")).toBeNull();
  // Full inversion: lightness 1 - l, hue and saturation kept, alpha kept.
  expect(invertedColour("rgb(0, 0, 0)", "text", "full-invert")).toBe("rgb(255, 255, 255)");
  expect(invertedColour("rgba(29, 78, 216, 0.5)", "background", "full-invert")).toBe("rgba(39, 88, 226, 0.5)");
});
