import { expect, test } from "bun:test";
import { emailPostalAddress, findPostalAddress } from "../../../src/validations/email/email-postal-address";
import { email, evaluate, withDom } from "../support/email-artifacts";

test("passes a postal address in the HTML part's visible text", async () => {
  const out = await evaluate(emailPostalAddress, await withDom({ visibleText: "Thanks for reading.\nNorthwind Coffee Ltd, 12 Harbour Street, Bristol BS1 4DB, United Kingdom" }, { text: "Hello" }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('UK postcode "Bristol BS1 4DB"');
});

test("passes an address only in the text/plain part, and an address block over three lines", async () => {
  const plainOnly = await evaluate(emailPostalAddress, await withDom({ visibleText: "Thanks" }, { text: "Northwind Coffee, 1600 Pennsylvania Avenue, Washington, DC 20500" }));
  expect(plainOnly.verdict).toBe("pass");
  expect(plainOnly.reasoning).toContain("text/plain part");
  expect(findPostalAddress("17 Market Place\nHexham\nNE46 1XD")).toMatchObject({ kind: "UK postcode" });
});

test("a copyright year is not a postcode, even after a street line (the fixture's near miss)", async () => {
  const footer = "Roasted at our Harbour Street roastery.\n© 2025 Northwind Coffee Ltd";
  const out = await evaluate(emailPostalAddress, await withDom({ visibleText: footer }, { text: footer }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No postal address in the HTML part and text/plain part" }]);
});

test("a postcode with no street line before it is not an address", async () => {
  expect(findPostalAddress("Bristol BS1 4DB")).toBeNull();
  const out = await evaluate(emailPostalAddress, await email({ text: "Visit us in Bristol BS1 4DB" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No postal address in the text/plain part" }]);
});
