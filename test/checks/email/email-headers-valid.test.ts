import { expect, test } from "bun:test";
import { emailHeadersValid } from "../../../src/validations/email/email-headers-valid";
import { email, evaluate } from "../support/email-artifacts";

const headers = (h: Record<string, string | string[] | null>) => email({ headers: h, text: "Hello" });

test("passes Date, Message-ID and MIME-Version once each and well-formed (obsolete zone, comments and a [literal] id allowed)", async () => {
  expect((await evaluate(emailHeadersValid, await headers({}))).verdict).toBe("pass");
  const out = await evaluate(
    emailHeadersValid,
    await headers({
      Date: "4 Mar 2025 07:42 GMT (morning)",
      "Message-ID": "<a.b@[192.0.2.1]>",
      "MIME-Version": "1.0 (produced by Northwind)",
    }),
  );
  expect(out.verdict).toBe("pass");
});

test("fails the fixture's defects: an ISO date and a Message-ID without angle brackets, quoting each", async () => {
  const out = await evaluate(
    emailHeadersValid,
    await headers({ Date: "2025-03-04 07:42:00", "Message-ID": "spring-roast.4e9db08c68" }),
  );
  expect(out.verdict).toBe("fail");
  expect(out.findings.map((f) => f.text)).toEqual(["2025-03-04 07:42:00", "spring-roast.4e9db08c68"]);
  expect(out.findings[0]!.message).toContain("is not an RFC 5322 date-time");
  expect(out.findings[1]!.message).toBe('Message-ID "spring-roast.4e9db08c68" is not <id-left@id-right>');
});

test("fails a day name that does not match the date, a day the month lacks, and an hour past 23", async () => {
  const wrongDay = await evaluate(emailHeadersValid, await headers({ Date: "Mon, 04 Mar 2025 07:42:00 +0000" }));
  expect(wrongDay.findings.map((f) => f.message)).toEqual(["Date: 4 Mar 2025 is a Tue, not a Mon"]);
  const noDay = await evaluate(emailHeadersValid, await headers({ Date: "30 Feb 2025 07:42:00 +0000" }));
  expect(noDay.findings.map((f) => f.message)).toEqual(["Date: Feb 2025 has no day 30"]);
  const hour = await evaluate(emailHeadersValid, await headers({ Date: "04 Mar 2025 24:00:00 +0000" }));
  expect(hour.findings.map((f) => f.message)).toEqual(["Date: 24:00:00 is not a time of day"]);
});

test("fails missing headers, a header sent twice, and a MIME-Version other than 1.0", async () => {
  const missing = await evaluate(emailHeadersValid, await headers({ Date: null, "Message-ID": null }));
  expect(missing.verdict).toBe("fail");
  expect(missing.findings).toEqual([{ message: "No Date header" }, { message: "No Message-ID header" }]);
  const twice = await evaluate(
    emailHeadersValid,
    await headers({ "Message-ID": ["<a@northwind.example>", "<b@northwind.example>"], "MIME-Version": "1.1" }),
  );
  expect(twice.findings).toEqual([
    { message: "Message-ID appears 2 times", text: "<a@northwind.example> | <b@northwind.example>" },
    { message: 'MIME-Version is "1.1", not 1.0', text: "1.1" },
  ]);
});
