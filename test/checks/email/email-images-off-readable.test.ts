import { describe, expect, test } from "bun:test";
import { sharedServer } from "../../support/shared-server";
import { runEmailMessage } from "../../support/fixture-runs";
import { relatedMessage, svgOfText } from "../../support/painted-text";
import { emailImagesOffReadable } from "../../../src/validations/email/email-images-off-readable";
import { evaluate, render, renderImage, renderLink, withRenders, type RenderFields } from "../support/email-artifacts";

const ID = emailImagesOffReadable.meta.id;
const HERO = "html > body > table > tbody > tr > td > a > img";
const SALE = "https://trailhead.example/sale";
/** One Apple Mail render at desktop-md, 880×1000px. */
const desktop = (snapshot: RenderFields["snapshot"]) =>
  withRenders(ID, [
    render("desktop-md", "apple-mail", { snapshot, layout: { documentWidth: 880, documentHeight: 1000 } }),
  ]);

test("passes a message that reads in live text with its images blocked; a linked image with alt text is fine", async () => {
  const hero = renderImage(HERO, "https://cdn.trailhead.example/hero.jpg", {
    alt: "Spring sale: 25% off walking boots",
    link: SALE,
    box: { x: 0, y: 0, width: 600, height: 300 },
  });
  const out = await evaluate(emailImagesOffReadable, await desktop({ images: [hero], words: 60, altWords: 6 }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("Apple Mail (macOS) at desktop-md (880px): 60 words, 1 image(s) blocked");
});

test("a message without blocked images is not judged on its word count; a linked image whose link has text is not blank", async () => {
  expect((await evaluate(emailImagesOffReadable, await desktop({ images: [], words: 3 }))).verdict).toBe("pass");
  const logo = renderImage("html > body > a > img", "https://cdn.trailhead.example/logo.png", {
    link: "https://trailhead.example/",
    linkText: "Trailhead",
    box: { x: 0, y: 0, width: 100, height: 40 },
  });
  const out = await evaluate(
    emailImagesOffReadable,
    await desktop({
      images: [logo],
      links: [renderLink("html > body > a", "https://trailhead.example/", "Trailhead")],
      words: 40,
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("fails an all-image message: too few words, a blank linked image, images covering most of it", async () => {
  const hero = renderImage(HERO, "https://cdn.trailhead.example/sale.jpg", {
    link: SALE,
    box: { x: 0, y: 0, width: 880, height: 600 },
  });
  const out = await evaluate(emailImagesOffReadable, await desktop({ images: [hero], words: 3 }));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector, f.url])).toEqual([
    [
      "Apple Mail (macOS): with images off the message shows 3 word(s) of text (1 image(s) blocked)",
      undefined,
      undefined,
    ],
    ["Apple Mail (macOS): a linked image without alt text is a blank box with images off", HERO, SALE],
    ["Apple Mail (macOS): blocked images cover 60% of the message, which shows 3 words", undefined, undefined],
  ]);
});

test("a blank linked image fails even in a wordy message; a data: image is not blocked (one that does not decode is email-layout-not-broken's)", async () => {
  const icon = renderImage("html > body > a > img", "https://cdn.trailhead.example/icon.png", {
    link: SALE,
    box: { x: 0, y: 0, width: 40, height: 40 },
  });
  const inline = renderImage("html > body > a:nth-of-type(2) > img", "data:image/png;base64,AAAA", {
    source: "data",
    link: "https://trailhead.example/x",
  });
  const out = await evaluate(emailImagesOffReadable, await desktop({ images: [icon, inline], words: 200 }));
  expect(out.findings.map((f) => f.selector)).toEqual(["html > body > a > img"]);
});

test("among links sharing an href (#), a linked image is judged by its own link (colorlib Restobar's play button, Goldstar's hero)", async () => {
  // The play button's own link is blank; the first "#" link of the message is a text button.
  const play = renderImage("html > body > div > a > img", "https://cdn.restobar.example/play.png", {
    alt: "",
    link: "#",
    linkText: "",
    box: { x: 410, y: 1120, width: 60, height: 0 },
  });
  const button = renderLink("html > body > table > tbody > tr > td > a", "#", "Get Your Order Here!", {
    buttonStyled: true,
  });
  const out = await evaluate(emailImagesOffReadable, await desktop({ images: [play], links: [button], words: 400 }));
  expect(out.findings.map((f) => [f.message, f.selector])).toEqual([
    [
      "Apple Mail (macOS): a linked image without alt text is a blank box with images off",
      "html > body > div > a > img",
    ],
  ]);
  // The same image inside a "#" link that shows text of its own is not blank.
  const labelled = { ...play, linkText: "Watch our video" };
  expect(
    (await evaluate(emailImagesOffReadable, await desktop({ images: [labelled], links: [button], words: 400 })))
      .verdict,
  ).toBe("pass");
});

describe("text painted in blocked images, read by OCR, in a message delivered over SMTP", () => {
  const shared = sharedServer();

  const copy =
    "<p>Our spring catalogue is out, with new walking boots, trail shoes, rain shells and packs for every season. Read about them below and find your size in our stores.</p>";
  const headline = svgOfText(["Spring sale: 25% off", "all walking boots"]);
  const run = async (html: string) => {
    const done = await runEmailMessage(
      shared.server,
      shared.apiKey,
      relatedMessage("Spring sale", html, [{ cid: "headline@trailhead", svg: headline }]),
      [ID],
    );
    expect(done.status).toBe("completed");
    return done.results[0];
  };

  test("a headline painted in an image whose alt leaves it out is lost with images off; said in its alt, it is not", async () => {
    const lost = await run(
      `<html><body><img id="headline" src="cid:headline@trailhead" alt="Trailhead" width="640" height="170">${copy}</body></html>`,
    );
    expect(lost.verdict).toBe("fail");
    const finding = lost.findings.find((f: any) => f.method === "ocr");
    expect(finding).toMatchObject({ selector: "#headline", method: "ocr" });
    expect(finding.text.toLowerCase()).toContain("walking boots");
    expect(finding.message).toContain('(its alt "Trailhead" shows instead)');

    const said = await run(
      `<html><body><img src="cid:headline@trailhead" alt="Spring sale: 25% off all walking boots" width="640" height="170">${copy}</body></html>`,
    );
    expect(said.verdict).toBe("pass");
  });
});
