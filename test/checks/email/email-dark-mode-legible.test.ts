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
    [h1.selector, h1.text, "apple-mail-ios-dark"],
    [footer.selector, footer.text, "apple-mail-ios-dark"],
  ]);
  expect(out.findings[0]!.message).toBe(
    'Apple Mail (iPhone), dark mode: 1.32:1 for "Spring sale starts today" (rgb 34,34,34 on rgb 0,0,0)',
  );
  expect(out.reason).toStartWith(
    "2 text(s) unreadable in dark mode. 2 text(s) unreadable in the message's own dark mode",
  );
  expect(out.reason).toContain('worst 1.32:1 for "Spring sale starts today"');
});

test("names the cause per text: its own dark styles in Apple Mail, forced inversion in the Gmail app, and its colour when light mode is as bad", async () => {
  const ownStyles = textBlock("html > body > h1", "Spring sale starts today", 1.32, {
    color: [34, 34, 34],
    background: [0, 0, 0],
    lightContrast: 15.9,
  });
  const greyEverywhere = textBlock("html > body > p.legal", "Unsubscribe at any time.", 1.9, {
    color: [60, 60, 60],
    background: [0, 0, 0],
    lightContrast: 2.1,
  });
  const inverted = textBlock("html > body > td.badge", "NEW", 1.5, {
    color: [120, 120, 120],
    background: [135, 135, 135],
    lightContrast: 4.6,
  });
  const out = await evaluate(
    emailDarkModeLegible,
    await withRenders(ID, [
      render("mobile-sm", "apple-mail-ios-dark", { snapshot: { textBlocks: [ownStyles, greyEverywhere] } }),
      render("mobile-sm", "gmail-android-dark", { snapshot: { textBlocks: [inverted] } }),
    ]),
  );
  expect(out.verdict).toBe("fail");
  const causes = Object.fromEntries(out.findings.map((f) => [f.selector, [f.measured?.darkMode, f.measured?.cause]]));
  expect(causes).toEqual({
    "html > body > h1": ["prefers-color-scheme", "prefers-color-scheme"],
    "html > body > p.legal": ["prefers-color-scheme", "colour"],
    "html > body > td.badge": ["forced-inversion", "forced-inversion"],
  });
  expect(out.findings.find((f) => f.selector === "html > body > td.badge")!.measured?.extent).toBe("partial");
  expect(out.reason).toStartWith(
    "3 text(s) unreadable in dark mode. 1 text(s) are as unreadable in light mode as in dark",
  );
  expect(out.reason).toContain("fix the colour itself, in both modes, not a dark-mode colour");
  expect(out.reason).toContain(
    "the message's own dark mode in Apple Mail (iPhone), dark mode, which applies its color-scheme declaration",
  );
  expect(out.reason).toContain("Gmail (Android app), dark mode's forced colour inversion");
  expect(out.reasoning).toContain("(its prefers-color-scheme styles, darkened)");
  expect(out.reasoning).toContain("(forced inversion, partial)");
});

test("near miss: dark text that is just as low in light mode asks for the colour, never a dark-mode colour", async () => {
  const out = await evaluate(
    emailDarkModeLegible,
    await dark([
      textBlock("html > body > p", "Prices include VAT.", 2.4, {
        color: [150, 150, 150],
        background: [200, 200, 200],
        lightContrast: 2.4,
      }),
    ]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.reason).toContain("as unreadable in light mode as in dark");
  expect(out.reason).not.toContain("prefers-color-scheme");
  // Readable in light mode (3:1 and over): the dark styles are what to fix.
  const lightOk = await evaluate(
    emailDarkModeLegible,
    await dark([textBlock("html > body > p", "Prices include VAT.", 2.4, { lightContrast: 3 })]),
  );
  expect(lightOk.reason).toContain("give that text a light colour in the @media (prefers-color-scheme: dark) block");
});

test("a client without a dark mode of its own shows the message as sent: the colour is what to fix", async () => {
  const out = await evaluate(
    emailDarkModeLegible,
    await withRenders(ID, [
      render("desktop-md", "gmail-web", {
        snapshot: { textBlocks: [textBlock("html > body > p", "Fine print", 2, { lightContrast: 2 })] },
      }),
    ]),
  );
  expect(out.findings[0]!.measured).toMatchObject({ darkMode: "none", cause: "colour" });
  expect(out.reasoning).toContain("Gmail (web) at desktop-md (940px) (light: the client does not darken)");
});
