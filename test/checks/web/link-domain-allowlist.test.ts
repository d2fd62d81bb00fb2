import { expect, test } from "bun:test";
import { linkDomainAllowlist } from "../../../src/validations/web/link-domain-allowlist";
import { anchor, evaluate, withDom } from "../support/web-artifacts";

const allowedDomains = ["Partner.com."];

test("links to the page's host, an allowed domain and its subdomains pass; mailto, tel and fragments are not checked", async () => {
  const out = await evaluate(
    linkDomainAllowlist,
    withDom({
      anchors: [
        anchor("#a", "/about"),
        anchor("#b", "https://partner.com/x"),
        anchor("#c", "https://docs.partner.com/y"),
        anchor("#m", "mailto:hi@elsewhere.io"),
        anchor("#t", "tel:+441234"),
        anchor("#f", "#top"),
      ],
    }),
    { allowedDomains },
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("All 4 http(s) link(s)");
});

test("a link elsewhere fails, and a look-alike of an allowed domain is not allowed", async () => {
  const out = await evaluate(
    linkDomainAllowlist,
    withDom({
      anchors: [
        anchor("#about", "/about"),
        anchor("#deal", "https://competitor.io/deal"),
        anchor("#fake", "https://notpartner.com/"),
      ],
    }),
    { allowedDomains },
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "link to competitor.io", selector: "#deal", url: "https://competitor.io/deal" },
    { message: "link to notpartner.com", selector: "#fake", url: "https://notpartner.com/" },
  ]);
});
