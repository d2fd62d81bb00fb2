import { Type } from "@sinclair/typebox";
import { pass, type EmailValidation } from "../types";
import { hasHtmlPart, mimeCheck } from "./_helpers";

/** Gmail clips a message whose HTML is over 102 KB (102 × 1024 bytes) behind "[Message clipped] View entire message". */
export const GMAIL_CLIP_BYTES = 102 * 1024;

export const emailGmailClipping: EmailValidation = {
  meta: mimeCheck({
    id: "email-gmail-clipping",
    name: "Not clipped by Gmail",
    category: "deliverability",
    severity: "major",
    summary:
      "The HTML part stays under Gmail's 102 KB clipping limit, so the footer and unsubscribe link are not cut off.",
    judgment:
      "Fails when the decoded text/html part (after Content-Transfer-Encoding, UTF-8 bytes) is larger than maxHtmlBytes, by default 102 KiB = 104,448 bytes; exactly the limit passes. A message without an HTML part passes.",
    parameters: [
      {
        name: "maxHtmlBytes",
        description: "Largest decoded HTML part allowed, in bytes (Gmail clips above 104448).",
        format: "whole number from 1024 to 10485760",
        schema: Type.Integer({ minimum: 1024, maximum: 10 * 1024 * 1024 }),
        default: GMAIL_CLIP_BYTES,
        example: 90000,
      },
    ],
    references: [
      {
        title: "Spam Resource: What is Gmail clipping and what to do about it",
        url: "https://www.spamresource.com/2022/01/what-is-gmail-clipping-and-what-to-do.html",
      },
    ],
  }),
  evaluate(email, params) {
    const max = (params.maxHtmlBytes as number | undefined) ?? GMAIL_CLIP_BYTES;
    if (!hasHtmlPart(email)) return pass("The message has no text/html part, so nothing can be clipped.");
    const bytes = Buffer.byteLength(email.html!, "utf8");
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    if (bytes <= max)
      return pass(
        `The decoded HTML part is ${bytes.toLocaleString("en-US")} bytes (${kb(bytes)}), within the ${max.toLocaleString("en-US")}-byte limit.`,
      );
    return {
      verdict: "fail",
      reason: `Cut the HTML part from ${kb(bytes)} to under ${kb(max)}: Gmail clips it and hides the rest, footer and unsubscribe link included (minify the HTML, drop unused CSS and comments, move long content to a web page)`,
      reasoning: `The decoded text/html part is ${bytes.toLocaleString("en-US")} bytes, over the ${max.toLocaleString("en-US")}-byte limit by ${(bytes - max).toLocaleString("en-US")}.`,
      findings: [
        { message: `HTML part is ${bytes.toLocaleString("en-US")} bytes`, measured: { bytes, maxHtmlBytes: max } },
      ],
    };
  },
};
