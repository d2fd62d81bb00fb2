import { expect, test } from "bun:test";
import { singleH1 } from "../../../src/validations/web/single-h1";
import { evaluate, heading, selectors, withDom } from "../support/web-artifacts";

test("one h1 among other headings passes", async () => {
  const out = await evaluate(
    singleH1,
    withDom({ headings: [heading("#top", 1, "Kettles"), heading("#a", 2, "Steel"), heading("#b", 2, "Glass")] }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('"Kettles"');
});

test("no h1 fails on <body>", async () => {
  const out = await evaluate(singleH1, withDom({ headings: [heading("#a", 2, "Steel")] }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No h1 element", selector: "body" }]);
});

test("two h1s fail, naming both", async () => {
  const out = await evaluate(
    singleH1,
    withDom({
      headings: [heading("#top", 1, "One"), heading("#a", 2, "Steel"), heading("html > body > div", 1, "Another")],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(["#top", "html > body > div"]);
  expect(out.findings.map((f) => f.message)).toEqual(['h1 "One"', 'h1 "Another"']);
});
