import { expect, test } from "bun:test";
import { structuredDataValid } from "../../../src/validations/web/structured-data-valid";
import { evaluate, withDom } from "../support/web-artifacts";

test("no structured data passes", async () => {
  expect((await evaluate(structuredDataValid, withDom({ jsonLd: [] }))).verdict).toBe("pass");
});

test("typed items with a context pass, also in an @graph and in a top-level array", async () => {
  const out = await evaluate(
    structuredDataValid,
    withDom({
      jsonLd: [
        JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name: "Mug" }),
        JSON.stringify({
          "@context": "https://schema.org",
          "@graph": [{ "@type": "Organization" }, { "@type": "WebSite" }],
        }),
        JSON.stringify([{ "@context": "https://schema.org", "@type": "BreadcrumbList" }]),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("JSON that does not parse fails, naming the block", async () => {
  const out = await evaluate(
    structuredDataValid,
    withDom({ jsonLd: ['{"@context":"https://schema.org","@type":"Product","name":"Mug",}'] }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings).toHaveLength(1);
  expect(out.findings[0]!.message).toStartWith("JSON-LD block 1 is not valid JSON");
  expect(out.findings[0]!.selector).toBe('script[type="application/ld+json"]:nth-of-type(1)');
});

test("a missing @context and an item without @type fail", async () => {
  const out = await evaluate(
    structuredDataValid,
    withDom({
      jsonLd: [
        JSON.stringify({ "@context": "https://schema.org", "@type": "Product" }),
        JSON.stringify({ "@type": "Thing" }),
        JSON.stringify({ "@context": "https://schema.org", "@graph": [{ "@type": "A" }, { name: "untyped" }] }),
      ],
    }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.message)).toEqual([
    "JSON-LD block 2: a top-level item has no @context",
    "JSON-LD block 3: $.@graph[1] has no @type",
  ]);
});
