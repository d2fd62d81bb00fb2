import { expect, test } from "bun:test";
import type { LinkElementInfo } from "../../../src/capture/artifacts";
import { canonicalUrl } from "../../../src/validations/web/canonical-url";
import { evaluate, resolved, withDom } from "../support/web-artifacts";

const link = (href: string, rel = "canonical", inHead = true): LinkElementInfo => ({
  rel,
  href,
  resolved: resolved(href),
  inHead,
});

test("no canonical link passes; other link elements are not canonical", async () => {
  const out = await evaluate(
    canonicalUrl,
    withDom({ linkElements: [link("/style.css", "stylesheet"), link("https://shop.example/fr", "alternate")] }),
  );
  expect(out.verdict).toBe("pass");
});

test("one absolute http(s) canonical passes, also among other rel tokens, also relative", async () => {
  for (const l of [link("https://shop.example/kettles"), link("/kettles", "alternate canonical")]) {
    const out = await evaluate(canonicalUrl, withDom({ linkElements: [l] }));
    expect(out.verdict).toBe("pass");
    expect(out.reasoning).toContain("https://shop.example/kettles");
  }
});

test("two canonical links fail, naming both", async () => {
  const out = await evaluate(
    canonicalUrl,
    withDom({ linkElements: [link("https://example.com/a"), link("https://example.com/b")] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.url)).toEqual(["https://example.com/a", "https://example.com/b"]);
});

test("an empty, non-http or fragment canonical fails", async () => {
  for (const href of ["", "ftp://shop.example/k", "https://shop.example/k#top"]) {
    const out = await evaluate(canonicalUrl, withDom({ linkElements: [link(href)] }));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "invalid canonical href", url: href, selector: 'link[rel="canonical"]' }]);
  }
});

test("a canonical link in <body> is ignored: it neither counts as a second one nor fails on its own", async () => {
  const second = await evaluate(
    canonicalUrl,
    withDom({ linkElements: [link("https://shop.example/"), link("https://shop.example/other", "canonical", false)] }),
  );
  expect(second.verdict).toBe("pass");
  expect(second.reasoning).toBe(
    "One canonical link: https://shop.example/. 1 canonical link(s) in <body> ignored, as search engines ignore them.",
  );
  const invalidInBody = await evaluate(canonicalUrl, withDom({ linkElements: [link("", "canonical", false)] }));
  expect(invalidInBody.verdict).toBe("pass");
  expect(invalidInBody.reasoning).toStartWith("No canonical link in <head>");
});
