import { expect, test } from "bun:test";
import { emailGmailClipping, GMAIL_CLIP_BYTES } from "../../../src/validations/email/email-gmail-clipping";
import { email, evaluate } from "../support/email-artifacts";

/**
 * HTML that decodes to exactly n UTF-8 bytes (a multi-byte character counts by its bytes): postal-mime ends a
 * decoded part with the line break before the next boundary, one byte.
 */
const html = (n: number) => {
  const frame = "<html><body><p>☕</p></body></html>";
  return frame.replace("☕", `☕${"x".repeat(n - 1 - Buffer.byteLength(frame))}`);
};

test("passes an HTML part of exactly 102 KiB in UTF-8 bytes", async () => {
  const out = await evaluate(emailGmailClipping, await email({ html: html(GMAIL_CLIP_BYTES), text: "Hello" }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("104,448 bytes");
});

test("fails one byte over, reporting the size and the limit", async () => {
  const out = await evaluate(emailGmailClipping, await email({ html: html(GMAIL_CLIP_BYTES + 1), text: "Hello" }));
  expect(out.verdict).toBe("fail");
  expect(out.findings).toEqual([
    { message: "HTML part is 104,449 bytes", measured: { bytes: 104_449, maxHtmlBytes: 104_448 } },
  ]);
});

test("maxHtmlBytes moves the limit", async () => {
  const out = await evaluate(emailGmailClipping, await email({ html: html(2000), text: "Hello" }), {
    maxHtmlBytes: 1000,
  });
  expect(out.verdict).toBe("fail");
  expect(out.findings[0]!.measured).toEqual({ bytes: 2000, maxHtmlBytes: 1000 });
});

test("a long plain-text-only message is not clipped (postal-mime's HTML made from it does not count)", async () => {
  const out = await evaluate(emailGmailClipping, await email({ text: "x".repeat(GMAIL_CLIP_BYTES * 2) }));
  expect(out.verdict).toBe("pass");
  expect(out.reasoning).toContain("no text/html part");
});
