import { expect, test } from "bun:test";
import type {
  AxeContrast,
  AxeNode,
  AxeSummary,
  ContrastPixels,
  GlyphContrast,
  WebArtifacts,
} from "../../../src/capture/artifacts";
import type { CaptureSize } from "../../../src/capture/vocabulary";
import { colorContrast } from "../../../src/validations/web/color-contrast";
import { pixelOutcome } from "../../../src/validations/web/_contrast";
import { artifacts, axeRule, axeSummary, evaluate, selectors } from "../support/web-artifacts";

const TAGS = ["cat.color", "wcag2aa", "wcag143"];

/** The color-contrast rule of an axe summary at one size, with the elements measured from pixels there. */
const contrastAt = (viewport: CaptureSize, axe: AxeSummary, elements: GlyphContrast[] = []): ContrastPixels => ({
  viewport,
  axe: {
    version: axe.version,
    passed: axe.passes.some((r) => r.id === "color-contrast"),
    ...(axe.violations.find((r) => r.id === "color-contrast")
      ? { violation: axe.violations.find((r) => r.id === "color-contrast") }
      : {}),
    ...(axe.incomplete.find((r) => r.id === "color-contrast")
      ? { incomplete: axe.incomplete.find((r) => r.id === "color-contrast") }
      : {}),
  },
  elements,
  candidates: axe.incomplete.find((r) => r.id === "color-contrast")?.nodeCount ?? 0,
});

/** Artifacts as a capture at desktop-md alone gathers them: axe, and its color-contrast rule with pixels there. */
const gathered = (axe: AxeSummary, elements: GlyphContrast[] = []): WebArtifacts =>
  artifacts({ axe, contrastPixels: { "desktop-md": contrastAt("desktop-md", axe, elements) } });

const contrastNode = (target: string, contrast: Partial<AxeContrast>, failureSummary = ""): AxeNode => ({
  target,
  failureSummary,
  contrast: {
    fgColor: "#777777",
    bgColor: "#ffffff",
    contrastRatio: 4.48,
    expectedContrastRatio: "4.5:1",
    fontSize: "12.0pt (16px)",
    fontWeight: "normal",
    messageKey: null,
    ...contrast,
  },
});

test("axe's violations fail, each with its element, ratio, required ratio and colours", async () => {
  const out = await evaluate(
    colorContrast,
    gathered(
      axeSummary({
        violations: [
          axeRule(
            "color-contrast",
            [
              contrastNode("#faint", {}),
              contrastNode("#pale", {
                fgColor: "#959595",
                contrastRatio: 2.99,
                expectedContrastRatio: "3:1",
                fontSize: "18.0pt (24px)",
              }),
            ],
            { tags: TAGS },
          ),
        ],
      }),
    ),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#faint", "#pale"]);
  expect(out.findings[0]!.measured).toMatchObject({
    ratio: 4.48,
    required: 4.5,
    color: "#777777",
    background: "#ffffff",
  });
  expect(out.findings[1]!.measured).toMatchObject({ ratio: 2.99, required: 3 });
  expect(out.reason).toContain("#faint");
});

test("text axe could not decide (background image, gradient) needs review and does not fail", async () => {
  const undecided = axeRule(
    "color-contrast",
    [
      contrastNode(
        "#hero h1",
        { bgColor: null, contrastRatio: 0, messageKey: "bgImage" },
        "Element's background color could not be determined due to a background image",
      ),
      contrastNode(
        "#banner p",
        { bgColor: null, contrastRatio: 0, messageKey: "bgGradient" },
        "Element's background color could not be determined due to a background gradient",
      ),
    ],
    { tags: TAGS },
  );
  const out = await evaluate(
    colorContrast,
    gathered(axeSummary({ incomplete: [undecided], passes: [{ id: "color-contrast", tags: TAGS }] })),
  );
  expect(out.verdict).toBe("pass");
  expect(selectors(out)).toEqual(["#hero h1", "#banner p"]);
  expect(out.findings.map((f) => f.measured?.why)).toEqual(["bgImage", "bgGradient"]);
  expect(out.findings[0]!.message).toStartWith("needs review: ");
  expect(out.reasoning).toContain("rendered pixels failed 0 and passed 0; 2 need review");
});

test("a real violation still fails beside elements needing review, and other rules' results do not count", async () => {
  const out = await evaluate(
    colorContrast,
    gathered(
      axeSummary({
        violations: [
          axeRule("image-alt", [{ target: "img", failureSummary: "" }]),
          axeRule("color-contrast", [contrastNode("#faint", {})], { tags: TAGS }),
        ],
        incomplete: [axeRule("color-contrast", [contrastNode("#hero h1", { messageKey: "bgImage" })], { tags: TAGS })],
      }),
    ),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#faint", "#hero h1"]);
});

test("a page where axe passed every text element passes", async () => {
  const out = await evaluate(
    colorContrast,
    gathered(
      axeSummary({
        passes: [{ id: "color-contrast", tags: TAGS }],
        violations: [axeRule("image-alt", [{ target: "img", failureSummary: "" }])],
      }),
    ),
  );
  expect(out.verdict).toBe("pass");
  expect(out.findings).toEqual([]);
});

/** A pixel measurement of one element, as the contrast-pixels gatherer records it. */
const measured = (percentiles: (p: number) => number, over: Partial<GlyphContrast> = {}): GlyphContrast => ({
  target: "#hero p",
  box: { x: 0, y: 0, width: 200, height: 20 },
  fontSizePx: 16,
  fontWeight: 400,
  glyphPixels: 900,
  corePixels: 400,
  percentiles: Array.from({ length: 101 }, (_, p) => percentiles(p)),
  color: "#ffffff",
  backgrounds: ["#101010", "#303030"],
  ...over,
});

test("pixels decide only where 95% of the glyphs' core is on one side; a shadow never fails, a cut region never passes", () => {
  expect(
    pixelOutcome(
      measured(() => 2),
      4.5,
    ),
  ).toBe("fail");
  expect(
    pixelOutcome(
      measured(() => 12),
      4.5,
    ),
  ).toBe("pass");
  // Crossing the threshold: 40% below.
  expect(
    pixelOutcome(
      measured((p) => (p < 40 ? 3 : 6)),
      4.5,
    ),
  ).toBe("needs review");
  // 10% below is not "nearly all above".
  expect(
    pixelOutcome(
      measured((p) => (p < 10 ? 3 : 6)),
      4.5,
    ),
  ).toBe("needs review");
  expect(
    pixelOutcome(
      measured(() => 2, { shadow: true }),
      4.5,
    ),
  ).toBe("needs review");
  expect(
    pixelOutcome(
      measured(() => 12, { partial: true }),
      4.5,
    ),
  ).toBe("needs review");
  // Large text needs 3:1.
  expect(
    pixelOutcome(
      measured(() => 3.2),
      3,
    ),
  ).toBe("pass");
});

test("an element axe could not decide fails by pixels with its measured range; one pixels could not read stays needing review", async () => {
  const undecided = axeRule(
    "color-contrast",
    [
      contrastNode("#hero p", { bgColor: null, contrastRatio: 0, messageKey: "bgImage" }),
      contrastNode("#video p", { bgColor: null, contrastRatio: 0, messageKey: "bgOverlap" }),
    ],
    { tags: TAGS },
  );
  const out = await evaluate(
    colorContrast,
    gathered(axeSummary({ incomplete: [undecided], passes: [{ id: "color-contrast", tags: TAGS }] }), [
      measured(() => 1.8, { color: "#aaaaaa", backgrounds: ["#eeeeee", "#f4f4f4"] }),
      { target: "#video p", unmeasured: "the background changed between renders" },
    ]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.method, f.measured?.outcome])).toEqual([
    ["#hero p", "pixels", undefined],
    ["#video p", "axe", "needs review"],
  ]);
  expect(out.findings[0]!.measured).toMatchObject({ ratio: { p5: 1.8, p95: 1.8 }, required: 4.5, shareBelow: 1 });
  expect(out.findings[1]!.measured?.pixels).toBe("the background changed between renders");
  expect(out.reasoning).toContain("rendered pixels failed 1 and passed 0; 1 need review");
});

test("each size is judged on its own pixels: legible at desktop-md, failing at mobile-sm fails there only", async () => {
  const axe = axeSummary({
    incomplete: [axeRule("color-contrast", [contrastNode("#hero p", { bgColor: null, messageKey: "bgImage" })])],
  });
  const out = await evaluate(
    colorContrast,
    artifacts({
      axe,
      contrastPixels: {
        "desktop-md": contrastAt("desktop-md", axe, [measured(() => 9)]),
        "mobile-sm": contrastAt("mobile-sm", axe, [measured(() => 1.6)]),
      },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.viewport, f.method, f.measured?.outcome])).toEqual([
    ["mobile-sm", "pixels", undefined],
    ["desktop-md", "pixels", "pass"],
  ]);
  expect(out.reason).toContain("of 1 element(s) at mobile-sm");
  expect(out.findings[0]!.message).toContain("measured from pixels at mobile-sm");
  expect(out.reasoning).toContain("At desktop-md: axe found no text it could measure; of 1 element(s)");
  expect(out.reasoning).toContain("At mobile-sm:");
});
