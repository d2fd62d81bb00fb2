import { expect, test } from "bun:test";
import { openGraphTags } from "../../../src/validations/web/open-graph-tags";
import { evaluate, meta, withDom } from "../support/web-artifacts";

test("og:title, og:description and og:image with content pass (a name= attribute counts too)", async () => {
  const out = await evaluate(
    openGraphTags,
    withDom({
      metas: [
        meta({ property: "og:title", content: "Kettles" }),
        meta({ name: "og:description", content: "Steel kettles." }),
        meta({ property: " OG:IMAGE ", content: "https://shop.example/k.jpg" }),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("a missing and an empty tag fail, each named", async () => {
  const out = await evaluate(
    openGraphTags,
    withDom({ metas: [meta({ property: "og:title", content: "T" }), meta({ property: "og:image", content: " " })] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "og:description is missing or empty", selector: "head" },
    { message: "og:image is missing or empty", selector: "head" },
  ]);
});
