import { Type } from "@sinclair/typebox";
import { domainToASCII } from "node:url";
import { pass, type EmailValidation } from "../types";
import { mimeCheck } from "./_helpers";

const asciiDomain = (d: string) => domainToASCII(d.trim().replace(/\.+$/, "").toLowerCase()) || d.trim().toLowerCase();

export const emailSenderDomain: EmailValidation = {
  meta: mimeCheck({
    id: "email-sender-domain",
    name: "Sent from your domain",
    category: "deliverability",
    severity: "major",
    summary: "The From address is at the sender domain you name, or a subdomain of it.",
    judgment:
      "Fails when the From address's domain is neither senderDomain nor a subdomain of it (compared case-insensitively, " +
      "internationalized names as punycode), or when the message has no From address. The domain is never guessed: " +
      "without senderDomain the check is skipped.",
    requiresConfiguration: true,
    parameters: [
      {
        name: "senderDomain",
        description:
          "The domain your mail should come from; its subdomains (e.g. mail.example.com for example.com) count as it.",
        format: "domain name (ASCII or punycode), e.g. example.com",
        schema: Type.String({
          minLength: 3,
          maxLength: 253,
          pattern: "^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+\\.?$",
        }),
        example: "trailheadoutfitters.co.uk",
      },
    ],
    references: [
      { title: "RFC 5322 §3.6.2 Originator fields", url: "https://www.rfc-editor.org/rfc/rfc5322#section-3.6.2" },
    ],
  }),
  evaluate(email, params) {
    const want = asciiDomain(params.senderDomain as string);
    const address = email.from?.address ?? "";
    const at = address.lastIndexOf("@");
    if (at < 1) {
      return {
        verdict: "fail",
        reason: `Send the message from an address at ${want}: it has no usable From address${address ? ` (${JSON.stringify(address)})` : ""}`,
        reasoning: "The From header holds no address with a domain.",
        findings: [{ message: "No From address", measured: { senderDomain: want } }],
      };
    }
    const domain = asciiDomain(address.slice(at + 1));
    const measured = { fromAddress: address, fromDomain: domain, senderDomain: want };
    if (domain === want || domain.endsWith(`.${want}`)) {
      return pass(
        `The From address ${address} is at ${domain}, ${domain === want ? "the sender domain" : `a subdomain of ${want}`}.`,
        [{ message: `From domain ${domain}`, text: address, measured }],
      );
    }
    return {
      verdict: "fail",
      reason: `Send from an address at ${want} (or a subdomain of it): the From address ${address} is at ${domain}`,
      reasoning: `The From domain ${domain} is neither ${want} nor a subdomain of it.`,
      findings: [{ message: `From domain ${domain} is not ${want}`, text: address, measured }],
    };
  },
};
