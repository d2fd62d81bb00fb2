import { describe, expect, test } from "bun:test";
import { ctaVisible } from "../../../src/validations/web/cta-visible";
import { htmlJob } from "../../support/harness";
import { sharedServer } from "../../support/shared-server";
import { svgDataUrl, svgOfText } from "../../support/painted-text";
import { control, evaluate, withLayouts } from "../support/web-artifacts";

const box = (x: number, y: number, width = 200, height = 48) => ({ x, y, width, height });
const trial = (over: Parameters<typeof control>[2] = {}, b = box(16, 100)) =>
  control("#trial", b, { text: "Start free trial", buttonStyled: true, ...over });
/** The desktop page: #trial is the largest button-styled control above the fold; a bigger plain link and a bigger button below the fold are not the CTA. */
const desktop = {
  controls: [
    control("#nav", box(0, 0, 600, 60)),
    control("#below", box(0, 900, 400, 80), { buttonStyled: true }),
    trial(),
  ],
};

test("the CTA on screen at every size passes; half of it within the width is enough", async () => {
  const out = await evaluate(
    ctaVisible,
    withLayouts({
      "desktop-md": desktop,
      "tablet-portrait": { controls: [trial()] },
      "mobile-sm": { controls: [trial({}, box(275, 100))] },
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("#trial");
});

test("a page with no button-styled control above the fold passes", async () => {
  const out = await evaluate(
    ctaVisible,
    withLayouts({ "desktop-md": { controls: [control("#nav", box(0, 0))] }, "mobile-sm": {} }),
  );
  expect(out.verdict).toBe("pass");
});

test("a navigation's current item is no call to action: a highlighted link to the current page, off-canvas at other sizes, passes; a real button beside it is followed", async () => {
  const current = control("#docs-navigation > li > a", box(8, 120, 234, 40), {
    text: "Installation",
    buttonStyled: true,
    currentNavItem: true,
  });
  const offCanvas = { controls: [{ ...current, box: box(-242, 120, 234, 40) }] };
  const onlyNavigation = await evaluate(
    ctaVisible,
    withLayouts({ "desktop-md": { controls: [current] }, "tablet-portrait": offCanvas, "mobile-sm": offCanvas }),
  );
  expect(onlyNavigation.verdict).toBe("pass");
  expect(onlyNavigation.reasoning).toContain("No button-styled call to action above the fold");

  // A smaller button outside the navigation is the call to action, and is followed across sizes.
  const out = await evaluate(
    ctaVisible,
    withLayouts({
      "desktop-md": { controls: [current, trial({}, box(300, 200, 160, 40))] },
      "mobile-sm": { controls: [...offCanvas.controls, trial({ shown: false, display: "none" })] },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.selector)).toEqual(["#trial"]);
});

test("the CTA hidden, off-screen or gone at other sizes fails at each of them", async () => {
  const hidden = withLayouts({
    "desktop-md": desktop,
    "mobile-sm": { controls: [trial({ shown: false, display: "none" }, box(0, 0, 0, 0))] },
    "tablet-portrait": { controls: [trial({}, box(700, 100))] },
  });
  const out = await evaluate(ctaVisible, hidden);
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.viewport, f.measured])).toEqual([
    ["#trial", "mobile-sm", { visibleShare: 0 }],
    // Shown but off to the side: its box, so the dashboard can outline it on the screenshot.
    ["#trial", "tablet-portrait", { visibleShare: 0.34, box: { x: 700, y: 100, width: 200, height: 48 } }],
  ]);
  expect(out.findings[0]!.message).toBe(
    '"Start free trial" at mobile-sm: it is hidden (display:none, visibility:visible, opacity 1)',
  );

  const gone = await evaluate(ctaVisible, withLayouts({ "desktop-md": desktop, "mobile-sm": {} }));
  expect(gone.findings.map((f) => f.message)).toEqual(['"Start free trial" at mobile-sm: it is gone from the page']);
});

test("social icons rank below a real button, however large they are", async () => {
  const social = control("#facebook", box(0, 40, 400, 120), {
    text: "Facebook",
    href: "https://www.facebook.com/shop",
    buttonStyled: true,
  });
  const follow = control("#follow", box(0, 200, 400, 120), {
    text: "",
    href: "https://x.com/shop",
    buttonStyled: true,
  });
  const out = await evaluate(
    ctaVisible,
    withLayouts({
      "desktop-md": { controls: [social, follow, trial({ href: "https://shop.example/#" })] },
      "mobile-sm": { controls: [trial({ shown: false, display: "none" })] },
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.selector)).toEqual(["#trial"]);
});

describe("a call to action is what a reader sees as one, through a real job", () => {
  const shared = sharedServer();

  /** The page at mobile-sm and desktop-md; `.desk` is hidden on phones. */
  const run = async (body: string) => {
    const res = await shared.server.api("POST", "/api/jobs", {
      key: shared.apiKey,
      body: htmlJob(
        `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><style>@media (max-width: 600px) { .desk { display: none } }</style></head><body><h1>Trailhead</h1>${body}</body></html>`,
        [ctaVisible.meta.id],
        { captureSizes: ["mobile-sm", "desktop-md"] },
      ),
    });
    expect(res.status).toBe(200);
    return res.body.results[0];
  };

  test("an empty <button></button>, however large and coloured, is no call to action", async () => {
    const out = await run(
      `<button class="desk" style="width:400px;height:80px;background:#c00;border:0"></button><a href="/trial" style="display:inline-block;padding:12px;background:#1a56db;color:#fff">Start free trial</a>`,
    );
    expect(out.verdict).toBe("pass");
    expect(out.reasoning).toContain('"Start free trial"');
  });

  test("a link whose button is painted on a span inside it is the call to action, followed across sizes", async () => {
    const out = await run(
      `<a id="buy" class="desk" href="/buy"><span style="display:inline-block;padding:14px 28px;background:#1a56db;color:#fff">Buy the boots</span></a>`,
    );
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f: any) => [f.selector, f.viewport, f.method])).toEqual([["#buy", "mobile-sm", "dom"]]);
    expect(out.reason).toContain('"Buy the boots"');
  });

  test("a link around an image whose label is painted in it is a call to action with that label, read by OCR", async () => {
    const button = svgDataUrl(svgOfText(["Shop now"], { width: 260, height: 80, size: 36 }));
    const out = await run(`<a id="shop" class="desk" href="/shop"><img src="${button}" alt=""></a>`);
    expect(out.verdict).toBe("fail");
    expect(out.findings.map((f: any) => [f.selector, f.viewport, f.method])).toEqual([["#shop", "mobile-sm", "ocr"]]);
    expect(out.reason).toContain('"Shop now"');
  });
});
