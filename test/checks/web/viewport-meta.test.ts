import { expect, test } from "bun:test";
import { viewportMeta } from "../../../src/validations/web/viewport-meta";
import { evaluate, meta, withDom } from "../support/web-artifacts";

test("width=device-width passes, in any case and with spaces round the =", async () => {
  for (const content of ["width=device-width, initial-scale=1", "initial-scale=1, WIDTH = Device-Width"]) {
    const out = await evaluate(viewportMeta, withDom({ metas: [meta({ name: "viewport", content })] }));
    expect(out.verdict).toBe("pass");
  }
});

test("a misspelled name counts as missing", async () => {
  const out = await evaluate(
    viewportMeta,
    withDom({ metas: [meta({ name: "viewpoint", content: "width=device-width" })] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No viewport meta", selector: "head" }]);
});

test("a viewport meta with a fixed width fails", async () => {
  const out = await evaluate(viewportMeta, withDom({ metas: [meta({ name: "viewport", content: "width=1024" })] }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "Viewport meta without width=device-width", selector: "head" }]);
  expect(out.reasoning).toContain('"width=1024"');
});
