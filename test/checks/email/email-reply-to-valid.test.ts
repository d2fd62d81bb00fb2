import { expect, test } from "bun:test";
import { emailReplyToValid } from "../../../src/validations/email/email-reply-to-valid";
import { email, evaluate } from "../support/email-artifacts";

const replyTo = (value: string | string[] | null) => email({ headers: { "Reply-To": value }, text: "Hello" });

test("passes without Reply-To, and with valid mailboxes (a group and a quoted comma included)", async () => {
  expect((await evaluate(emailReplyToValid, await replyTo(null))).verdict).toBe("pass");
  const out = await evaluate(
    emailReplyToValid,
    await replyTo('"Support, Northwind" <support@northwind.example>, Team: a@northwind.example, b@northwind.example;'),
  );
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("3 valid address(es)");
});

test("fails each invalid address, naming it and why", async () => {
  const out = await evaluate(
    emailReplyToValid,
    await replyTo("Northwind Support <support@northwind>, help(at)northwind.example, care@northwind..example"),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.text)).toEqual([
    "Northwind Support <support@northwind>",
    "help(at)northwind.example",
    "care@northwind..example",
  ]);
  expect(out.findings[0]!.message).toContain('the domain "northwind" is not fully qualified');
  expect(out.findings[1]!.message).toContain("it has no @");
  expect(out.findings[2]!.message).toContain("has an empty label");
});

test("fails unbalanced angle brackets", async () => {
  const out = await evaluate(emailReplyToValid, await replyTo("Support <support@northwind.example"));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    {
      message: '"Support <support@northwind.example": unbalanced or repeated angle brackets',
      text: "Support <support@northwind.example",
    },
  ]);
});

test("fails an empty Reply-To, and a Reply-To sent twice", async () => {
  const empty = await evaluate(emailReplyToValid, await replyTo(" "));
  expect(empty.verdict).toBe("fail");
  expect(empty.findings.map((f) => f.message)).toEqual(["Reply-To is empty"]);
  const twice = await evaluate(
    emailReplyToValid,
    await replyTo(["support@northwind.example", "help@northwind.example"]),
  );
  expect(twice.verdict).toBe("fail");
  expect(twice.findings).toEqual([
    {
      message: "Reply-To appears 2 times (RFC 5322 allows one)",
      text: "support@northwind.example | help@northwind.example",
    },
  ]);
});
