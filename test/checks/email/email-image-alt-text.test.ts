import { describe, expect, test } from "bun:test";
import { startServer } from "../../support/harness";
import { runEmailMessage } from "../../support/fixture-runs";
import { relatedMessage, svgOfText } from "../../support/painted-text";
import { emailImageAltText } from "../../../src/validations/email/email-image-alt-text";
import { email, evaluate, image, withDom } from "../support/email-artifacts";

const HERO = "html > body > table > tbody > tr:nth-of-type(3) > td > img";
const HERO_SRC = "https://img.northwind.example/email/spring-roast.jpg";

test('passes images that all have alt, alt="" on tracking pixels included', async () => {
  const images = [
    image(HERO, HERO_SRC, "Three bags of the spring roast"),
    image("html > body > img", "https://t.northwind.example/open.gif", "", { width: 1, height: 1 }),
  ];
  const out = await evaluate(emailImageAltText, await withDom({ images }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe('All 2 <img> elements have alt (1 with alt="", decorative).');
});

test("fails an image without an alt attribute, naming it and its source", async () => {
  const images = [image(HERO, HERO_SRC, null), image("html > body > img", "https://t.northwind.example/open.gif", "")];
  const out = await evaluate(emailImageAltText, await withDom({ images }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: `<img> without alt: ${HERO_SRC}`, selector: HERO, url: HERO_SRC, method: "dom" },
  ]);
});

test("an image with no src is named by its selector", async () => {
  const out = await evaluate(emailImageAltText, await withDom({ images: [image(HERO, "", null)] }));
  expect(out.findings).toEqual([{ message: "<img> without alt", selector: HERO, method: "dom" }]);
});

test("a plain-text message has no images to describe", async () => {
  expect((await evaluate(emailImageAltText, await email({ text: "Hello" }))).verdict).toBe("pass");
});

describe("images of text, read by OCR, in a message delivered over SMTP", () => {
  const banner = svgOfText(["Spring sale: 25% off", "all walking boots"]);
  const message = (alt: string) =>
    relatedMessage(
      "Spring sale",
      `<html><body><img id="banner" src="cid:banner@trailhead" alt="${alt}" width="640" height="170"><p>Hello</p></body></html>`,
      [{ cid: "banner@trailhead", svg: banner }],
    );

  test("an image of text (a cid: part) whose alt leaves out its words fails, by OCR; one whose alt says them passes", async () => {
    const server = await startServer();
    try {
      const key = (await server.signup()).apiKey;
      const failed = (await runEmailMessage(server, key, message(""), [emailImageAltText.meta.id])).results[0];
      expect(failed.verdict).toBe("fail");
      expect(failed.findings).toHaveLength(1);
      expect(failed.findings[0]).toMatchObject({ selector: "#banner", method: "ocr" });
      expect(failed.findings[0].text.toLowerCase()).toContain("walking boots");
      const said = (
        await runEmailMessage(server, key, message("Spring sale: 25% off all walking boots"), [
          emailImageAltText.meta.id,
        ])
      ).results[0];
      expect(said.verdict).toBe("pass");
    } finally {
      await server.stop();
    }
  });

  test("without the OCR engine (ASSAY_TESSERACT_PATH names no binary) a message that passes on its HTML is an error", async () => {
    const server = await startServer({ ASSAY_TESSERACT_PATH: "/nonexistent/tesseract" });
    try {
      const key = (await server.signup()).apiKey;
      const out = (await runEmailMessage(server, key, message(""), [emailImageAltText.meta.id])).results[0];
      expect(out.verdict).toBe("error");
      expect(out.reason).toContain("the text in images could not be read: Tesseract could not be started");
    } finally {
      await server.stop();
    }
  });

  test("a remote picture is fetched through the network guard and read; a tracking pixel (declared 1×1) is never requested", async () => {
    const asked: string[] = [];
    const remote = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        asked.push(new URL(req.url).pathname);
        return new Response(banner, { headers: { "content-type": "image/svg+xml" } });
      },
    });
    const server = await startServer({ ASSAY_ALLOW_PRIVATE_TARGETS: "1" });
    try {
      const key = (await server.signup()).apiKey;
      const at = `http://127.0.0.1:${remote.port}`;
      const raw = relatedMessage(
        "Spring sale",
        `<html><body><img id="banner" src="${at}/banner.svg" alt="Sale" width="640" height="170"><img src="${at}/open.gif" width="1" height="1" alt=""><p>Hello</p></body></html>`,
        [],
      );
      const out = (await runEmailMessage(server, key, raw, [emailImageAltText.meta.id])).results[0];
      expect(out.verdict).toBe("fail");
      expect(out.findings[0]).toMatchObject({ selector: "#banner", url: `${at}/banner.svg`, method: "ocr" });
      expect(asked).toEqual(["/banner.svg"]);
    } finally {
      await server.stop();
      remote.stop(true);
    }
  });
});
