import { expect, test } from "bun:test";
import { emailPreheader } from "../../../src/validations/email/email-preheader";
import { email, evaluate, withDom } from "../support/email-artifacts";

const VIEW = { text: "View in browser", selector: "html > body > table > tbody > tr:nth-of-type(1) > td > a" };

test("passes a hidden preheader before the first visible text", async () => {
  const out = await evaluate(
    emailPreheader,
    await withDom({
      preheader: {
        text: "Three single-origin beans, roasted this week.",
        selector: "html > body > div",
        hiddenBy: "display:none",
      },
    }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("html > body > div");
});

test("fails without a preheader, naming the first visible text inboxes will preview instead", async () => {
  const out = await evaluate(emailPreheader, await withDom({ preheader: null, firstVisibleText: VIEW }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "No preheader before the first visible text", selector: VIEW.selector, text: VIEW.text },
  ]);
});

test("hidden text under 10 characters is not a preheader, and the reasoning names it", async () => {
  const out = await evaluate(
    emailPreheader,
    await withDom({
      preheader: null,
      shortHiddenLead: { text: "Hi!", selector: "html > body > span" },
      firstVisibleText: VIEW,
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.reasoning).toContain('The hidden text "Hi!" at html > body > span is under 10 characters.');
});

test("a message with no visible text fails with a finding that names nothing", async () => {
  const out = await evaluate(emailPreheader, await withDom({ preheader: null, firstVisibleText: null }));
  expect(out.findings).toEqual([{ message: "No preheader before the first visible text" }]);
});

test("a plain-text message passes: inboxes preview the plain text", async () => {
  expect((await evaluate(emailPreheader, await email({ text: "Hello" }))).verdict).toBe("pass");
});
