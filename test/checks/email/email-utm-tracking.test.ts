import { expect, test } from "bun:test";
import { emailUtmTracking } from "../../../src/validations/email/email-utm-tracking";
import { email, evaluate, htmlDom, link, withDom } from "../support/email-artifacts";

const TAGS = "utm_source=newsletter&utm_medium=email&utm_campaign=spring-roast";
const CTA = "html > body > table > tbody > tr > td > a";

test("passes own links that carry every key; other domains, mailto: and unsubscribe, preference and web-version links are not checked", async () => {
  const links = [
    link(CTA, `https://www.northwind.example/shop/spring-roast?${TAGS}`, "Shop the spring roast"),
    link("html > body > p > a:nth-of-type(1)", "https://www.instagram.com/northwindcoffee", "Instagram"),
    link("html > body > p > a:nth-of-type(2)", "mailto:hello@northwind.example", "Write to us"),
    link(
      "html > body > p > a:nth-of-type(3)",
      "https://www.northwind.example/account/email-preferences",
      "Manage preferences",
    ),
    link("html > body > p > a:nth-of-type(4)", "https://www.northwind.example/email/view", "View in browser"),
    link("html > body > p > a:nth-of-type(5)", "https://www.northwind.example/u/7f3a91c2", "Leave"),
  ];
  const out = await evaluate(
    emailUtmTracking,
    await withDom({ links }, { headers: { "List-Unsubscribe": "<https://www.northwind.example/u/7f3a91c2/>" } }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toBe(
    "All 1 link(s) to northwind.example (from the From address) carry utm_source, utm_medium, utm_campaign.",
  );
});

test("fails an own-subdomain link without the keys, naming it and the keys it lacks", async () => {
  const links = [
    link(CTA, "https://shop.northwind.example/spring-roast?utm_source=newsletter&utm_medium=", "Shop the spring roast"),
  ];
  const out = await evaluate(emailUtmTracking, await withDom({ links }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"Shop the spring roast" lacks utm_medium, utm_campaign',
      selector: CTA,
      url: "https://shop.northwind.example/spring-roast?utm_source=newsletter&utm_medium=",
    },
  ]);
});

test("ownDomains and utmParameters replace the From domain and the default keys", async () => {
  const links = [
    link(CTA, "https://shop.northwind.example/spring-roast", "Shop"),
    link("html > body > p > a", "https://www.instagram.com/northwindcoffee", "", { imageAlt: "Instagram" }),
  ];
  const out = await evaluate(emailUtmTracking, await withDom({ links }), {
    ownDomains: ["instagram.com"],
    utmParameters: ["utm_source"],
  });
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: 'image link "Instagram" lacks utm_source',
      selector: "html > body > p > a",
      url: "https://www.instagram.com/northwindcoffee",
    },
  ]);
});

test("without a From domain and without ownDomains it is an error, not a guess", async () => {
  const out = await evaluate(
    emailUtmTracking,
    await email({ headers: { From: null }, html: "<p>x</p>" }, { htmlDom: htmlDom() }),
  );
  expect(out.verdict).toBe("error");
  expect(out.reason).toContain("give ownDomains");
});
