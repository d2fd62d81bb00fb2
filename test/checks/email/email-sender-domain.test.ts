import { expect, test } from "bun:test";
import { emailSenderDomain } from "../../../src/validations/email/email-sender-domain";
import { email, evaluate } from "../support/email-artifacts";

const from = (value: string | null) => email({ headers: { From: value }, text: "Hello" });

test("passes a From at the sender domain or a subdomain of it, case and a trailing dot aside", async () => {
  for (const [value, senderDomain] of [
    ['"Northwind" <news@mail.northwind.example>', "northwind.example"],
    ["news@NorthWind.example", "northwind.example."],
  ] as const) {
    const out = await evaluate(emailSenderDomain, await from(value), { senderDomain });
    expect(out.verdict).toBe("pass");
    expect(out.findings[0]!.measured).toMatchObject({ senderDomain: "northwind.example" });
  }
});

test("compares internationalized domains as punycode", async () => {
  const out = await evaluate(emailSenderDomain, await from('"Kaffee" <news@bücher.example>'), {
    senderDomain: "xn--bcher-kva.example",
  });
  expect(out.verdict).toBe("pass");
});

test("fails a look-alike domain that only ends with the sender domain's text, naming the address", async () => {
  for (const address of ["news@northwind-mail.example", "news@evilnorthwind.example"]) {
    const out = await evaluate(emailSenderDomain, await from(`"Northwind Coffee" <${address}>`), {
      senderDomain: "northwind.example",
    });
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([
      {
        message: `From domain ${address.split("@")[1]} is not northwind.example`,
        text: address,
        measured: expect.any(Object),
      },
    ]);
  }
});

test("fails a message with no From address", async () => {
  const out = await evaluate(emailSenderDomain, await from(null), { senderDomain: "northwind.example" });
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "No From address", measured: { senderDomain: "northwind.example" } }]);
});
