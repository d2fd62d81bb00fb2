import { expect, test } from "bun:test";
import type { AxeContrast, AxeNode } from "../../../src/capture/artifacts";
import { colorContrast } from "../../../src/validations/web/color-contrast";
import { artifacts, axeRule, axeSummary, evaluate, selectors } from "../support/web-artifacts";

const TAGS = ["cat.color", "wcag2aa", "wcag143"];

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
    artifacts({
      axe: axeSummary({
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
    }),
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
    artifacts({ axe: axeSummary({ incomplete: [undecided], passes: [{ id: "color-contrast", tags: TAGS }] }) }),
  );
  expect(out.verdict).toBe("pass");
  expect(selectors(out)).toEqual(["#hero h1", "#banner p"]);
  expect(out.findings.map((f) => f.measured?.why)).toEqual(["bgImage", "bgGradient"]);
  expect(out.findings[0]!.message).toStartWith("needs review: ");
  expect(out.reasoning).toContain("2 element(s) need review");
});

test("a real violation still fails beside elements needing review, and other rules' results do not count", async () => {
  const out = await evaluate(
    colorContrast,
    artifacts({
      axe: axeSummary({
        violations: [
          axeRule("image-alt", [{ target: "img", failureSummary: "" }]),
          axeRule("color-contrast", [contrastNode("#faint", {})], { tags: TAGS }),
        ],
        incomplete: [axeRule("color-contrast", [contrastNode("#hero h1", { messageKey: "bgImage" })], { tags: TAGS })],
      }),
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#faint", "#hero h1"]);
});

test("a page where axe passed every text element passes", async () => {
  const out = await evaluate(
    colorContrast,
    artifacts({
      axe: axeSummary({
        passes: [{ id: "color-contrast", tags: TAGS }],
        violations: [axeRule("image-alt", [{ target: "img", failureSummary: "" }])],
      }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.findings).toEqual([]);
});
