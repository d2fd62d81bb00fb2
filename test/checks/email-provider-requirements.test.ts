import { afterAll, beforeAll, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/harness";

/**
 * email-provider-requirements over real SMTP, offline: DKIM-signed messages delivered to the inbox, judged with
 * the DNS of a fixture file (ASSAY_DNS_FIXTURES). One sender meets every provider's rules; near misses miss one.
 */

const SELECTOR = "mk2025";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const PUBLIC_B64 = publicKey.export({ type: "spki", format: "der" }).toString("base64");

const FIXTURES = {
  // ridgeline.example: SPF lists 127.0.0.1, its DKIM key is published, DMARC monitors only (p=none).
  "ridgeline.example": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
  [`${SELECTOR}._domainkey.ridgeline.example`]: { TXT: [`v=DKIM1; k=rsa; p=${PUBLIC_B64}`] },
  "_dmarc.ridgeline.example": { TXT: ["v=DMARC1; p=none; rua=mailto:dmarc@ridgeline.example"] },
  // elsewhere.example signs and publishes DMARC, but its SPF record does not list the sending server.
  "elsewhere.example": { TXT: ["v=spf1 ip4:192.0.2.44 -all"] },
  [`${SELECTOR}._domainkey.elsewhere.example`]: { TXT: [`v=DKIM1; k=rsa; p=${PUBLIC_B64}`] },
  "_dmarc.elsewhere.example": { TXT: ["v=DMARC1; p=quarantine"] },
};

const ONE_CLICK = {
  "List-Unsubscribe": "<https://ridgeline.example/u/7c1e9a>, <mailto:unsubscribe@ridgeline.example>",
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
};

let dir: string;
let server: TestServer;
let apiKey: string;

async function signed(domain: string, headers: Record<string, string>): Promise<Buffer> {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    dkim: { domainName: domain, keySelector: SELECTOR, privateKey: PRIVATE_PEM },
  });
  const info = await composer.sendMail({
    from: `"Ridgeline Outfitters" <news@${domain}>`,
    to: "qa@ridgeline.example",
    subject: "New trail maps for autumn",
    text: "Our autumn trail maps are out.",
    html: "<p>Our autumn trail maps are out.</p>",
    headers,
  });
  return info.message as Buffer;
}

/** Delivers the message to a fresh job's address and returns the settled result of the check. */
async function judge(raw: Buffer, mailFrom: string, entry: unknown = "email-provider-requirements") {
  const created = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validations: [entry] },
  });
  expect(created.status).toBe(200);
  await nodemailer
    .createTransport({
      host: "127.0.0.1",
      port: server.smtpPort,
      secure: false,
      ignoreTLS: true,
      name: "mta.ridgeline.example",
    })
    .sendMail({ envelope: { from: mailFrom, to: [created.body.testEmail] }, raw });
  for (let i = 0; i < 400; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${created.body.jobId}&detail=verbose`, { key: apiKey });
    const job = res.body.jobs[0];
    if (job.status !== "pending") return job.results[0];
    await Bun.sleep(50);
  }
  throw new Error("job still pending");
}

const verdicts = (result: any) =>
  Object.fromEntries(result.findings.map((f: any) => [f.measured.provider, f.measured.verdict]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assay-providers-"));
  writeFileSync(join(dir, "dns.json"), JSON.stringify(FIXTURES));
  server = await startServer({ ASSAY_DNS_FIXTURES: join(dir, "dns.json") });
  apiKey = (await server.signup()).apiKey;
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("signed, SPF passing, DMARC p=none and one-click unsubscribe: Gmail, Yahoo and Outlook.com all pass", async () => {
  const result = await judge(await signed("ridgeline.example", ONE_CLICK), "news@ridgeline.example");
  expect(result.verdict).toBe("pass");
  expect(verdicts(result)).toEqual({ gmail: "pass", yahoo: "pass", outlook: "pass" });
  const gmail = result.findings[0].measured.requirements;
  expect(gmail.find((r: any) => r.requirement === "dmarc-published")).toMatchObject({
    met: true,
    detail: "_dmarc.ridgeline.example: p=none",
  });
  expect(gmail.find((r: any) => r.requirement === "spam-rate")).toMatchObject({ met: null });
});

test("near miss: the same message without List-Unsubscribe-Post fails Gmail and Yahoo only", async () => {
  const result = await judge(
    await signed("ridgeline.example", { "List-Unsubscribe": ONE_CLICK["List-Unsubscribe"] }),
    "news@ridgeline.example",
  );
  expect(result.verdict).toBe("fail");
  expect(verdicts(result)).toEqual({ gmail: "fail", yahoo: "fail", outlook: "pass" });
  expect(result.reason).toContain("Gmail rejects it or sends it to spam (no List-Unsubscribe-Post");
  // A receipt is not asked for one-click unsubscribe.
  const receipt = await judge(await signed("ridgeline.example", {}), "news@ridgeline.example", {
    id: "email-provider-requirements",
    parameters: { messageType: "transactional" },
  });
  expect(verdicts(receipt)).toEqual({ gmail: "pass", yahoo: "pass", outlook: "pass" });
});

test("near miss: signed and aligned through DKIM, but sent from a server SPF does not list: Outlook.com would answer 550 5.7.515", async () => {
  const result = await judge(await signed("elsewhere.example", ONE_CLICK), "news@elsewhere.example");
  expect(result.verdict).toBe("fail");
  expect(verdicts(result)).toEqual({ gmail: "fail", yahoo: "fail", outlook: "fail" });
  const outlook = result.findings[2].measured;
  expect(outlook.requirements.map((r: any) => [r.requirement, r.met])).toEqual([
    ["spf-pass", false],
    ["dkim-pass", true],
    ["dmarc-published", true],
    ["dmarc-aligned", true],
    ["one-click-unsubscribe", true],
  ]);
  expect(result.reason).toContain('Outlook.com rejects it with "550 5.7.515');
  expect(result.reason).toContain("SPF fail for elsewhere.example from 127.0.0.1");
});
