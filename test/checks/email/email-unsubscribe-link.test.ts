import { expect, test } from "bun:test";
import { emailUnsubscribeLink } from "../../../src/validations/email/email-unsubscribe-link";
import { email, evaluate, link, withDom } from "../support/email-artifacts";

const FOOTER = "html > body > p:nth-of-type(4)";
const UNSUBSCRIBE = "https://www.northwind.example/email/unsubscribe?u=7f3a91c2";

test("passes a visible unsubscribe or manage-preferences link, in other languages and as an image's alt too", async () => {
  for (const l of [
    link(`${FOOTER} > a`, UNSUBSCRIBE, "Unsubscribe"),
    link(`${FOOTER} > a`, "https://www.northwind.example/account/email-preferences", "Manage your email preferences"),
    link(`${FOOTER} > a`, UNSUBSCRIBE, "Abmelden"),
    link(`${FOOTER} > a`, UNSUBSCRIBE, "", { imageAlt: "Unsubscribe" }),
  ]) {
    const out = await evaluate(
      emailUnsubscribeLink,
      await withDom({ links: [link("html > body > a", "https://www.northwind.example/", "Shop"), l] }),
    );
    expect(out.verdict).toBe("pass");
    expect(out.reasoning).toContain(l.selector);
  }
});

test("fails an HTML body whose links offer no way out", async () => {
  const out = await evaluate(
    emailUnsubscribeLink,
    await withDom({ links: [link(`${FOOTER} > a`, "https://www.northwind.example/contact", "Contact us")] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "No unsubscribe or manage-preferences link in the HTML body", measured: { links: 1 } },
  ]);
});

test("fails an unsubscribe link that goes nowhere or is hidden, naming it", async () => {
  const nowhere = await evaluate(
    emailUnsubscribeLink,
    await withDom({ links: [link(`${FOOTER} > a`, "#", "Unsubscribe")] }),
  );
  expect(nowhere.verdict).toBe("fail");
  expect(nowhere.findings).toEqual([
    { message: 'Unsubscribe link to "#"', selector: `${FOOTER} > a`, text: "Unsubscribe" },
  ]);
  expect(nowhere.reason).toContain('goes nowhere (href="#")');
  const hidden = await evaluate(
    emailUnsubscribeLink,
    await withDom({ links: [link(`${FOOTER} > a`, UNSUBSCRIBE, "Unsubscribe", { visible: false })] }),
  );
  expect(hidden.verdict).toBe("fail");
  expect(hidden.findings).toEqual([
    { message: `Unsubscribe link (hidden) to "${UNSUBSCRIBE}"`, selector: `${FOOTER} > a`, text: "Unsubscribe" },
  ]);
});

test("without an HTML part, the text/plain part needs an unsubscribe line with a URL", async () => {
  expect(
    (await evaluate(emailUnsubscribeLink, await email({ text: `News\n\nUnsubscribe: ${UNSUBSCRIBE}\n` }))).verdict,
  ).toBe("pass");
  const out = await evaluate(emailUnsubscribeLink, await email({ text: "News\n\nTo unsubscribe, reply STOP.\n" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No unsubscribe URL in the text/plain part" }]);
});

test("an HTML part whose structure could not be read is an error, not a verdict", async () => {
  const out = await evaluate(
    emailUnsubscribeLink,
    await email({ html: "<p>x</p>" }, { htmlDom: { error: "reading the HTML part took longer than 30 s" } }),
  );
  expect(out).toMatchObject({ verdict: "error", reason: "reading the HTML part took longer than 30 s" });
});
