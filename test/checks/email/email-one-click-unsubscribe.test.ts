import { expect, test } from "bun:test";
import { emailOneClickUnsubscribe } from "../../../src/validations/email/email-one-click-unsubscribe";
import { email, evaluate } from "../support/email-artifacts";

const HTTPS = "https://www.northwind.example/email/unsubscribe?u=7f3a91c2";
const MAILTO = "mailto:unsubscribe@bounce.northwind.example";
const headers = (list: string | null, post: string | null) =>
  email({ headers: { "List-Unsubscribe": list, "List-Unsubscribe-Post": post }, text: "Hello" });

test("passes an https List-Unsubscribe URI with List-Unsubscribe-Post: List-Unsubscribe=One-Click", async () => {
  const out = await evaluate(
    emailOneClickUnsubscribe,
    await headers(`<${MAILTO}>, <${HTTPS}>`, "List-Unsubscribe=One-Click"),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(HTTPS);
});

test("does not apply without List-Unsubscribe, or with only a mailto: URI and no Post header", async () => {
  expect((await evaluate(emailOneClickUnsubscribe, await headers(null, null))).verdict).toBe("pass");
  expect((await evaluate(emailOneClickUnsubscribe, await headers(`<${MAILTO}>`, null))).verdict).toBe("pass");
});

test("fails an https URI without List-Unsubscribe-Post, naming the URI to POST to", async () => {
  const out = await evaluate(emailOneClickUnsubscribe, await headers(`<${HTTPS}>`, null));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "there is no List-Unsubscribe-Post header", url: HTTPS }]);
});

test("fails a List-Unsubscribe-Post that is not exactly List-Unsubscribe=One-Click, quoting it", async () => {
  const out = await evaluate(emailOneClickUnsubscribe, await headers(`<${HTTPS}>`, "List-Unsubscribe=One-click"));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: 'List-Unsubscribe-Post is "List-Unsubscribe=One-click", not exactly "List-Unsubscribe=One-Click"',
      url: HTTPS,
      text: "List-Unsubscribe=One-click",
    },
  ]);
});

test("fails List-Unsubscribe-Post without an https URI to POST to, quoting List-Unsubscribe", async () => {
  const out = await evaluate(emailOneClickUnsubscribe, await headers(`<${MAILTO}>`, "List-Unsubscribe=One-Click"));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "List-Unsubscribe-Post without an https List-Unsubscribe URI", text: `<${MAILTO}>` },
  ]);
});
