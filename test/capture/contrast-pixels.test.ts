import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Finding } from "../../src/validations/types";
import { htmlJob, startServer, type TestServer } from "../support/harness";

/**
 * The contrast-pixels gatherer (src/capture/gatherers/contrast-pixels.ts, glyph-pixels.ts) through the checks that
 * read it, color-contrast and accessibility-wcag: text axe-core leaves undecided measured from rendered pixels, at
 * each size the job asks for. The checks' decisions on hand-built measurements are in test/checks/web/.
 */

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

  test("light text whose shadow is a halo around every glyph is measured against the halo; a drop shadow is not", async () => {
    const stripes = `url("data:image/svg+xml,${encodeURIComponent(`<svg xmlns='http://www.w3.org/2000/svg' width='12' height='12'><rect width='12' height='12' fill='#111'/><rect width='6' height='12' fill='#777'/></svg>`)}")`;
    const result = await run(
      page(
        `.hero{background-image:${stripes};padding:20px}.hero p{color:#fff;font-size:18px;margin:8px 0}#halo{text-shadow:0 0 3px #000}#drop{text-shadow:2px 2px 0 #000}`,
        `<section class="hero"><p id="halo">Light words in a dark halo over stripes</p><p id="drop">Light words with a drop shadow over stripes</p></section>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    const halo = result.findings.find((f) => f.selector === "#halo")!;
    expect(halo).toMatchObject({ method: "pixels", measured: { outcome: "pass", halo: true, shadow: true } });
    expect(halo.message).toContain("the halo its text shadow draws around every glyph");
    const drop = result.findings.find((f) => f.selector === "#drop")!;
    expect(drop).toMatchObject({ method: "pixels", measured: { outcome: "needs review", shadow: true } });
    expect(drop.measured?.halo).toBeUndefined();
  });

  test("SVG text is painted by its fill: black on white is measured and passes", async () => {
    const result = await run(
      page("", `<svg width="200" height="40"><text id="svg-text" x="0" y="20">I love SVG!</text></svg>`),
    );
    expect(result.verdict).toBe("pass");
    expect(result.findings.find((f) => f.selector === "#svg-text")).toMatchObject({
      method: "pixels",
      measured: { outcome: "pass", color: "#000000" },
    });
  });

  test("text the colour of its background is out of the rule when hidden from assistive technology, else needs review", async () => {
    const result = await run(
      page(
        "#unseen,#read{color:#fff;background:#fff}",
        `<p id="unseen" aria-hidden="true">Hidden words nobody reads</p><p id="read">Words read aloud but not shown</p>`,
      ),
    );
    expect(result.verdict).toBe("pass");
    expect(result.findings.find((f) => f.selector === "#unseen")).toMatchObject({
      measured: { outcome: "not applicable", why: "equalRatio" },
    });
    expect(result.findings.find((f) => f.selector === "#read")).toMatchObject({
      measured: { outcome: "needs review", why: "equalRatio" },
    });
    expect(result.reasoning).toContain("1 are not text the rule applies to");
  });

  test("a lone character or non-text characters its button's name does not contain are a symbol held to 3:1; one the name contains stays text", async () => {
    const html = page(
      "button,a{color:#666;background:#000;font-size:20px;padding:4px 10px}",
      `<button id="close" aria-label="Close">X</button><a id="page-two" href="/p/2" aria-label="Page 2">2</a><button id="dim" aria-label="Menu" style="color:#333">≡</button>`,
    );
    const result = await run(html);
    expect(result.verdict).toBe("pass");
    const close = result.findings.find((f) => f.selector === "#close")!;
    expect(close).toMatchObject({
      method: "pixels",
      measured: { outcome: "pass", required: 3, symbol: { character: "X", name: "Close" } },
    });
    expect(close.message).toContain('"X" is a symbol, not text');
    // A symbol below 3:1 (#333 on #000, 1.7:1) is not failed here: whether it identifies its button is 1.4.11's.
    expect(result.findings.find((f) => f.selector === "#dim")).toMatchObject({
      method: "pixels",
      measured: { outcome: "needs review", required: 3, symbol: { character: "≡", name: "Menu" } },
    });
    expect(result.findings.find((f) => f.selector === "#page-two")).toMatchObject({
      method: "axe",
      measured: { outcome: "needs review", why: "shortTextContent" },
    });
    // Under WCAG AAA the enhanced rule alone leaves the symbol undecided (#666 on #fff is 5.74:1): still 3:1.
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(html.replace("background:#000", "background:#fff"), [
        { id: "accessibility-wcag", parameters: { standard: "wcag22aaa" } },
      ]),
    });
    const [wcag] = res.body.results as Array<{ verdict: string; findings: Finding[] }>;
    expect(
      wcag!.findings.find((f) => f.selector === "#close" && f.measured?.rule === "color-contrast-enhanced"),
    ).toMatchObject({
      method: "pixels",
      measured: { rule: "color-contrast-enhanced", outcome: "pass", required: 3 },
    });
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
