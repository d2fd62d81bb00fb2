import { expect, test } from "bun:test";
import { metaDescription } from "../../../src/validations/web/meta-description";
import { evaluate, meta, withDom } from "../support/web-artifacts";

test("a filled description passes, its name matched in any case and trimmed", async () => {
  const out = await evaluate(
    metaDescription,
    withDom({ metas: [meta({ name: " Description ", content: "Kettles that last." })] }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('"Kettles that last."');
});

test("an empty description next to a filled one passes", async () => {
  const out = await evaluate(
    metaDescription,
    withDom({
      metas: [meta({ name: "description", content: "" }), meta({ name: "description", content: "Kettles." })],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("no description fails", async () => {
  const out = await evaluate(
    metaDescription,
    withDom({ metas: [meta({ property: "og:description", content: "Not the meta description" })] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No meta description", selector: "head" }]);
});

test("a description of white space only fails as empty", async () => {
  const out = await evaluate(metaDescription, withDom({ metas: [meta({ name: "description", content: " " })] }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "Empty meta description", selector: "head" }]);
});
