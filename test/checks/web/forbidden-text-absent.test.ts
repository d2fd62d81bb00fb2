import { expect, test } from "bun:test";
import { forbiddenTextAbsent } from "../../../src/validations/web/forbidden-text-absent";
import { evaluate, text, withDom } from "../support/web-artifacts";

test("a page without the forbidden texts passes", async () => {
  const out = await evaluate(forbiddenTextAbsent, withDom({ visibleText: [text("#p", "Spring sale: 2025 prices.")] }), {
    forbiddenText: ["black friday 2024", "call for pricing"],
  });
  expect(out.verdict).toBe("pass");
});

test("a forbidden text fails, found in any case and spacing, with the element that holds it", async () => {
  const out = await evaluate(
    forbiddenTextAbsent,
    withDom({ visibleText: [text("#h", "Spring sale"), text("#deal", "Last chance: Black   Friday 2024 prices.")] }),
    { forbiddenText: "black friday 2024" },
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: 'Found "black friday 2024"', text: "black friday 2024", selector: "#deal" },
  ]);
});

test("a text split across elements is found in the page text, without a selector", async () => {
  const out = await evaluate(
    forbiddenTextAbsent,
    withDom({ visibleText: [text("#a", "Last chance: Black"), text("#b", "Friday 2024")] }),
    { forbiddenText: ["Black Friday 2024", "absent text"] },
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: 'Found "Black Friday 2024"', text: "Black Friday 2024" }]);
});
