import { expect, test } from "bun:test";
import { emailListUnsubscribeHeader } from "../../../src/validations/email/email-list-unsubscribe-header";
import { email, evaluate } from "../support/email-artifacts";

const withHeader = (value: string | null) => email({ headers: { "List-Unsubscribe": value }, text: "Hello" });

test("passes a List-Unsubscribe header with a mailto: or an https: URI in angle brackets", async () => {
  for (const value of [
    "<mailto:unsubscribe@bounce.northwind.example?subject=unsubscribe>",
    "<https://www.northwind.example/email/unsubscribe?u=7f3a91c2>",
  ]) {
    const out = await evaluate(emailListUnsubscribeHeader, await withHeader(value));
    expect(out.verdict).toBe("pass");
    expect(out.reasoning).toContain(value.slice(1, -1));
  }
});

test("fails a message without the header", async () => {
  const out = await evaluate(emailListUnsubscribeHeader, await withHeader(null));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No List-Unsubscribe header" }]);
});

test("fails a header whose URI is not in angle brackets, or is of another scheme, quoting the header", async () => {
  for (const value of [
    "https://www.northwind.example/email/unsubscribe?u=7f3a91c2",
    "<ftp://northwind.example/unsubscribe>",
  ]) {
    const out = await evaluate(emailListUnsubscribeHeader, await withHeader(value));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "List-Unsubscribe has no usable URI", text: value }]);
  }
});
