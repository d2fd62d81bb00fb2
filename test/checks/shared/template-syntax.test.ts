import { expect, test } from "bun:test";
import { findTemplateSyntax } from "../../../src/validations/shared/template-syntax";

/** The one detector behind email-no-merge-tags and no-unrendered-placeholders. */

test('a field in angle brackets, visible as text, is unrendered template syntax (sendwithus Mantra\'s "Hi <First Name>")', () => {
  const fields = [
    "<First Name>",
    "<FirstName>",
    "<FIRSTNAME>",
    "<FIRST_NAME>",
    "<FIRST NAME>",
    "<first_name>",
    "<firstName>",
    "<Company_Name>",
  ];
  for (const field of fields) {
    expect({ field, found: findTemplateSyntax(`Hi ${field}, your coupon is inside`) }).toEqual({
      field,
      found: { label: "<Field> placeholder", match: field, index: 3 },
    });
  }
});

test("ordinary prose with angle brackets is not template syntax", () => {
  const prose = [
    "Ship it if a < b and c > d.",
    "We <3 single-origin beans",
    "Roast -> grind -> brew",
    "Questions? Write to Northwind <info@example.com>.",
    "Unsubscribe: <https://northwind.example/u/abc123>",
    "List-Unsubscribe: <mailto:unsubscribe@northwind.example?subject=stop>",
    "Press <Enter> or <ENTER>, then <Page Down>.",
    "Open the report <PDF>",
    "The <br> and <table> tags are shown as text here.",
    "Orders <100 ship in 2 days, >100 in 5",
    "Q1 <2024>",
  ];
  for (const p of prose) expect({ p, found: findTemplateSyntax(p) }).toEqual({ p, found: null });
});

test("the first syntax in the text is reported, whichever shape it has", () => {
  expect(findTemplateSyntax("Dear <First Name>, your {{ order.total }} is due")).toMatchObject({
    match: "<First Name>",
  });
  expect(findTemplateSyntax("Dear {{ name }}, <First Name>")).toMatchObject({
    match: "{{ name }}",
    label: "{{ }} template variable",
  });
  expect(findTemplateSyntax("Write to [POSTAL_ADDRESS] or <first_name>")).toMatchObject({
    match: "[POSTAL_ADDRESS]",
    label: "[FIELD] placeholder",
  });
});
