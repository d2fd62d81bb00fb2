import { expect, test } from "bun:test";
import { emailFontSize } from "../../../src/validations/email/email-font-size";
import { evaluate, textRun, withDom } from "../support/email-artifacts";

const FOOTER = "html > body > p:nth-of-type(3)";

test("passes text at 13px and more; 10pt (13.33px) and float noise just under 13 are the near misses", async () => {
  const textRuns = [
    textRun("html > body > h1", "Our spring roast is here", 28),
    textRun("html > body > p:nth-of-type(1)", "Roasted on Monday.", 13.333333),
    textRun(FOOTER, "12 Harbour Street", 12.999999),
  ];
  const out = await evaluate(emailFontSize, await withDom({ textRuns }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe("All 3 visible text elements are at least 13px (smallest 13px).");
});

test("fails text under 13px, naming each element, its size and text", async () => {
  const textRuns = [
    textRun("html > body > h1", "Our spring roast is here", 28),
    textRun(FOOTER, "Northwind Coffee Ltd, 12 Harbour Street", 11),
    textRun("html > body > p:nth-of-type(4) > a", "Unsubscribe", 12.5),
  ];
  const out = await evaluate(emailFontSize, await withDom({ textRuns }));
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.text, f.measured])).toEqual([
    [FOOTER, "Northwind Coffee Ltd, 12 Harbour Street", { fontSizePx: 11, minPx: 13 }],
    ["html > body > p:nth-of-type(4) > a", "Unsubscribe", { fontSizePx: 12.5, minPx: 13 }],
  ]);
  expect(out.reason).toContain("found 11px, 12.5px");
});

test("minPx moves the floor", async () => {
  const textRuns = [textRun(FOOTER, "Small print", 13)];
  expect((await evaluate(emailFontSize, await withDom({ textRuns }), { minPx: 14 })).verdict).toBe("fail");
  expect((await evaluate(emailFontSize, await withDom({ textRuns }), { minPx: 13 })).verdict).toBe("pass");
});

test("an HTML part with no visible text passes", async () => {
  expect((await evaluate(emailFontSize, await withDom({ textRuns: [] }))).reasoning).toBe(
    "The HTML part has no visible text.",
  );
});
