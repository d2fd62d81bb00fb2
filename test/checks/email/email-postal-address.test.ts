import { expect, test } from "bun:test";
import { emailPostalAddress, findPostalAddress } from "../../../src/validations/email/email-postal-address";
import { email, evaluate, withDom } from "../support/email-artifacts";

test("passes a postal address in the HTML part's visible text", async () => {
  const out = await evaluate(
    emailPostalAddress,
    await withDom(
      { visibleText: "Thanks for reading.\nNorthwind Coffee Ltd, 12 Harbour Street, Bristol BS1 4DB, United Kingdom" },
      { text: "Hello" },
    ),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('UK postcode "Bristol BS1 4DB"');
});

test("passes an address only in the text/plain part, and an address block over three lines", async () => {
  const plainOnly = await evaluate(
    emailPostalAddress,
    await withDom(
      { visibleText: "Thanks" },
      { text: "Northwind Coffee, 1600 Pennsylvania Avenue, Washington, DC 20500" },
    ),
  );
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

test("a year after a month is not a postcode: a meetup listing is not an address (This Week in Rust 315's events)", async () => {
  const listing = "Dec 12. Lehi, UT, US - Utah Rust - December 2019 Regular Meetup.";
  expect(findPostalAddress(listing)).toBeNull();
  expect(findPostalAddress("Dec 11. Hamburg, DE - Rust Hack & Learn December 2019")).toBeNull();
  expect(findPostalAddress("Held on Harbour Street, December 12, 2019 Annual Meeting")).toBeNull();
  const out = await evaluate(emailPostalAddress, await withDom({ visibleText: `Upcoming events\n${listing}` }));
  expect(out.verdict).toBe("fail");
  // A 4-digit postcode that could be a year, with no month before it, is still a postcode.
  expect(findPostalAddress("Meir 1, 2000 Antwerpen")).toMatchObject({
    kind: "European postcode",
    postcode: "2000 Antwerpen",
  });
  expect(findPostalAddress("Rue de la Loi 16, 1000 Bruxelles")).toMatchObject({ postcode: "1000 Bruxelles" });
});

test("a postcode with no street line before it is not an address", async () => {
  expect(findPostalAddress("Bristol BS1 4DB")).toBeNull();
  const out = await evaluate(emailPostalAddress, await email({ text: "Visit us in Bristol BS1 4DB" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No postal address in the text/plain part" }]);
});

test("a street line and the city on one line: the city is not read as running into the street (sendwithus Cleave's footer)", async () => {
  expect(findPostalAddress("1337 Swuby Lane Victoria, BC A1B 2C3")).toEqual({
    line: "1337 Swuby Lane Victoria, BC A1B 2C3",
    postcode: "Victoria, BC A1B 2C3",
    kind: "Canadian postal code",
  });
  expect(findPostalAddress("Awesome Co 1337 Swuby Lane Victoria, BC A1B 2C3")).toMatchObject({
    postcode: "Victoria, BC A1B 2C3",
  });
  expect(findPostalAddress("12 Harbour Road Bristol BS1 4DB")).toMatchObject({
    postcode: "Bristol BS1 4DB",
    kind: "UK postcode",
  });
  const out = await evaluate(
    emailPostalAddress,
    await withDom({ visibleText: "Awesome Co\n1337 Swuby Lane Victoria, BC A1B 2C3" }),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain('Canadian postal code "Victoria, BC A1B 2C3"');
});

test("a street line alone is not an address: its house number is not a postcode, its street not a city (sendwithus Oxygen's footer)", async () => {
  expect(findPostalAddress("Awesome Inc\n1234 Awesome St\nWonderland")).toBeNull();
  expect(findPostalAddress("$15.77\nAwesome Inc\n1234 Awesome St\nWonderland")).toBeNull();
  expect(findPostalAddress("Subtotal $15.77, Awesome Inc, 1234 Awesome Street")).toBeNull();
  expect(findPostalAddress("Acme Ltd, 4 Quay Road, 1234 Harbour Lane")).toBeNull();
  const out = await evaluate(
    emailPostalAddress,
    await withDom({ visibleText: "Total: $15.77\nAwesome Inc\n1234 Awesome St\nWonderland" }),
  );
  expect(out.verdict).toBe("fail");
  // Real addresses with a European postcode before the city still pass, "St." as Saint included.
  expect(findPostalAddress("Musterstraße 12, 10115 Berlin")).toMatchObject({
    kind: "European postcode",
    postcode: "10115 Berlin",
  });
  expect(findPostalAddress("Rosenbergstrasse 2, 9000 St. Gallen")).toMatchObject({ postcode: "9000 St. Gallen" });
  expect(findPostalAddress("Ticket price €12.50, Keizersgracht 123, 1015 CV Amsterdam")).toMatchObject({
    kind: "Dutch postcode",
  });
});
