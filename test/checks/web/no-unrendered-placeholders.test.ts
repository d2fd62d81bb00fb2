import { expect, test } from "bun:test";
import { noUnrenderedPlaceholders } from "../../../src/validations/web/no-unrendered-placeholders";
import { evaluate, selectors, text, withDom } from "../support/web-artifacts";

test("template syntax inside code passes, and so do prices, braces and brackets in prose", async () => {
  const out = await evaluate(
    noUnrenderedPlaceholders,
    withDom({
      visibleText: [
        text("#code", "Hello {{ first_name }}", { inCode: true }),
        text("#p", "Costs $5 {each} [see note 2]; TODO list app."),
      ],
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("each kind of placeholder fails, one finding per element", async () => {
  const samples = [
    "Hello {{ first_name }}",
    "{% if user %}",
    "Total ${price}",
    "Dear %%NAME%%",
    "Hi *|FNAME|*",
    "Welcome to [COMPANY NAME].",
    "TODO: write this",
    "Launch date TBD",
  ];
  const out = await evaluate(
    noUnrenderedPlaceholders,
    withDom({ visibleText: samples.map((s, i) => text(`#t${i}`, s)) }),
  );
  expect(out.verdict).toBe("fail");
  expect(selectors(out)).toEqual(samples.map((_, i) => `#t${i}`));
  expect(out.findings[0]!.message).toBe('{{ }} template variable "{{ first_name }}" in #t0');
  expect(out.findings[5]!.message).toBe('[FIELD] placeholder "[COMPANY NAME]" in #t5');
});

/** Unrendered syntax by its shape, not by a list of field names (the same detector as email-no-merge-tags). */
const UNRENDERED = [
  "[[HEADLINE]]",
  "[[PERMALINK]]",
  "[HEADLINE]",
  "[POSTAL_ADDRESS]",
  "[FirstName]",
  "[[CompanyName]]",
  "[first_name]",
  "[firstName]",
  "{{ order.total }}",
  "{% for item in cart %}",
  "*|FNAME|*",
  "%%first_name%%",
  "${customer.city}",
  "<%= invoice.number %>",
  "{$smarty.now}",
  "[firstname,fallback=there]",
  "[Insert product photo caption]",
  "<First Name>",
  "<FIRSTNAME>",
  "<first_name>",
];
const PROSE = [
  "See the footnote [1].",
  "It was recieved [sic] on time.",
  "[Updated] Our hours changed.",
  "Download the report [PDF].",
  "[VIDEO] How we roast",
  "Prices from [2024].",
  "He said [the manager] would call.",
  "[ADVERTISEMENT]",
  "[SOLD OUT] Ethiopia Guji",
  "Now on [iPhone] and [eBay].",
  "Sort when a < b.",
  "We <3 coffee",
  "Roast -> grind -> brew",
  "Write to us <info@example.com>",
  "Docs: <https://example.com/docs>",
];

test("any visible unrendered template syntax fails, whatever the field is called", async () => {
  for (const tag of UNRENDERED) {
    const out = await evaluate(
      noUnrenderedPlaceholders,
      withDom({ visibleText: [text("#lead", `Read this: ${tag} today`)] }),
    );
    expect({ tag, verdict: out.verdict, match: out.findings[0]?.message.includes(JSON.stringify(tag)) }).toEqual({
      tag,
      verdict: "fail",
      match: true,
    });
  }
});

test("ordinary bracketed prose passes", async () => {
  const out = await evaluate(
    noUnrenderedPlaceholders,
    withDom({ visibleText: PROSE.map((p, i) => text(`#p${i}`, p)) }),
  );
  expect({ verdict: out.verdict, findings: out.findings }).toEqual({ verdict: "pass", findings: [] });
});
