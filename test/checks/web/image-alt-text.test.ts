import { describe, expect, test } from "bun:test";
import { imageAltText } from "../../../src/validations/web/image-alt-text";
import { htmlJob, startServer, type TestServer } from "../../support/harness";
import { sharedServer } from "../../support/shared-server";
import { svgDataUrl, svgOfText } from "../../support/painted-text";
import { evaluate, img, withDom } from "../support/web-artifacts";

test('alt text, and alt="" on a decorative image, pass', async () => {
  const out = await evaluate(
    imageAltText,
    withDom({ images: [img("#a", "/a.png", { alt: "A kettle" }), img("#deco", "/line.png", { alt: "" })] }),
  );
  expect(out.verdict).toBe("pass");
});

test("an <img> and an <input type=image> without alt fail, by selector", async () => {
  const out = await evaluate(
    imageAltText,
    withDom({
      images: [
        img("#ok", "/ok.png", { alt: "ok" }),
        img("#hero", "https://shop.example/hero.png", { hasAlt: false, alt: null }),
        img("#go", "", { tag: "input", hasAlt: false, alt: null }),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "<img> without alt", selector: "#hero", url: "https://shop.example/hero.png", method: "dom" },
    { message: "<input type=image> without alt", selector: "#go", url: undefined, method: "dom" },
  ]);
});

describe("images of text, read by OCR, through a real job", () => {
  const shared = sharedServer();

  const banner = svgDataUrl(svgOfText(["Spring sale: 25% off", "all walking boots"]));
  const run = async (s: TestServer, key: string, body: string) => {
    const res = await s.api("POST", "/api/jobs", {
      key,
      body: htmlJob(`<!doctype html><html lang="en"><body><h1>Trailhead</h1>${body}</body></html>`, [
        imageAltText.meta.id,
      ]),
    });
    expect(res.status).toBe(200);
    return res.body.results[0];
  };

  test("an image of text whose alt leaves out its words fails, by OCR; one whose alt says them passes", async () => {
    const failed = await run(shared.server, shared.apiKey, `<img id="hero" alt="" src="${banner}">`);
    expect(failed.verdict).toBe("fail");
    expect(failed.findings).toHaveLength(1);
    expect(failed.findings[0]).toMatchObject({ selector: "#hero", method: "ocr" });
    expect(failed.findings[0].text.toLowerCase()).toContain("walking boots");
    expect(failed.reason).toContain("Put the words painted in 1 image(s) of text in their alt");

    const described = await run(
      shared.server,
      shared.apiKey,
      `<img id="hero" alt="Spring sale: 25% off all walking boots" src="${banner}">`,
    );
    expect(described.verdict).toBe("pass");
    expect(described.reasoning).toContain("Text read by OCR in 1 image(s)");
  });

  test("a picture with a stray letter or two words is no image of text; a missing alt is still found from the DOM", async () => {
    const stray = svgDataUrl(svgOfText(["A"], { width: 400, height: 300, background: "#6b8e23" }));
    const logo = svgDataUrl(svgOfText(["Trailhead Outfitters"], { width: 500, height: 90 }));
    const out = await run(
      shared.server,
      shared.apiKey,
      `<img alt="A field" src="${stray}"><img alt="" src="${logo}"><img id="bare" src="${stray}">`,
    );
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "<img> without alt", selector: "#bare", url: stray, method: "dom" }]);
  });

  test("a screenshot (more than 40 words painted) may be described rather than transcribed; a banner may not", async () => {
    const lines = [
      "Order confirmation for your spring walking boots",
      "Thank you for shopping with Trailhead Outfitters today",
      "Your parcel leaves our warehouse within two working days",
      "Track it from your account page at any time you like",
      "Returns are free within thirty days of the delivery date",
      "Questions about sizing or care are answered by our team",
    ];
    const screenshot = svgDataUrl(svgOfText(lines, { width: 1280, size: 36 }));
    const out = await run(
      shared.server,
      shared.apiKey,
      `<img id="shot" alt="The order confirmation email as Gmail shows it" src="${screenshot}">`,
    );
    expect({ verdict: out.verdict, findings: out.findings }).toEqual({ verdict: "pass", findings: [] });
    expect(out.reasoning).toContain("Text read by OCR in 1 image(s)");
  });

  test("without the OCR engine (ASSAY_TESSERACT_PATH names no binary) a page that passes on its DOM is an error, not a pass", async () => {
    const blind = await startServer({ ASSAY_TESSERACT_PATH: "/nonexistent/tesseract" });
    try {
      const key = (await blind.signup()).apiKey;
      const out = await run(blind, key, `<img alt="" src="${banner}">`);
      expect(out.verdict).toBe("error");
      expect(out.reason).toContain("the text in images could not be read: Tesseract could not be started");
      const noImages = await run(blind, key, "<p>No pictures here.</p>");
      expect(noImages.verdict).toBe("pass");
    } finally {
      await blind.stop();
    }
  });
});
