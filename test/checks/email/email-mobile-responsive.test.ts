import { expect, test } from "bun:test";
import { emailMobileResponsive } from "../../../src/validations/email/email-mobile-responsive";
import { evaluate, render, withRenders } from "../support/email-artifacts";

const ID = emailMobileResponsive.meta.id;

test("passes a message exactly as wide as the phone", async () => {
  const out = await evaluate(
    emailMobileResponsive,
    await withRenders(ID, [render("mobile-sm", "apple-mail-ios", { layout: { documentWidth: 375 } })]),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe("No sideways scrolling: Apple Mail (iPhone) at mobile-sm (375px) 375px wide.");
});

test("fails a message wider than the phone, naming the outermost elements that stick out", async () => {
  const overflowing = [{ selector: "html > body > table", right: 640, width: 640 }];
  const out = await evaluate(
    emailMobileResponsive,
    await withRenders(ID, [render("mobile-sm", "apple-mail-ios", { layout: { documentWidth: 640, overflowing } })]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.message, f.selector])).toEqual([
    ["Apple Mail (iPhone): the message is 640px wide on a 375px screen", undefined],
    ["640px wide, right edge at 640px", "html > body > table"],
  ]);
  expect(out.reason).toContain("make html > body > table fit");
});

test("each client is held to its own width: 640px fits the desktop pane", async () => {
  const out = await evaluate(
    emailMobileResponsive,
    await withRenders(ID, [
      render("mobile-sm", "gmail-android", { layout: { documentWidth: 640 } }),
      render("desktop-md", "apple-mail", { layout: { documentWidth: 640 } }),
    ]),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.measured?.client)).toEqual(["gmail-android"]);
});
