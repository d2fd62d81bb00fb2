import { expect, test } from "bun:test";
import { emailDarkModeLegible } from "../../../src/validations/email/email-dark-mode-legible";
import { evaluate, render, textBlock, withRenders } from "../support/email-artifacts";

const ID = emailDarkModeLegible.meta.id;
const dark = (textBlocks: ReturnType<typeof textBlock>[]) =>
  withRenders(ID, [render("mobile-sm", "apple-mail-ios-dark", { snapshot: { canvas: [0, 0, 0], textBlocks } })]);

test("passes text at 3:1 and over against what is behind it; tiny text under 6px is not read", async () => {
  const out = await evaluate(
    emailDarkModeLegible,
    await dark([
      textBlock("html > body > h1", "Spring sale starts today", 3, { color: [238, 238, 238], background: [0, 0, 0] }),
      textBlock("html > body > span", "·", 1.1, { fontSizePx: 5 }),
    ]),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("Apple Mail (iPhone), dark mode at mobile-sm");
});

test("fails each text under 3:1, naming its element, text and colours, worst first in the reason", async () => {
  const h1 = textBlock("html > body > h1", "Spring sale starts today", 1.32, {
    color: [34, 34, 34],
    background: [0, 0, 0],
  });
  const footer = textBlock("html > body > p:nth-of-type(2)", "Trailhead Outdoor Ltd, 1 Market Street, Kendal.", 2.82, {
    color: [85, 85, 85],
    background: [0, 0, 0],
  });
  const out = await evaluate(
    emailDarkModeLegible,
    await dark([footer, textBlock("html > body > p", "Readable", 12), h1]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.text, f.measured?.client])).toEqual([
    [footer.selector, footer.text, "apple-mail-ios-dark"],
    [h1.selector, h1.text, "apple-mail-ios-dark"],
  ]);
  expect(out.findings[1]!.message).toBe(
    'Apple Mail (iPhone), dark mode: 1.32:1 for "Spring sale starts today" (rgb 34,34,34 on rgb 0,0,0)',
  );
  expect(out.reason).toStartWith('2 text(s) unreadable in dark mode; worst 1.32:1 for "Spring sale starts today"');
});
