import { expect, test } from "bun:test";
import { noUnrenderedPlaceholders } from "../../../src/validations/web/no-unrendered-placeholders";
import { evaluate, selectors, text, withDom } from "../support/web-artifacts";

test("template syntax inside code passes, and so do prices, braces and brackets in prose", async () => {
  const out = await evaluate(
    noUnrenderedPlaceholders,
    withDom({ visibleText: [text("#code", "Hello {{ first_name }}", { inCode: true }), text("#p", "Costs $5 {each} [see note 2]; TODO list app.")] }),
  );
  expect(out.verdict).toBe("pass");
});

test("each kind of placeholder fails, one finding per element", async () => {
  const samples = ["Hello {{ first_name }}", "{% if user %}", "Total ${price}", "Dear %%NAME%%", "Hi *|FNAME|*", "Welcome to [COMPANY NAME].", "TODO: write this", "Launch date TBD"];
  const out = await evaluate(noUnrenderedPlaceholders, withDom({ visibleText: samples.map((s, i) => text(`#t${i}`, s)) }));
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(samples.map((_, i) => `#t${i}`));
  expect(out.findings[0]!.message).toBe('{{ }} template variable "{{ first_name }}" in #t0');
  expect(out.findings[5]!.message).toBe('[INSERT …] authoring placeholder "[COMPANY NAME]" in #t5');
});
