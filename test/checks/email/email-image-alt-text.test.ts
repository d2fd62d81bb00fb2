import { expect, test } from "bun:test";
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
  expect(out.findings).toEqual([{ message: `<img> without alt: ${HERO_SRC}`, selector: HERO, url: HERO_SRC }]);
});

test("an image with no src is named by its selector", async () => {
  const out = await evaluate(emailImageAltText, await withDom({ images: [image(HERO, "", null)] }));
  expect(out.findings).toEqual([{ message: "<img> without alt", selector: HERO }]);
});

test("a plain-text message has no images to describe", async () => {
  expect((await evaluate(emailImageAltText, await email({ text: "Hello" }))).verdict).toBe("pass");
});
