import { expect, test } from "bun:test";
import { emailPlainTextPart } from "../../../src/validations/email/email-plain-text-part";
import { email, evaluate, heading, htmlDom, link, withDom } from "../support/email-artifacts";

const CTA = link(
  "html > body > table > tbody > tr > td > a",
  "https://www.northwind.example/shop/spring-roast?utm_source=newsletter",
  "Shop the spring roast",
  { button: true },
);
const UNSUBSCRIBE = link(
  "html > body > p > a:nth-of-type(1)",
  "https://www.northwind.example/email/unsubscribe?u=7f3a91c2",
  "Unsubscribe",
);
const VIEW_ONLINE = link(
  "html > body > p:nth-of-type(1) > a",
  "https://www.northwind.example/email/view",
  "View in browser",
  { button: true },
);
const HEADLINE = heading("html > body > h1", "Our spring roast is here");
const dom = { headings: [HEADLINE], links: [VIEW_ONLINE, CTA, UNSUBSCRIBE] };

test("passes plain text carrying the headline (4 of its 5 words), the call to action's URL (other tracking) and an unsubscribe line", async () => {
  const text = [
    "Our spring roast is out!",
    "Shop the spring roast: https://www.northwind.example/shop/spring-roast?utm_source=plain",
    "Unsubscribe: https://www.northwind.example/u/other",
  ].join("\n");
  const out = await evaluate(emailPlainTextPart, await withDom(dom, { text }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain(
    'headline "Our spring roast is here", call to action "Shop the spring roast", unsubscribe link',
  );
});

test("fails plain text that lacks the headline, the call to action's URL and the unsubscribe URL, naming each element", async () => {
  const out = await evaluate(
    emailPlainTextPart,
    await withDom(dom, { text: "Hello from Northwind.\nVisit https://www.northwind.example/" }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => [f.selector, f.url])).toEqual([
    [HEADLINE.selector, undefined],
    [CTA.selector, CTA.href],
    [UNSUBSCRIBE.selector, UNSUBSCRIBE.href],
  ]);
});

test("a headline with under two thirds of its words in the plain text is missing", async () => {
  const out = await evaluate(
    emailPlainTextPart,
    await withDom({ headings: [HEADLINE] }, { text: "The spring roast: here now" }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: 'The headline "Our spring roast is here" is not in the plain text',
      selector: HEADLINE.selector,
      text: HEADLINE.text,
    },
  ]);
});

test("the view-in-browser button is not the call to action", async () => {
  const out = await evaluate(emailPlainTextPart, await withDom({ links: [VIEW_ONLINE] }, { text: "Hello" }));
  expect(out.verdict).toBe("pass");
});

test("fails a message with no text/plain part; a text/plain attachment does not count", async () => {
  const html = "<html><body><p>Hello</p></body></html>";
  const out = await evaluate(
    emailPlainTextPart,
    await email(
      { html, attachments: [{ filename: "notes.txt", mimeType: "text/plain", content: "Hello" }] },
      { htmlDom: htmlDom() },
    ),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No text/plain part", measured: { parts: ["text/plain"] } }]);
  expect(out.reason).toContain("the text/plain attachment does not count");
});

test("fails an empty text/plain part", async () => {
  const out = await evaluate(emailPlainTextPart, await withDom(dom, { text: "  \n" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "Empty text/plain part" }]);
});

test("a plain-text-only message passes: the plain text is the message", async () => {
  expect((await evaluate(emailPlainTextPart, await email({ text: "Hello" }))).verdict).toBe("pass");
});
