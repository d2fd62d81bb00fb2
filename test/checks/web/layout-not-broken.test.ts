import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { layoutNotBroken } from "../../../src/validations/web/layout-not-broken";
import { htmlJob, startServer, type TestServer } from "../../support/harness";
import { evaluate, withLayouts } from "../support/web-artifacts";

test("no overlapping text and no broken image passes at every captured size", async () => {
  const out = await evaluate(layoutNotBroken, withLayouts({ "desktop-md": {}, "mobile-sm": {} }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("desktop-md, mobile-sm");
});

test("overlapping text and a broken image fail, each at its size", async () => {
  const out = await evaluate(
    layoutNotBroken,
    withLayouts({
      "desktop-md": {
        textOverlaps: [
          {
            a: "#a",
            b: "#b",
            textA: "This paragraph sits here.",
            textB: "And this one is pulled up.",
            width: 180,
            height: 6,
          },
        ],
      },
      "mobile-sm": { brokenImages: [{ selector: "#hero", src: "https://shop.example/hero.jpg" }] },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"This paragraph sits here." overlaps "And this one is pulled up." by 180×6px',
      selector: "#a ↔ #b",
      viewport: "desktop-md",
      measured: { width: 180, height: 6 },
    },
    {
      message: "visible image did not load",
      selector: "#hero",
      url: "https://shop.example/hero.jpg",
      viewport: "mobile-sm",
    },
  ]);
});

test("a word broken letter by letter in a narrow column fails, with the word, its lines and the column's width", async () => {
  const out = await evaluate(
    layoutNotBroken,
    withLayouts({
      "mobile-sm": { brokenWords: [{ selector: "td.subject", word: "Subject", lines: 7, width: 9 }] },
      "desktop-md": {},
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"Subject" is broken letter by letter over 7 lines in a column 9px wide',
      selector: "td.subject",
      viewport: "mobile-sm",
      text: "Subject",
      measured: { lines: 7, widthPx: 9 },
    },
  ]);
  expect(out.reason).toContain("first at mobile-sm");
});

test("near miss: no word broken letter by letter at any size passes (what the page function leaves out is in test/checks/web-regressions.test.ts)", async () => {
  const out = await evaluate(layoutNotBroken, withLayouts({ "mobile-sm": { brokenWords: [] }, "desktop-md": {} }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("no word broken letter by letter");
});

test("where the page still moved when its geometry was read (the wait after a resize hit its cap), the reasoning says so", async () => {
  const page = { ...withLayouts({ "desktop-md": {}, "mobile-sm": {} }), stillMoving: { "mobile-sm": 1500 } };
  const out = await evaluate(layoutNotBroken, page);
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(
    "Still moving when read (transitions or animations outlasted the wait after the resize): mobile-sm after 1500 ms.",
  );
  const still = await evaluate(layoutNotBroken, withLayouts({ "desktop-md": {}, "mobile-sm": {} }));
  expect(still.reasoning).not.toContain("Still moving");
});

describe("text nobody can see or scroll to is not visible text, through a real job", () => {
  let server: TestServer;
  let apiKey: string;
  beforeAll(async () => {
    server = await startServer();
    apiKey = (await server.signup()).apiKey;
  }, 120_000);
  afterAll(() => server.stop(), 120_000);

  /**
   * Pairs of skip links stacked on each other, each pair hidden by a common pattern: above the page until focused
   * (AdminLTE's top:-40px), far to the left, and clipped to nothing by clip: rect(0 0 0 0) at full size.
   */
  const offScreen = `<style>
    .up a { position: absolute; top: -40px; left: 6px; padding: 8px 16px; background: #0d6efd; color: #fff }
    .up a:focus { top: 0 }
    .left a { position: absolute; left: -9999px; top: 10px }
    .clipped a { position: absolute; top: 10px; left: 10px; clip: rect(0 0 0 0) }
  </style>
  <div class="up"><a href="#main">Skip to main content</a><a href="#nav">Skip to navigation</a></div>
  <div class="left"><a href="#main">Skip to main content</a><a href="#nav">Skip to navigation</a></div>
  <div class="clipped"><a href="#main">Skip to main content</a><a href="#nav">Skip to navigation</a></div>`;
  const run = async (body: string) => {
    const res = await server.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(
        `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"></head><body>${offScreen}<main id="main"><h1>Docs</h1>${body}</main></body></html>`,
        [layoutNotBroken.meta.id],
      ),
    });
    expect(res.status).toBe(200);
    return res.body.results[0];
  };

  test("off-screen skip links stacked on each other (top:-40px, left:-9999px, clip: rect) are not overlapping text", async () => {
    const out = await run("<p>Welcome to the documentation.</p>");
    expect({ verdict: out.verdict, reason: out.reason }).toEqual({ verdict: "pass", reason: undefined });
  });

  test("two visible texts overlapping still fail, and only they are reported", async () => {
    const out = await run(
      '<p id="one" style="margin:0;font-size:20px">This paragraph sits here.</p><p id="two" style="margin:-22px 0 0;font-size:20px">And this one is pulled up.</p>',
    );
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f: { selector: string }) => f.selector)).toEqual(["#one ↔ #two"]);
  });
});
