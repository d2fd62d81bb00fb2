import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type {
  AxeContrast,
  AxeNode,
  AxeSummary,
  ContrastPixels,
  GlyphContrast,
  WebArtifacts,
} from "../../../src/capture/artifacts";
import type { CaptureSize } from "../../../src/capture/vocabulary";
import type { Finding } from "../../../src/validations/types";
import { colorContrast } from "../../../src/validations/web/color-contrast";
import { pixelOutcome } from "../../../src/validations/web/_contrast";
import { htmlJob, startServer, type TestServer } from "../../support/harness";
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

/** Rendered through the real interface: each page a static_html job selecting color-contrast. */
describe("through the API", () => {
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startServer();
    apiKey = (await server.signup()).apiKey;
  });
  afterAll(() => server.stop());

  const svg = (background: string, spots: string) =>
    `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='60' height='60'><rect width='60' height='60' fill='${background}'/><circle cx='30' cy='30' r='18' fill='${spots}'/></svg>`)}")`;
  const page = (style: string, body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contrast</title><style>body{margin:0;font-family:sans-serif}${style}</style></head><body><main>${body}</main></body></html>`;

  async function run(html: string, extra: Record<string, unknown> = {}) {
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(html, ["color-contrast"], extra),
    });
    expect(res.status).toBe(200);
    const [result] = res.body.results;
    return result as { verdict: string; reason?: string; reasoning: string; findings: Finding[] };
  }

  test("light grey text over a light background image fails by pixels, with the measured range", async () => {
    const result = await run(
      page(
        `.hero{background-image:${svg("#f4f4f4", "#e6e6e6")};padding:40px}.hero p{color:#b0b0b0;font-size:18px}`,
        `<section class="hero"><p id="faint">Pale words over a pale photograph are hard to read.</p></section>`,
      ),
    );
    expect(result.verdict).toBe("fail");
    const [finding] = result.findings;
    expect(finding).toMatchObject({
      selector: "#faint",
      method: "pixels",
      measured: { why: "bgImage", required: 4.5 },
    });
    const ratio = finding!.measured!.ratio as { p5: number; p95: number };
    expect(ratio.p95).toBeLessThan(2.5);
    expect(ratio.p5).toBeGreaterThan(1.3);
    expect(result.reason).toContain("#faint");
  });

  test("accessibility-wcag decides the same text from the same measurement, with method pixels", async () => {
    const html = page(
      `.hero{background-image:${svg("#f4f4f4", "#e6e6e6")};padding:40px}.hero p{color:#b0b0b0;font-size:18px}`,
      `<section class="hero"><p id="faint">Pale words over a pale photograph are hard to read.</p></section>`,
    );
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(html, ["color-contrast", "accessibility-wcag"]),
    });
    expect(res.status).toBe(200);
    const [contrast, wcag] = res.body.results as Array<{ verdict: string; findings: Finding[] }>;
    expect([contrast!.verdict, wcag!.verdict]).toEqual(["fail", "fail"]);
    const faint = (r: { findings: Finding[] }) => r.findings.find((f) => f.selector === "#faint")!;
    expect(faint(wcag!)).toMatchObject({ method: "pixels", measured: { rule: "color-contrast", required: 4.5 } });
    expect(faint(wcag!).measured!.ratio).toEqual(faint(contrast!).measured!.ratio);
  });

  test("white text over a dark background image passes by pixels", async () => {
    const result = await run(
      page(
        `.hero{background-image:${svg("#102030", "#203040")};padding:40px}.hero h1,.hero p{color:#fff}`,
        `<section class="hero"><h1 id="title">Spring collection</h1><p id="copy">New arrivals every week, shipped free.</p></section>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    const bySelector = new Map(result.findings.map((f) => [f.selector, f]));
    for (const id of ["#title", "#copy"]) {
      expect(bySelector.get(id)).toMatchObject({ method: "pixels", measured: { outcome: "pass" } });
      expect((bySelector.get(id)!.measured!.ratio as { p5: number }).p5).toBeGreaterThan(10);
    }
  });

  test("white text across a busy gradient that crosses the threshold needs review, with the range", async () => {
    const result = await run(
      page(
        `#busy{display:inline-block;padding:10px;color:#fff;font-size:20px;background:repeating-radial-gradient(circle at 30% 40%,rgba(255,255,255,.15) 0 6px,transparent 6px 14px),linear-gradient(90deg,#000,#fff)}`,
        `<p id="busy">Members save twenty percent on every single order placed this month</p>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    const [finding] = result.findings;
    expect(finding).toMatchObject({ selector: "#busy", method: "pixels", measured: { outcome: "needs review" } });
    const ratio = finding!.measured!.ratio as { p5: number; p95: number };
    expect(ratio.p5).toBeLessThan(4.5);
    expect(ratio.p95).toBeGreaterThan(4.5);
    expect(finding!.message).toMatch(/^needs review: \d+(\.\d+)?–\d+(\.\d+)?:1 measured from pixels/);
  });

  test("dark text over a picture, light behind it at desktop-md, dark behind it at 375 px: fails at mobile-sm only", async () => {
    // A 1600px-wide picture pinned right: its light part (the left 1000px) is behind the text at 1280px; at 375px
    // only its dark right part is on screen.
    const picture = `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='1600' height='200'><rect width='1000' height='200' fill='#f2f2f2'/><rect x='1000' width='600' height='200' fill='#5a5a5a'/></svg>`)}")`;
    const html = page(
      `.hero{background:${picture} right top/1600px 200px no-repeat;height:200px;padding:24px 16px;box-sizing:border-box}.hero p{color:#303030;font-size:18px;max-width:340px;margin:0}`,
      `<section class="hero"><p id="tagline">Handmade in small batches, shipped to your door.</p></section>`,
    );
    const result = await run(html, { captureSizes: ["mobile-sm"] });
    expect(result.verdict).toBe("fail");
    const tagline = result.findings.filter((f) => f.selector === "#tagline");
    expect(tagline.map((f) => [f.viewport, f.method, f.measured?.outcome])).toEqual([
      ["mobile-sm", "pixels", undefined],
      ["desktop-md", "pixels", "pass"],
    ]);
    expect((tagline[0]!.measured!.ratio as { p95: number }).p95).toBeLessThan(2.5);
    expect(result.reason).toContain("of 1 element(s) at mobile-sm");
    // Asked for desktop-md alone, the same page passes: nothing is measured at a size the job does not judge.
    const desktop = await run(html);
    expect(desktop.verdict).toBe("pass");
    expect(desktop.findings.map((f) => f.viewport)).toEqual(["desktop-md"]);
  });

  test("measuring is capped per page, and the reasoning says so: axe keeps 20 of 25 undecided elements", async () => {
    const lines = Array.from({ length: 25 }, (_, i) => `<p>Line ${i + 1} of white copy</p>`).join("");
    const result = await run(
      page(
        `.hero{background-image:${svg("#102030", "#203040")};padding:8px}.hero p{color:#fff;margin:2px 0}`,
        `<section class="hero">${lines}</section>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    expect(result.findings.filter((f) => f.method === "pixels" && f.measured?.outcome === "pass")).toHaveLength(20);
    expect(result.reasoning).toContain(
      "At desktop-md: axe found no text it could measure; of 25 element(s) axe could not decide (bgImage), rendered pixels failed 0 and passed 20; 5 need review (measuring stopped at the 20 elements axe reports of 25).",
    );
  });

  test("gradient text painted by its background (background-clip: text) is never failed from pixels", async () => {
    const result = await run(
      page(
        `#shine{font-size:40px;font-weight:700;color:transparent;background:linear-gradient(90deg,#f0f0f0,#fafafa);-webkit-background-clip:text;background-clip:text}`,
        `<h1 id="shine">Pale gradient heading</h1>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    for (const f of result.findings.filter((f) => f.selector === "#shine"))
      expect(f.measured).toMatchObject({ outcome: "needs review" });
  });

  test("where axe decides, it decides as before: grey on white fails by axe, and nothing is measured from pixels", async () => {
    const result = await run(
      page("#grey{color:#777;background:#fff}", `<p id="grey">Grey on white, just too light.</p>`),
    );
    expect(result.verdict).toBe("fail");
    expect(result.findings).toEqual([
      expect.objectContaining({
        selector: "#grey",
        method: "axe",
        measured: expect.objectContaining({ ratio: 4.47, required: 4.5 }),
      }),
    ]);
    expect(result.reasoning).not.toContain("rendered pixels");
  });
});
