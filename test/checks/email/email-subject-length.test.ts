import { expect, test } from "bun:test";
import { emailSubjectLength } from "../../../src/validations/email/email-subject-length";
import { email, evaluate } from "../support/email-artifacts";

const subject = (s: string | null) => email({ headers: { Subject: s }, text: "Hello" });

test("passes a subject within the limit, exactly 78 code points included", async () => {
  expect(
    (await evaluate(emailSubjectLength, await subject("Our spring roast is here: 20% off this week"))).verdict,
  ).toBe("pass");
  expect((await evaluate(emailSubjectLength, await subject("x".repeat(78)))).verdict).toBe("pass");
});

test("fails a subject one code point over, reporting the subject and its length", async () => {
  const out = await evaluate(emailSubjectLength, await subject("x".repeat(79)));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([{ message: "79 characters", text: "x".repeat(79), measured: { length: 79, max: 78 } }]);
});

test("counts code points of the RFC 2047-decoded subject, not bytes or encoded words", async () => {
  // 78 emoji: 312 UTF-8 bytes, far longer encoded, but 78 code points.
  const decoded = "☕".repeat(78);
  const encoded = `=?UTF-8?B?${Buffer.from(decoded).toString("base64")}?=`;
  expect((await evaluate(emailSubjectLength, await subject(encoded))).verdict).toBe("pass");
});

test("maxLength moves the limit", async () => {
  const out = await evaluate(emailSubjectLength, await subject("Our spring roast is here: 20% off this week"), {
    maxLength: 30,
  });
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]).toMatchObject({ message: "43 characters", measured: { max: 30 } });
});

test("fails a message with no subject, or a blank one", async () => {
  for (const s of [null, "   "]) {
    const out = await evaluate(emailSubjectLength, await subject(s));
    expect(out.verdict).toBe("fail");
    expect(out.findings).toEqual([{ message: "No Subject header" }]);
  }
});
