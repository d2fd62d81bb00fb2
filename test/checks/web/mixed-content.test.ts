import { expect, test } from "bun:test";
import type { SubresourceRef } from "../../../src/capture/artifacts";
import { mixedContent } from "../../../src/validations/web/mixed-content";
import { PAGE_URL, anchor, evaluate, resolved, withDom } from "../support/web-artifacts";

const res = (selector: string, attribute: string, raw: string): SubresourceRef => ({
  selector,
  attribute,
  raw,
  resolved: resolved(raw),
});

test("https, protocol-relative, relative and data: subresources pass; plain http links do not count", async () => {
  const out = await evaluate(
    mixedContent,
    withDom({
      subresources: [
        res("#a", "src", "https://cdn.example.com/a.jpg"),
        res("#b", "src", "//cdn.example.com/b.jpg"),
        res("#c", "href", "/style.css"),
        res("#d", "src", "data:image/gif;base64,R0lGODlhAQABAAAAACw="),
      ],
      anchors: [anchor("#out", "http://old.example.com/")],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("an http subresource fails, by selector and URL", async () => {
  const out = await evaluate(
    mixedContent,
    withDom({
      subresources: [
        res("html > body > img", "src", "http://cdn.example.com/hero.jpg"),
        res("html > body > div", "style url()", "http://cdn.example.com/bg.png"),
        res("#ok", "src", "https://cdn.example.com/ok.jpg"),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "src uses http:", selector: "html > body > img", url: "http://cdn.example.com/hero.jpg" },
    { message: "style url() uses http:", selector: "html > body > div", url: "http://cdn.example.com/bg.png" },
  ]);
});

test("a relative URL resolving to http: counts on an https page only", async () => {
  const relative = { selector: "#r", attribute: "src", raw: "img/a.jpg", resolved: "http://shop.example/img/a.jpg" };
  expect((await evaluate(mixedContent, withDom({ url: PAGE_URL, subresources: [relative] }))).verdict).toBe("fail");
  expect(
    (await evaluate(mixedContent, withDom({ url: "http://shop.example/", subresources: [relative] }))).verdict,
  ).toBe("pass");
});
