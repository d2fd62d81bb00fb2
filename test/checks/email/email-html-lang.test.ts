import { expect, test } from "bun:test";
import { emailHtmlLang } from "../../../src/validations/email/email-html-lang";
import { email, evaluate, withDom } from "../support/email-artifacts";

test("passes <html lang>", async () => {
  const out = await evaluate(emailHtmlLang, await withDom({ lang: " en-GB " }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe('<html lang="en-GB"> declares the message language.');
});

test("fails <html> without lang, and with an empty lang, pointing at <html>", async () => {
  const none = await evaluate(emailHtmlLang, await withDom({ lang: null }));
  expect(none.verdict).toBe("fail");
  expect(none.findings).toEqual([{ message: "<html> has no lang attribute", selector: "html" }]);
  const empty = await evaluate(emailHtmlLang, await withDom({ lang: " " }));
  expect(empty.verdict).toBe("fail");
  expect(empty.findings).toEqual([{ message: "<html lang> is empty", selector: "html" }]);
});

test("a plain-text message has no markup to declare a language on", async () => {
  expect((await evaluate(emailHtmlLang, await email({ text: "Hello" }))).verdict).toBe("pass");
});

test('lang="und" (MJML\'s default) names no language: it fails with the fix', async () => {
  const out = await evaluate(emailHtmlLang, await withDom({ lang: "und" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: '<html lang="und"> names no language', selector: "html" }]);
  expect(out.reason).toContain('<mjml lang="en">');
});
