import { expect, test } from "bun:test";
import { htmlLang } from "../../../src/validations/web/html-lang";
import { evaluate, withDom } from "../support/web-artifacts";

test("a lang attribute passes", async () => {
  const out = await evaluate(htmlLang, withDom({ htmlLang: " en-GB " }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('lang="en-GB"');
});

test("no lang attribute fails on <html>", async () => {
  const out = await evaluate(htmlLang, withDom({ htmlLang: null }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "<html> has no lang attribute", selector: "html" }]);
});

test("a lang of white space only fails as empty", async () => {
  const out = await evaluate(htmlLang, withDom({ htmlLang: "  " }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "<html lang> is empty", selector: "html" }]);
});

test('lang="und" (undetermined, MJML\'s default) names no language: it fails with the fix', async () => {
  for (const lang of ["und", "UND", "und-Latn"]) {
    const out = await evaluate(htmlLang, withDom({ htmlLang: lang }));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: `<html lang="${lang}"> names no language`, selector: "html" }]);
    expect(out.reason).toContain('lang="en"');
  }
  expect((await evaluate(htmlLang, withDom({ htmlLang: "ur" }))).verdict).toBe("pass");
});
