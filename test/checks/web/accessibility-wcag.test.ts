import { expect, test } from "bun:test";
import type { GlyphContrast } from "../../../src/capture/artifacts";
import { accessibilityWcag, standardTags } from "../../../src/validations/web/accessibility-wcag";
import { artifacts, axeRule, axeSummary, evaluate, selectors } from "../support/web-artifacts";

const node = (target: string, failureSummary = "Fix any of the following:\n  Element has no alt") => ({
  target,
  failureSummary,
});

test("each standard takes in the earlier versions, and AA takes in level A", () => {
  expect(standardTags("wcag2a")).toEqual(["wcag2a"]);
  expect(standardTags("wcag21aa")).toEqual(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  expect(standardTags("wcag22a")).toEqual(["wcag2a", "wcag21a", "wcag22a"]);
  expect(standardTags("wcag22aa")).toEqual(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]);
  expect(standardTags("wcag2aaa")).toEqual(["wcag2a", "wcag2aa", "wcag2aaa"]);
  expect(standardTags("wcag21aaa")).toEqual(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag2aaa"]);
});

test("no violation passes; what axe could not decide is listed as needing review, with the rules that ran", async () => {
  const out = await evaluate(
    accessibilityWcag,
    artifacts({
      axe: axeSummary({
        passes: [
          { id: "image-alt", tags: ["wcag2a"] },
          { id: "html-has-lang", tags: ["wcag2a"] },
        ],
        inapplicable: [{ id: "video-caption", tags: ["wcag2a"] }],
        incomplete: [
          axeRule(
            "color-contrast",
            [node("#hero h1", "Element's background color could not be determined due to a background image")],
            { tags: ["wcag2aa", "wcag143"] },
          ),
        ],
      }),
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("WCAG 2.1 AA");
  expect(out.reasoning).toContain(
    "4 rule(s) ran, 2 passed, 0 violated, 1 element(s) needed review (color-contrast ×1)",
  );
  expect(out.reasoning).toContain("Rules: color-contrast, html-has-lang, image-alt, video-caption.");
  expect(out.findings).toHaveLength(1);
  expect(out.findings[0]).toMatchObject({
    selector: "#hero h1",
    measured: { rule: "color-contrast", outcome: "needs review" },
  });
  expect(out.findings[0]!.message).toStartWith("needs review: color-contrast");
});

test("each violating element is a finding with its selector, rule and help page", async () => {
  const out = await evaluate(
    accessibilityWcag,
    artifacts({
      axe: axeSummary({
        violations: [
          axeRule("image-alt", [node("img"), node("#logo")], { impact: "critical", tags: ["wcag2a", "wcag111"] }),
          axeRule("button-name", [node("button")]),
        ],
      }),
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["img", "#logo", "button"]);
  expect(out.findings[0]).toEqual({
    message: "image-alt (critical): image-alt help. Fix any of the following: Element has no alt",
    selector: "img",
    url: "https://dequeuniversity.com/rules/axe/4.14/image-alt",
    viewport: "desktop-md",
    measured: { rule: "image-alt", impact: "critical", tags: ["wcag2a", "wcag111"] },
  });
  expect(out.reason).toStartWith("Fix 2 WCAG 2.1 AA rule violation(s) on 3 element(s) at desktop-md: image-alt at img");
});

test("a WCAG 2.2 rule (target-size) fails only when WCAG 2.2 is asked for; the default is WCAG 2.1 AA", async () => {
  const page = artifacts({
    axe: axeSummary({ violations: [axeRule("target-size", [node("#close")], { tags: ["wcag22aa", "wcag258"] })] }),
  });
  const byDefault = await evaluate(accessibilityWcag, page);
  expect(byDefault.verdict).toBe("pass");
  expect(byDefault.reasoning).not.toContain("target-size");
  const asked = await evaluate(accessibilityWcag, page, { standard: "wcag22aa" });
  expect(asked.verdict).toBe("fail");
  expect(selectors(asked)).toEqual(["#close"]);
});

test("level AA rules do not fail a level A standard, and best-practice rules never fail", async () => {
  const page = artifacts({
    axe: axeSummary({
      violations: [
        axeRule("color-contrast", [node("#faint")], { tags: ["wcag2aa", "wcag143"] }),
        axeRule("region", [node("main")], { tags: ["cat.keyboard", "best-practice"] }),
      ],
    }),
  });
  expect((await evaluate(accessibilityWcag, page, { standard: "wcag2a" })).verdict).toBe("pass");
  const aa = await evaluate(accessibilityWcag, page, { standard: "wcag2aa" });
  expect(aa.verdict).toBe("fail");
  expect(selectors(aa)).toEqual(["#faint"]);
});

test("a page axe did not run on (an XML document in Chromium's viewer) passes, saying why", async () => {
  const notRun = "the document is application/xml without a stylesheet, shown in Chromium's XML viewer";
  const out = await evaluate(accessibilityWcag, artifacts({ axe: axeSummary({ notRun }) }));
  expect(out).toEqual({ verdict: "pass", reasoning: `axe-core 4.14.1 did not run: ${notRun}.`, findings: [] });
});

/** A pixel measurement of one element at desktop-md, as the contrast-pixels gatherer records it. */
const glyphs = (target: string, ratio: (p: number) => number): GlyphContrast => ({
  target,
  box: { x: 0, y: 0, width: 200, height: 20 },
  fontSizePx: 16,
  fontWeight: 400,
  glyphPixels: 900,
  corePixels: 400,
  percentiles: Array.from({ length: 101 }, (_, p) => ratio(p)),
  color: "#b0b0b0",
  backgrounds: ["#e6e6e6", "#f4f4f4"],
});

test("contrast axe could not decide is decided from the pixels color-contrast reads: a decisive fail fails, the rest needs review with its range", async () => {
  const contrast = axeRule(
    "color-contrast",
    ["#faint", "#busy", "#icon"].map((t) => node(t, "Element's background color could not be determined")),
    { tags: ["wcag2aa", "wcag143"] },
  );
  const aria = axeRule("aria-valid-attr-value", [node("#tabs")], { tags: ["wcag2a"] });
  const axe = axeSummary({ incomplete: [contrast, aria], passes: [{ id: "image-alt", tags: ["wcag2a"] }] });
  const out = await evaluate(
    accessibilityWcag,
    artifacts({
      axe,
      contrastPixels: {
        "desktop-md": {
          viewport: "desktop-md",
          axe: { version: axe.version, passed: false, incomplete: contrast },
          candidates: 3,
          elements: [
            glyphs("#faint", () => 1.6),
            glyphs("#busy", (p) => (p < 40 ? 3 : 7)),
            {
              target: "#icon",
              unmeasured: "too few fully covered glyph pixels to measure (12): thin, tiny or hidden text",
            },
          ],
        },
      },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.method, f.measured?.rule, f.measured?.outcome])).toEqual([
    ["#faint", "pixels", "color-contrast", undefined],
    ["#tabs", undefined, "aria-valid-attr-value", "needs review"],
    ["#busy", "pixels", "color-contrast", "needs review"],
    ["#icon", "axe", "color-contrast", "needs review"],
  ]);
  expect(out.findings[0]!.measured).toMatchObject({ ratio: { p5: 1.6, p95: 1.6 }, required: 4.5 });
  expect(out.findings[2]!.message).toStartWith("color-contrast (serious): needs review: 3–7:1 measured from pixels");
  expect(out.reason).toContain("color-contrast at #faint (measured from pixels)");
  expect(out.reasoning).toContain(
    "3 element(s) needed review (color-contrast ×3, aria-valid-attr-value ×1); of the color-contrast elements axe could not decide, rendered pixels failed 1 and passed 0.",
  );
  expect(out.reasoning).toContain("Violations: color-contrast ×1 (pixels).");
});

test("under an AAA standard, undecided contrast is held to the enhanced ratio from pixels: 5:1 text passes AA and fails AAA as color-contrast-enhanced", async () => {
  const contrast = axeRule(
    "color-contrast",
    [node("#gradient", "Element's background color could not be determined")],
    {
      tags: ["wcag2aa", "wcag143"],
    },
  );
  const axe = axeSummary({ incomplete: [contrast] });
  const page = artifacts({
    axe,
    contrastPixels: {
      "desktop-md": {
        viewport: "desktop-md",
        axe: { version: axe.version, passed: false, incomplete: contrast },
        candidates: 1,
        elements: [glyphs("#gradient", (p) => 4.9 + p / 125)],
      },
    },
  });
  const aa = await evaluate(accessibilityWcag, page, { standard: "wcag2aa" });
  expect(aa.verdict).toBe("pass");
  expect(aa.findings.map((f) => [f.measured?.rule, f.measured?.outcome, f.measured?.required])).toEqual([
    ["color-contrast", "pass", 4.5],
  ]);
  const aaa = await evaluate(accessibilityWcag, page, { standard: "wcag2aaa" });
  expect(aaa.verdict).toBe("fail");
  expect(aaa.findings.map((f) => [f.measured?.rule, f.measured?.outcome, f.measured?.required])).toEqual([
    ["color-contrast-enhanced", undefined, 7],
  ]);
  expect(aaa.findings[0]!.url).toEndWith("/color-contrast-enhanced");
  expect(aaa.reason).toContain("color-contrast-enhanced at #gradient (measured from pixels)");
});
