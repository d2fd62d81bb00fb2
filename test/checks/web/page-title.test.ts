import { expect, test } from "bun:test";
import { pageTitle } from "../../../src/validations/web/page-title";
import { evaluate, withDom } from "../support/web-artifacts";

test("a title with text passes", async () => {
  const out = await evaluate(pageTitle, withDom({ title: "  Kettles | Acme  " }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('"Kettles | Acme"');
});

test("no <title> fails, pointing at <head>", async () => {
  const out = await evaluate(pageTitle, withDom({ title: null }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No <title> in <head>", selector: "head" }]);
});

test("a title of white space only fails as empty", async () => {
  const out = await evaluate(pageTitle, withDom({ title: " \n\t " }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "Empty <title>", selector: "head > title" }]);
});
