import { expect, test } from "bun:test";
import { emailSecureLinks } from "../../../src/validations/email/email-secure-links";
import { email, evaluate, link, withDom } from "../support/email-artifacts";

const INSTAGRAM = "html > body > p:nth-of-type(1) > a";

test("passes https links, mailto: and tel: in both parts", async () => {
  const links = [
    link("html > body > a", "https://www.northwind.example/", "Shop"),
    link("html > body > p > a", "mailto:hello@northwind.example", "Write to us"),
    link("html > body > p > a:nth-of-type(2)", "tel:+441179000000", "Call"),
  ];
  const out = await evaluate(
    emailSecureLinks,
    await withDom({ links }, { text: "Shop: https://www.northwind.example/" }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("All 4 links");
});

test("fails an http:// link in the HTML part, naming the element and the URL", async () => {
  const links = [
    link("html > body > a", "https://www.northwind.example/", "Shop"),
    link(INSTAGRAM, "http://www.instagram.com/northwindcoffee", "Instagram"),
  ];
  const out = await evaluate(emailSecureLinks, await withDom({ links }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: 'HTML link "Instagram" uses http://',
      selector: INSTAGRAM,
      url: "http://www.instagram.com/northwindcoffee",
    },
  ]);
});

test("fails an http:// URL in the text/plain part, trailing punctuation trimmed", async () => {
  const out = await evaluate(
    emailSecureLinks,
    await email({ text: "Follow us: http://www.instagram.com/northwindcoffee. Shop: https://www.northwind.example/" }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "text/plain URL uses http://", url: "http://www.instagram.com/northwindcoffee" },
  ]);
});
