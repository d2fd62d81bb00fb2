import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type TestServer } from "../support/harness";
import { dnsError, fixtureResolver, validateDnsFixtures, withDeadline } from "../../src/capture/email/dns-resolver";
import { emailSenderDomain } from "../../src/validations/email/email-sender-domain";
import { emailAuthentication } from "../../src/validations/email/email-authentication";
import { authenticateWith, type EmailAuthentication } from "../../src/capture/email/authentication";
import type { EmailArtifacts } from "../../src/capture/email/email-artifacts";

/**
 * SPF, DKIM and DMARC over real SMTP, offline: the DNS the inbox asks is a fixture file (ASSAY_DNS_FIXTURES)
 * served with real DNS's answer shapes and error codes. The DKIM key is made here, so nothing is checked in.
 */

const SELECTOR = "spring2025";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const PUBLIC_B64 = publicKey.export({ type: "spki", format: "der" }).toString("base64");

const FIXTURES = {
  // trailhead.example: SPF lets 127.0.0.1 send, its DKIM key is published, DMARC rejects what does not align.
  "trailhead.example": { TXT: ["v=spf1 ip4:127.0.0.1 -all"], MX: [{ exchange: "mx.trailhead.example", priority: 10 }] },
  [`${SELECTOR}._domainkey.trailhead.example`]: { TXT: [`v=DKIM1; k=rsa; p=${PUBLIC_B64}`] },
  "_dmarc.trailhead.example": { TXT: ["v=DMARC1; p=reject; rua=mailto:dmarc@trailhead.example"] },
  // An ESP's bounce domain that lists 127.0.0.1 but is not aligned with trailhead.example.
  "bounces.esp.example": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
  // DNS for down.example does not answer at all.
  "down.example": { error: "ETIMEOUT" },
  "*.down.example": { error: "ETIMEOUT" },
};

let dir: string;
let server: TestServer;
let apiKey: string;
let signed: Buffer;

function transport(port: number) {
  return nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    name: "mta-1.trailhead.example",
  });
}

/** The message as the sender's platform produces it, DKIM-signed with the test key (nodemailer's dkim option). */
async function signedMessage(domain: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    dkim: { domainName: domain, keySelector: SELECTOR, privateKey: PRIVATE_PEM },
  });
  const info = await composer.sendMail({
    from: `"Trailhead" <offers@${domain}>`,
    to: "qa@trailhead.example",
    subject: "Spring sale: 25% off walking boots",
    text: "Our spring sale starts today: 25% off every walking boot.",
    html: "<p>Our spring sale starts today: <strong>25% off</strong> every walking boot.</p>",
    ...extra,
  });
  return info.message as Buffer;
}

/** Delivers raw bytes over SMTP as they are, with the given envelope. */
async function deliverRaw(to: string, raw: Buffer, mailFrom: string) {
  return transport(server.smtpPort).sendMail({ envelope: { from: mailFrom, to: [to] }, raw });
}

async function createJob(validations: unknown[]) {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations } });
  expect(res.status).toBe(200);
  return res.body;
}

async function awaitSettled(jobId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${jobId}&detail=verbose`, { key: apiKey });
    if (res.body.jobs[0].status !== "pending") return res.body.jobs[0];
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

const mechanisms = (result: any) =>
  Object.fromEntries(result.findings.map((f: any) => [f.measured.mechanism, f.measured]));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assay-dns-"));
  const fixtures = join(dir, "dns.json");
  writeFileSync(fixtures, JSON.stringify(FIXTURES, null, 2));
  server = await startServer({ ASSAY_DNS_FIXTURES: fixtures });
  apiKey = (await server.signup()).apiKey;
  signed = await signedMessage("trailhead.example");
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("email-authentication", () => {
  test("a DKIM-signed message from a server its SPF lists passes SPF, DKIM and DMARC, aligned", async () => {
    expect(signed.toString()).toContain(`DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=trailhead.example;`);
    const job = await createJob(["email-authentication"]);
    await deliverRaw(job.testEmail, signed, "offers@trailhead.example");
    const done = await awaitSettled(job.jobId);
    const [result] = done.results;
    expect(result.validationId).toBe("email-authentication");
    expect(result.verdict).toBe("pass");
    const m = mechanisms(result);
    expect(m.spf).toMatchObject({
      result: "pass",
      domain: "trailhead.example",
      clientIp: "127.0.0.1",
      helo: "mta-1.trailhead.example",
      aligned: true,
    });
    expect(m.dkim).toMatchObject({
      result: "pass",
      signingDomain: "trailhead.example",
      selector: SELECTOR,
      algorithm: "rsa-sha256",
      aligned: true,
    });
    expect(m.dmarc).toMatchObject({ result: "pass", policy: "reject" });
    expect(done.credits).toEqual({ charged: 1, refunded: 0, net: 1 });
  });

  test("the same signed message with its body altered fails DKIM, with the reason to fix", async () => {
    const split = signed.indexOf("\r\n\r\n");
    const body = signed
      .subarray(split)
      .toString()
      .replace(/25% off/g, "50% off");
    expect(body).toContain("50% off");
    const altered = Buffer.concat([signed.subarray(0, split), Buffer.from(body)]);
    expect(altered.subarray(0, split).equals(signed.subarray(0, split))).toBe(true);

    const job = await createJob(["email-authentication"]);
    await deliverRaw(job.testEmail, altered, "offers@trailhead.example");
    const done = await awaitSettled(job.jobId);
    const [result] = done.results;
    expect(result.verdict).toBe("fail");
    expect(result.reason).toContain("changed after it was signed");
    const m = mechanisms(result);
    // d= is still the From domain (aligned), but the signature no longer verifies.
    expect(m.dkim).toMatchObject({ result: "neutral", signingDomain: "trailhead.example", aligned: true });
    expect(result.findings.find((f: any) => f.measured.mechanism === "dkim").text).toBe("body hash did not verify");
    // SPF still passes aligned, so DMARC passes too: the fail is DKIM's alone.
    expect(m.spf).toMatchObject({ result: "pass", aligned: true });
    expect(m.dmarc).toMatchObject({ result: "pass" });
    expect(done.credits.net).toBe(1);
  });

  test("SPF that passes for an unaligned bounce domain fails alignment", async () => {
    const job = await createJob(["email-authentication"]);
    await deliverRaw(job.testEmail, signed, "bounce-123@bounces.esp.example");
    const done = await awaitSettled(job.jobId);
    const [result] = done.results;
    expect(result.verdict).toBe("fail");
    expect(mechanisms(result).spf).toMatchObject({ result: "pass", domain: "bounces.esp.example", aligned: false });
    expect(result.reason).toContain("not aligned with the From domain trailhead.example");
  });

  test("an unsigned message from a domain with no records fails every mechanism, each with its fix", async () => {
    const job = await createJob(["email-authentication"]);
    await transport(server.smtpPort).sendMail({
      from: "news@nosetup.example",
      to: job.testEmail,
      subject: "Hello",
      text: "Hello",
    });
    const done = await awaitSettled(job.jobId);
    const [result] = done.results;
    expect(result.verdict).toBe("fail");
    const m = mechanisms(result);
    expect(m.spf.result).toBe("none");
    expect(m.dkim.result).toBe("none");
    expect(m.dmarc.result).toBe("none");
    expect(result.reason).toContain("Publish an SPF record for nosetup.example");
    expect(result.reason).toContain("Sign the message with DKIM");
    expect(result.reason).toContain("Publish a DMARC record at _dmarc.nosetup.example");
  });

  test("DNS that does not answer is an error row, refunded, not a fail", async () => {
    const raw = await signedMessage("down.example");
    const job = await createJob(["email-authentication", "email-subject-length"]);
    await deliverRaw(job.testEmail, raw, "offers@down.example");
    const done = await awaitSettled(job.jobId);
    expect(done.status).toBe("completed");
    const auth = done.results.find((r: any) => r.validationId === "email-authentication");
    expect(auth.verdict).toBe("error");
    expect(auth.reason).toContain("DNS could not answer");
    expect(auth.reason).toContain("ETIMEOUT");
    const m = mechanisms(auth);
    expect([m.spf.result, m.dkim.result, m.dmarc.result]).toEqual(["temperror", "temperror", "temperror"]);
    expect(done.results.find((r: any) => r.validationId === "email-subject-length").verdict).toBe("pass");
    expect(done.credits).toEqual({ charged: 2, refunded: 1, net: 1 });
  });

  test("strict alignment (aspf=s) from the DMARC record: a MAIL FROM subdomain no longer aligns", async () => {
    const records = (dmarc: string) =>
      fixtureResolver(
        validateDnsFixtures({
          ...FIXTURES,
          "bounce.trailhead.example": { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
          "_dmarc.trailhead.example": { TXT: [dmarc] },
        }),
      );
    const envelope = {
      mailFrom: "b@bounce.trailhead.example",
      remoteAddress: "::ffff:127.0.0.1",
      helo: "mta-1.trailhead.example",
    };
    const opts = { mta: "inbox.test", deadlineMs: 5000 };
    const relaxed = (await authenticateWith(signed, envelope, {
      ...opts,
      resolver: records("v=DMARC1; p=reject"),
    })) as EmailAuthentication;
    const strict = (await authenticateWith(signed, envelope, {
      ...opts,
      resolver: records("v=DMARC1; p=reject; aspf=s"),
    })) as EmailAuthentication;
    expect(relaxed.spf).toMatchObject({
      result: "pass",
      domain: "bounce.trailhead.example",
      clientIp: "127.0.0.1",
      aligned: true,
    });
    expect(strict.spf).toMatchObject({ result: "pass", aligned: false });
    expect(strict.dkim[0]).toMatchObject({ result: "pass", aligned: true });
    const outcome = await emailAuthentication.evaluate({ authentication: strict } as EmailArtifacts, {});
    expect(outcome.verdict).toBe("fail");
    expect(outcome.reason).toContain("SPF passed for bounce.trailhead.example, which is not aligned");
  });

  test("an unreadable fixture file is an error row too, never a job stuck pending", async () => {
    const local = await startServer({ ASSAY_DNS_FIXTURES: join(dir, "missing.json") });
    try {
      const { apiKey: key } = await local.signup();
      const res = await local.api("POST", "/api/jobs", {
        key,
        body: { type: "email", validations: ["email-authentication"] },
      });
      await transport(local.smtpPort).sendMail({
        envelope: { from: "offers@trailhead.example", to: [res.body.testEmail] },
        raw: signed,
      });
      let job: any;
      for (let i = 0; i < 200 && job?.status !== "completed"; i++) {
        await Bun.sleep(50);
        job = (await local.api("GET", `/api/jobs?jobId=${res.body.jobId}`, { key })).body.jobs[0];
      }
      expect(job.results[0].verdict).toBe("error");
      expect(job.results[0].reason).toContain("missing.json");
      expect(job.credits.net).toBe(0);
    } finally {
      await local.stop();
    }
  });
});

describe("email-sender-domain", () => {
  const entry = (senderDomain: string) => ({ id: "email-sender-domain", parameters: { senderDomain } });

  test("passes for the domain and its subdomains", async () => {
    const job = await createJob([entry("trailhead.example")]);
    await transport(server.smtpPort).sendMail({
      from: '"Trailhead" <offers@mail.trailhead.example>',
      to: job.testEmail,
      subject: "Hi",
      text: "Hi",
    });
    const done = await awaitSettled(job.jobId);
    expect(done.results[0]).toMatchObject({ validationId: "email-sender-domain", verdict: "pass" });
    expect(done.results[0].findings[0].measured).toEqual({
      fromAddress: "offers@mail.trailhead.example",
      fromDomain: "mail.trailhead.example",
      senderDomain: "trailhead.example",
    });
  });

  test("fails for another domain, naming both", async () => {
    const job = await createJob([entry("trailhead.example")]);
    await transport(server.smtpPort).sendMail({
      from: "offers@eviltrailhead.example",
      to: job.testEmail,
      subject: "Hi",
      text: "Hi",
    });
    const done = await awaitSettled(job.jobId);
    expect(done.results[0].verdict).toBe("fail");
    expect(done.results[0].reason).toBe(
      "Send from an address at trailhead.example (or a subdomain of it): the From address offers@eviltrailhead.example is at eviltrailhead.example",
    );
  });

  test("is skipped, never guessed, without senderDomain", async () => {
    const job = await createJob(["email-sender-domain", "email-subject-length"]);
    expect(job.skipped_validations).toEqual([
      expect.objectContaining({ validationId: "email-sender-domain", reason: "REQUIRES_CONFIGURATION" }),
    ]);
    expect(job.credits.charged).toBe(1);
    await transport(server.smtpPort).sendMail({
      from: "offers@trailhead.example",
      to: job.testEmail,
      subject: "Hi",
      text: "Hi",
    });
    const done = await awaitSettled(job.jobId);
    expect(done.results.map((r: any) => r.validationId)).toEqual(["email-subject-length"]);
  });

  test("compares case-insensitively, ignores a trailing dot, and reads internationalized names as punycode", () => {
    const email = (address: string) => ({ from: { name: "", address } }) as unknown as EmailArtifacts;
    expect(
      emailSenderDomain.evaluate(email("a@News.Trailhead.Example"), { senderDomain: "trailhead.example." }),
    ).toMatchObject({ verdict: "pass" });
    expect(
      emailSenderDomain.evaluate(email("a@bücher.example"), { senderDomain: "xn--bcher-kva.example" }),
    ).toMatchObject({ verdict: "pass" });
    expect(
      emailSenderDomain.evaluate(email("a@trailhead.example.evil.example"), { senderDomain: "trailhead.example" }),
    ).toMatchObject({ verdict: "fail" });
    expect(
      emailSenderDomain.evaluate({ from: null } as unknown as EmailArtifacts, { senderDomain: "trailhead.example" }),
    ).toMatchObject({ verdict: "fail" });
  });
});

describe("the fixture resolver speaks DNS as node:dns does", () => {
  const resolve = fixtureResolver(
    validateDnsFixtures({
      "Example.COM.": { TXT: ["v=spf1 -all", ["part one ", "part two"]], A: ["192.0.2.1"] },
      "long.example": { TXT: ["x".repeat(600)] },
      "alias.example": { CNAME: ["example.com"] },
      "*.wild.example": { TXT: ["wild"] },
      "broken.example": { error: "ESERVFAIL" },
    }),
  );
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => "resolved",
      (e) => `${e.code} ${e.syscall} ${e.hostname}`,
    );

  test("TXT answers are arrays of character-strings, at most 255 characters each", async () => {
    expect(await resolve("example.com", "TXT")).toEqual([["v=spf1 -all"], ["part one ", "part two"]]);
    expect((await resolve("long.example", "TXT")).map((r: any) => r.map((s: string) => s.length))).toEqual([
      [255, 255, 90],
    ]);
    expect(await resolve("alias.example", "A")).toEqual(["192.0.2.1"]);
    expect(await resolve("a.b.wild.example", "TXT")).toEqual([["wild"]]);
  });

  test("NXDOMAIN is ENOTFOUND, a missing type ENODATA, a broken server its own code", async () => {
    expect(await codeOf(resolve("nope.example", "TXT"))).toBe("ENOTFOUND queryTxt nope.example");
    expect(await codeOf(resolve("wild.example", "TXT"))).toBe("ENOTFOUND queryTxt wild.example");
    expect(await codeOf(resolve("example.com", "MX"))).toBe("ENODATA queryMx example.com");
    expect(await codeOf(resolve("broken.example", "A"))).toBe("ESERVFAIL queryA broken.example");
  });

  test("a malformed fixture is refused with what is wrong", () => {
    expect(() => validateDnsFixtures({ "a.example": { TXT: [["x".repeat(256)]] } })).toThrow(/malformed record/);
    expect(() => validateDnsFixtures({ "a.example": { SRV: [] } })).toThrow(/unsupported record type SRV/);
  });

  test("the real resolver's deadline turns a hung query into ETIMEOUT", async () => {
    const hung = withDeadline(() => new Promise(() => {}), 50);
    const started = performance.now();
    expect(await codeOf(hung("slow.example", "TXT"))).toBe("ETIMEOUT queryTxt slow.example");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(dnsError("ENODATA", "AAAA", "x.example").message).toBe("queryAaaa ENODATA x.example");
  });
});
