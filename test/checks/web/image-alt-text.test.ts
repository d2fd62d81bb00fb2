import { expect, test } from "bun:test";
import { imageAltText } from "../../../src/validations/web/image-alt-text";
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
    { message: "<img> without alt", selector: "#hero", url: "https://shop.example/hero.png" },
    { message: "<input type=image> without alt", selector: "#go", url: undefined },
  ]);
});
