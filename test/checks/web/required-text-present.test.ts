import { expect, test } from "bun:test";
import { requiredTextPresent } from "../../../src/validations/web/required-text-present";
import { evaluate, text, withDom } from "../support/web-artifacts";

const page = withDom({
  visibleText: [text("#h", "Shop"), text("#p", "Free   RETURNS"), text("#q", "within 30 days.")],
});

test("a text found in the visible page passes, ignoring case and white space, across elements", async () => {
  const out = await evaluate(requiredTextPresent, page, { text: "free returns within 30 days" });
  expect(out.verdict).toBe("pass");
});

test("a list passes only when every text is there", async () => {
  const out = await evaluate(requiredTextPresent, page, { text: ["Shop", "Free delivery", "30 days"] });
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: 'Not found: "Free delivery"', text: "Free delivery" }]);
});

test("text only in a hidden element (absent from the visible text) fails", async () => {
  const out = await evaluate(requiredTextPresent, withDom({ visibleText: [text("#p", "Returns accepted.")] }), {
    text: "free returns within 30 days",
  });
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.text)).toEqual(["free returns within 30 days"]);
});
