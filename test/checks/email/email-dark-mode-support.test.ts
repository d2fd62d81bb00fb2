import { expect, test } from "bun:test";
import { emailDarkModeSupport } from "../../../src/validations/email/email-dark-mode-support";
import { evaluate, withDom } from "../support/email-artifacts";

test("passes a color-scheme meta alone, or prefers-color-scheme styles alone, citing them", async () => {
  const meta = await evaluate(
    emailDarkModeSupport,
    await withDom({
      colorSchemeMetas: [{ name: "supported-color-schemes", content: "light dark" }],
      prefersColorSchemeRules: [],
    }),
  );
  expect(meta.verdict).toBe("pass");
  expect(meta.reasoning).toContain('<meta name="supported-color-schemes" content="light dark">');
  const media = await evaluate(
    emailDarkModeSupport,
    await withDom({ colorSchemeMetas: [], prefersColorSchemeRules: ["(prefers-color-scheme: dark)"] }),
  );
  expect(media.verdict).toBe("pass");
  expect(media.reasoning).toContain("@media (prefers-color-scheme: dark)");
});

test("fails with neither, pointing at <head>", async () => {
  const out = await evaluate(
    emailDarkModeSupport,
    await withDom({ colorSchemeMetas: [], prefersColorSchemeRules: [] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "No color-scheme meta and no prefers-color-scheme styles", selector: "head" },
  ]);
});
