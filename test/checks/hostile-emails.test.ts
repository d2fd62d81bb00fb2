import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { startServer, type TestServer } from "../support/harness";

/**
 * Messages built to break a MIME parser, each delivered over real SMTP to a real email job: every job completes with
 * verdicts, or with error rows (refunded) whose reason a sender understands; the server does not crash, and the next
 * email job on the same server gets its verdicts.
 */
const CHECKS = [
  "email-subject-length",
  "email-headers-valid",
  "email-from-display-name",
  "email-html-lang",
  "email-plain-text-part",
];
/** Small enough that a megabyte of headers fits and three do not. */
const SMTP_MAX_BYTES = 2_000_000;

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer({ ASSAY_SMTP_MAX_BYTES: String(SMTP_MAX_BYTES) });
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

const transport = () =>
  nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true });

type Row = { validationId: string; verdict: string; reason?: string };
interface EmailJob {
  jobId: string;
  testEmail: string;
  status: string;
  results: Row[];
  credits: { charged: number; refunded: number; net: number };
}

async function createJob(): Promise<EmailJob> {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: CHECKS } });
  expect(res.status).toBe(200);
  return res.body;
}

async function settled(jobId: string): Promise<EmailJob> {
  for (let i = 0; i < 1200; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: apiKey });
    if (res.body.jobs[0].status !== "pending") return res.body.jobs[0];
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

/** The headers every message here starts with; `head` adds to them (a Content-Type among them). */
const headers = (to: string, head: string) =>
  [
    `From: "Trailhead Outfitters" <news@trailhead.example>`,
    `To: ${to}`,
    "Subject: Spring sale on walking boots",
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "Message-ID: <hostile@trailhead.example>",
    "MIME-Version: 1.0",
    head,
  ].join("\r\n");

/** Delivers a hostile message to a fresh job over SMTP and waits for the job to finish. */
async function deliver(build: (to: string) => string): Promise<EmailJob> {
  const job = await createJob();
  await transport().sendMail({
    envelope: { from: "news@trailhead.example", to: [job.testEmail] },
    raw: build(job.testEmail),
  });
  const done = await settled(job.jobId);
  expect(done.status).toBe("completed");
  return done;
}

const verdicts = (job: EmailJob) => Object.fromEntries(job.results.map((r) => [r.validationId, r.verdict]));

/** Every row is a verdict or an error whose reason is a sentence about the message; errors are refunded. */
function expectClearResults(job: EmailJob) {
  for (const r of job.results) {
    expect(["pass", "fail", "error"]).toContain(r.verdict);
    if (r.verdict === "error") expect(r.reason).toMatch(/message|part|HTML|header/i);
  }
  const errored = job.results.filter((r) => r.verdict === "error").length;
  expect(job.credits.refunded > 0).toBe(errored > 0);
}

/** A well-formed message to a new job, after a hostile one: every verdict as for any good message. */
async function expectNextJobUnaffected() {
  const job = await createJob();
  await transport().sendMail({
    from: '"Trailhead Outfitters" <news@trailhead.example>',
    to: job.testEmail,
    subject: "Spring sale on walking boots",
    text: "Walking boots, 25% off this week.",
    html: '<!doctype html><html lang="en"><body><p>Walking boots, 25% off this week.</p></body></html>',
  });
  expect(verdicts(await settled(job.jobId))).toEqual(Object.fromEntries(CHECKS.map((id) => [id, "pass"])));
}

const HTML = '<!doctype html><html lang="en"><body><p>Walking boots, 25% off.</p></body></html>';

describe("malformed MIME", () => {
  test("a multipart message without a boundary parameter", async () => {
    const job = await deliver(
      (to) =>
        `${headers(to, "Content-Type: multipart/alternative")}\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n--x--\r\n`,
    );
    expectClearResults(job);
    await expectNextJobUnaffected();
  });

  test("a multipart message whose closing boundary never comes", async () => {
    const job = await deliver(
      (to) =>
        `${headers(to, 'Content-Type: multipart/alternative; boundary="b1"')}\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nWalking boots, 25% off.\r\n--b1\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n`,
    );
    expectClearResults(job);
    expect(verdicts(job)).toMatchObject({ "email-html-lang": "pass", "email-plain-text-part": "pass" });
    await expectNextJobUnaffected();
  });

  test("bad header lines: no colon, a continuation first, control bytes, 8-bit bytes, an empty name", async () => {
    const job = await deliver(
      (to) =>
        ` folded before any header\r\n${headers(to, "Content-Type: text/html; charset=utf-8")}\r\nThis line has no colon\r\nX-Control: a\u0001b\u0007c\r\nX-Latin1: caf\u00e9 cr\u00e8me\r\n: empty name\r\n\r\n${HTML}\r\n`,
    );
    expectClearResults(job);
    await expectNextJobUnaffected();
  });
});

describe("size and shape", () => {
  test("5,000 parts", async () => {
    const parts = Array.from(
      { length: 5_000 },
      (_, i) => `--many\r\nContent-Type: text/plain\r\n\r\nPart ${i}\r\n`,
    ).join("");
    const job = await deliver(
      (to) =>
        `${headers(to, 'Content-Type: multipart/mixed; boundary="many"')}\r\n\r\n${parts}--many\r\nContent-Type: text/html\r\n\r\n${HTML}\r\n--many--\r\n`,
    );
    expectClearResults(job);
    await expectNextJobUnaffected();
  });

  test("multipart inside multipart, 100 deep", async () => {
    const depth = 100;
    let body = `Content-Type: text/html\r\n\r\n${HTML}\r\n`;
    for (let level = depth; level > 0; level--)
      body = `Content-Type: multipart/mixed; boundary="level${level}"\r\n\r\n--level${level}\r\n${body}--level${level}--\r\n`;
    const job = await deliver((to) => `${headers(to, "X-Depth: 100")}\r\n${body}`);
    expectClearResults(job);
    await expectNextJobUnaffected();
  });

  test("a megabyte of headers: one of 500 kB folded, and 10,000 short ones", async () => {
    const long = `X-Tracking: ${Array.from({ length: 10_000 }, (_, i) => `token-${i}-${"z".repeat(40)}`).join("\r\n ")}`;
    const many = Array.from({ length: 10_000 }, (_, i) => `X-Extra-${i}: ${"v".repeat(40)}`).join("\r\n");
    const job = await deliver(
      (to) => `${headers(to, "Content-Type: text/html")}\r\n${long}\r\n${many}\r\n\r\n${HTML}\r\n`,
    );
    expectClearResults(job);
    expect(verdicts(job)["email-subject-length"]).toBe("pass");
    await expectNextJobUnaffected();
  });

  test("past the SMTP size limit: 552 with the documented text while DATA streams in, the job keeps waiting, charged once", async () => {
    const job = await createJob();
    const filler = Array.from({ length: 3 * 1024 * 20 }, (_, i) => `X-Filler-${i}: ${"f".repeat(40)}`).join("\r\n");
    const err = await transport()
      .sendMail({
        envelope: { from: "news@trailhead.example", to: [job.testEmail] },
        raw: `${headers(job.testEmail, "Content-Type: text/html")}\r\n${filler}\r\n\r\n${HTML}\r\n`,
      })
      .catch((e) => e);
    expect(err.responseCode).toBe(552);
    expect(err.response).toContain(`5.3.4 Message exceeds the ${SMTP_MAX_BYTES}-byte limit`);
    const after = await server.api("GET", `/api/jobs?jobId=${job.jobId}`, { key: apiKey });
    expect(after.body.jobs[0].status).toBe("pending");
    expect(after.body.jobs[0].credits).toEqual(job.credits);
    await transport().sendMail({
      from: "news@trailhead.example",
      to: job.testEmail,
      subject: "Spring sale on walking boots",
      text: "Boots",
      html: HTML,
    });
    expect((await settled(job.jobId)).credits).toEqual(job.credits);
  });

  test("a message that is all attachment: no text or HTML part", async () => {
    const pdf = Buffer.from(`%PDF-1.7\n${"0".repeat(3000)}`)
      .toString("base64")
      .replace(/.{76}/g, "$&\r\n");
    const job = await deliver(
      (to) =>
        `${headers(to, 'Content-Type: application/pdf; name="catalogue.pdf"')}\r\nContent-Disposition: attachment; filename="catalogue.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n${pdf}\r\n`,
    );
    expectClearResults(job);
    expect(verdicts(job)["email-plain-text-part"]).toBe("fail");
    await expectNextJobUnaffected();
  });
});

describe("broken charsets and encodings", () => {
  test("an unknown charset", async () => {
    const job = await deliver(
      (to) => `${headers(to, "Content-Type: text/html; charset=x-klingon-pIqaD")}\r\n\r\n${HTML}\r\n`,
    );
    expectClearResults(job);
    expect(verdicts(job)["email-html-lang"]).toBe("pass");
    await expectNextJobUnaffected();
  });

  test("base64 that is not base64", async () => {
    const job = await deliver(
      (to) =>
        `${headers(to, "Content-Type: text/html; charset=utf-8")}\r\nContent-Transfer-Encoding: base64\r\n\r\nPGh0bWw+!!!@@@###***\r\n====PGJvZHk+\r\n\u00ff\u00fe\r\n`,
    );
    expectClearResults(job);
    await expectNextJobUnaffected();
  });

  test("quoted-printable with bad escapes and a soft break at the end", async () => {
    const job = await deliver(
      (to) =>
        `${headers(to, "Content-Type: text/html; charset=utf-8")}\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<!doctype html><html lang=3D"en"><body><p>caf=C3=A9 =ZZ =\r\n=4 =\r\n`,
    );
    expectClearResults(job);
    await expectNextJobUnaffected();
  });
});
