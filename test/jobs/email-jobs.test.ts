import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { rmSync } from "node:fs";
import { startServer, tempDataDir, type TestServer } from "../support/harness";
import { smtpSession } from "../support/smtp-session";
import { trailheadMessage } from "../support/smtp-session";

const INBOX = "inbox.assay.localhost";
const CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];

function transport(port: number) {
  return nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    tls: { rejectUnauthorized: false },
  });
}

const message = (to: string, extra: Record<string, unknown> = {}) => ({ ...trailheadMessage(to), ...extra });

async function createEmailJob(server: TestServer, apiKey: string, extra: Record<string, unknown> = {}) {
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validations: CHECKS, ...extra },
  });
  expect(res.status).toBe(200);
  return res.body;
}

async function awaitSettled(server: TestServer, apiKey: string, jobId: string) {
  for (let i = 0; i < 400; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: apiKey });
    if (res.body.jobs[0].status !== "pending") return res.body.jobs[0];
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer({ ASSAY_SMTP_MAX_BYTES: "200000" });
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

describe("email jobs", () => {
  test("a job answers pending with a one-time address; a real message completes it", async () => {
    const job = await createEmailJob(server, apiKey, { subject: "Spring sale: 25% off walking boots" });
    expect(job.status).toBe("pending");
    expect(job.testEmail).toMatch(new RegExp(`^t-[a-z0-9]{26}@${INBOX.replace(/\./g, "\\.")}$`));
    expect(new Date(job.expiresAt).getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);
    expect(job.results).toEqual([]);
    expect(job.credits.charged).toBe(2);

    await transport(server.smtpPort).sendMail(message(job.testEmail));
    const done = await awaitSettled(server, apiKey, job.jobId);
    expect(done.status).toBe("completed");
    expect(done.results.map((r: any) => [r.validationId, r.verdict])).toEqual([
      ["email-subject-length", "pass"],
      ["email-list-unsubscribe-header", "pass"],
    ]);
    expect(done.email).toMatchObject({ subject: "Spring sale: 25% off walking boots", subjectMatches: true });
  });

  test("a failing message gets fail verdicts with the reason to fix", async () => {
    const job = await createEmailJob(server, apiKey);
    await transport(server.smtpPort).sendMail(message(job.testEmail, { subject: "x".repeat(79), headers: {} }));
    const done = await awaitSettled(server, apiKey, job.jobId);
    expect(done.results.map((r: any) => r.verdict)).toEqual(["fail", "fail"]);
    expect(done.results[0].reason).toContain("79");
  });

  test("Debian's swaks delivers too", async () => {
    const job = await createEmailJob(server, apiKey);
    // Asynchronous: the inbox runs on this process's event loop, which spawnSync would block.
    const proc = Bun.spawn(
      [
        "swaks",
        "--server",
        `127.0.0.1:${server.smtpPort}`,
        "--to",
        job.testEmail,
        "--from",
        "news@trailhead.example",
        "--header",
        "Subject: Weekly news",
        "--header",
        "List-Unsubscribe: <mailto:unsub@trailhead.example>",
        "--body",
        "Hello from swaks",
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect(await proc.exited).toBe(0);
    const done = await awaitSettled(server, apiKey, job.jobId);
    expect(done.results.map((r: any) => r.verdict)).toEqual(["pass", "pass"]);
  });

  test("a subject that differs from the request's is reported, not ignored", async () => {
    const job = await createEmailJob(server, apiKey, { subject: "Autumn sale" });
    await transport(server.smtpPort).sendMail(message(job.testEmail));
    const done = await awaitSettled(server, apiKey, job.jobId);
    expect(done.email).toMatchObject({ expectedSubject: "Autumn sale", subjectMatches: false });
    expect(done.warnings[0]).toContain("Autumn sale");
  });
});

describe("the inbox refuses", () => {
  test("a second message to the same address, at RCPT with a 5xx that says why", async () => {
    const job = await createEmailJob(server, apiKey);
    await transport(server.smtpPort).sendMail(message(job.testEmail));
    await awaitSettled(server, apiKey, job.jobId);
    const err = await transport(server.smtpPort)
      .sendMail(message(job.testEmail))
      .catch((e) => e);
    expect(err.responseCode).toBe(550);
    expect(err.response).toContain("already received");
  });

  test("unknown addresses and other domains, at RCPT", async () => {
    const replies = await smtpSession(server.smtpPort, [
      "EHLO tester",
      "MAIL FROM:<a@b.example>",
      `RCPT TO:<t-doesnotexist@${INBOX}>`,
      "RCPT TO:<someone@gmail.com>",
      "QUIT",
    ]);
    expect(replies[3]).toMatch(/^550 .*No email job has this test address/);
    expect(replies[4]).toMatch(/^550 .*only accepts mail for test addresses/);
  });

  test("a message over the size cap, with 552 while DATA streams in; the job keeps waiting", async () => {
    const job = await createEmailJob(server, apiKey);
    const err = await transport(server.smtpPort)
      .sendMail(message(job.testEmail, { text: "x".repeat(300_000) }))
      .catch((e) => e);
    expect(err.responseCode).toBe(552);
    const res = await server.api("GET", `/api/jobs?jobId=${job.jobId}`, { key: apiKey });
    expect(res.body.jobs[0].status).toBe("pending");
  });

  test("a message that is not MIME still completes the job, with error rows, refunded", async () => {
    const job = await createEmailJob(server, apiKey);
    const replies = await smtpSession(server.smtpPort, [
      "EHLO tester",
      "MAIL FROM:<a@b.example>",
      `RCPT TO:<${job.testEmail}>`,
      "DATA",
      "\r\n\r\nnot a message\r\n.",
      "QUIT",
    ]);
    expect(replies[5]).toMatch(/^250 /);
    const done = await awaitSettled(server, apiKey, job.jobId);
    expect(done.status).toBe("completed");
    expect(done.results.every((r: any) => r.verdict === "error")).toBe(true);
    expect(done.results[0].reason).toContain("no headers");
    expect(done.credits.net).toBe(0);
  });
});

test("a job whose message never came expires and is refunded in full; mail to its address is then refused as expired", async () => {
  const local = await startServer({ ASSAY_EMAIL_WINDOW_SECONDS: "1" });
  try {
    const { apiKey: key } = await local.signup();
    const job = await createEmailJob(local, key);
    const done = await awaitSettled(local, key, job.jobId);
    expect(done.status).toBe("expired");
    expect(done.credits).toEqual({ charged: 2, refunded: 2, net: 0 });
    const credits = await local.api("GET", "/api/credits", { key });
    expect(credits.body.balance).toBe(1000);
    const err = await transport(local.smtpPort)
      .sendMail(message(job.testEmail))
      .catch((e) => e);
    expect(err.responseCode).toBe(550);
    expect(err.response).toContain("5.7.1 This test address has expired; create a new email job");
  } finally {
    await local.stop();
  }
});

test("pending jobs survive a restart: the address still accepts mail and the job finishes", async () => {
  const dataDir = tempDataDir();
  try {
    const first = await startServer({ DATA_DIR: dataDir });
    const { apiKey: key } = await first.signup();
    const job = await createEmailJob(first, key);
    await first.stop();
    const second = await startServer({ DATA_DIR: dataDir });
    try {
      await transport(second.smtpPort).sendMail(message(job.testEmail));
      const done = await awaitSettled(second, key, job.jobId);
      expect(done.status).toBe("completed");
      expect(done.results.map((r: any) => r.verdict)).toEqual(["pass", "pass"]);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
