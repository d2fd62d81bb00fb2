import { expect, test } from "bun:test";
import { noAccidentalNoindex } from "../../../src/validations/web/no-accidental-noindex";
import { evaluate, meta, withDom } from "../support/web-artifacts";

test("index, follow passes; tokens that merely contain noindex, and other bots, do not count", async () => {
  const out = await evaluate(
    noAccidentalNoindex,
    withDom({
      metas: [
        meta({ name: "robots", content: "index, follow, noimageindex" }),
        meta({ name: "bingbot", content: "noindex" }),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("noindex in any case, comma separated, fails on the robots meta", async () => {
  const out = await evaluate(
    noAccidentalNoindex,
    withDom({ metas: [meta({ name: "robots", content: "follow,NOINDEX" })] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: '<meta name="robots" content="follow,NOINDEX">', selector: 'meta[name="robots"]' },
  ]);
});

test("googlebot none fails", async () => {
  const out = await evaluate(noAccidentalNoindex, withDom({ metas: [meta({ name: "Googlebot", content: "none" })] }));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.selector)).toEqual(['meta[name="Googlebot"]']);
});
