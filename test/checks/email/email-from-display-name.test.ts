import { expect, test } from "bun:test";
import { emailFromDisplayName } from "../../../src/validations/email/email-from-display-name";
import { email, evaluate } from "../support/email-artifacts";

const from = (value: string | null) => email({ headers: { From: value }, text: "Hello" });

test("passes a From with a display name, quoted, bare or RFC 2047-encoded", async () => {
  for (const value of [
    '"Northwind Coffee" <news@mail.northwind.example>',
    "Northwind <news@mail.northwind.example>",
    "=?UTF-8?Q?Caf=C3=A9_Northwind?= <news@mail.northwind.example>",
  ]) {
    expect((await evaluate(emailFromDisplayName, await from(value))).verdict).toBe("pass");
  }
});

test("fails an address in angle brackets only, or with an empty quoted name, quoting the header", async () => {
  for (const value of ["<news@mail.northwind.example>", '"" <news@mail.northwind.example>']) {
    const out = await evaluate(emailFromDisplayName, await from(value));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "From header is an address with an empty display name", text: value }]);
  }
});

test("fails a bare address; a comment after it is not a display name", async () => {
  for (const value of ["news@mail.northwind.example", "news@mail.northwind.example (Northwind Coffee)"]) {
    const out = await evaluate(emailFromDisplayName, await from(value));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "From header is a bare address", text: value }]);
  }
});

test("fails a message without a From header", async () => {
  const out = await evaluate(emailFromDisplayName, await from(null));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No From header" }]);
});
