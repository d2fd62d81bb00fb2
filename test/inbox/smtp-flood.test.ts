import { afterAll, beforeAll, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { connect, type Socket } from "node:net";
import { eventsOf, htmlJob, runCli, startServer, type TestServer } from "../support/harness";
import { SMTP_MAX_RECIPIENTS } from "../../src/inbox/smtp-inbox";
import { smtpSession } from "../support/smtp-session";

/**
 * The inbox under a flood, as a spammer or a broken sender would cause one: the service keeps answering (/healthz and
 * a normal job during and after), every refusal is the documented SMTP answer, nothing refused is stored, and the
 * ledger balances (`assay ledger verify`, as an operator runs it).
 */
const SMTP_MAX_BYTES = 100_000;
const SESSION_SECONDS = 3;
const CHECKS = ["email-subject-length"];

let server: TestServer;
let apiKey: string;
beforeAll(async () => {
  server = await startServer({
    ASSAY_SMTP_MAX_BYTES: String(SMTP_MAX_BYTES),
    ASSAY_SMTP_SESSION_SECONDS: String(SESSION_SECONDS),
  });
  apiKey = (await server.signup()).apiKey;
});
afterAll(() => server.stop());

const transport = () =>
  nodemailer.createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true, pool: false });
const message = (to: string | string[], extra: Record<string, unknown> = {}) => ({
  envelope: { from: "news@trailhead.example", to },
  from: '"Trailhead" <news@trailhead.example>',
  to: [to].flat()[0],
  subject: "Spring sale on walking boots",
  text: "Walking boots, 25% off.",
  ...extra,
});

async function createEmailJob(): Promise<{ jobId: string; testEmail: string; credits: { charged: number } }> {
  const res = await server.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: CHECKS } });
  expect(res.status).toBe(200);
  return res.body;
}

const jobOf = async (jobId: string) =>
  (await server.api("GET", `/api/jobs?jobId=${jobId}`, { key: apiKey })).body.jobs[0];

async function settled(jobId: string) {
  for (let i = 0; i < 1200; i++) {
    const job = await jobOf(jobId);
    if (job.status !== "pending") return job;
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} still pending`);
}

/** The service answers: /healthz, and a web job (the browser pool) with its verdict. */
async function expectServiceUp() {
  expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  const res = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: htmlJob("<!doctype html><html lang=en><title>Up</title><h1>Up</h1></html>", ["page-title"]),
  });
  expect(res.body.results.map((r: { verdict: string }) => r.verdict)).toEqual(["pass"]);
}

const receivedFor = (jobId: string) =>
  eventsOf(server).filter((e) => e.type === "EmailReceived" && JSON.stringify(e).includes(jobId));

test("100 concurrent connections each deliver their message; the service answers all along", async () => {
  const jobs = await Promise.all(Array.from({ length: 100 }, () => createEmailJob()));
  const sending = Promise.all(jobs.map((job) => transport().sendMail(message(job.testEmail))));
  await expectServiceUp();
  const sent = await sending;
  expect(sent.every((info) => /^250 /.test(info.response))).toBe(true);
  const done = await Promise.all(jobs.map((job) => settled(job.jobId)));
  expect(done.map((job) => job.results.map((r: { verdict: string }) => r.verdict).join())).toEqual(
    jobs.map(() => "pass"),
  );
  await expectServiceUp();
});

test("oversize messages are refused with 552 while DATA streams in, nothing is stored, the job keeps waiting", async () => {
  const jobs = await Promise.all(Array.from({ length: 5 }, () => createEmailJob()));
  const refusals = await Promise.all(
    jobs.map((job) =>
      transport()
        .sendMail(message(job.testEmail, { text: "x".repeat(SMTP_MAX_BYTES * 3) }))
        .catch((e) => e),
    ),
  );
  for (const err of refusals) {
    expect(err.responseCode).toBe(552);
    expect(err.response).toContain(`5.3.4 Message exceeds the ${SMTP_MAX_BYTES}-byte limit`);
  }
  for (const job of jobs) {
    expect(receivedFor(job.jobId)).toEqual([]);
    expect((await jobOf(job.jobId)).status).toBe("pending");
  }
  await expectServiceUp();
});

test(`1,000 recipients in one message: unknown ones refused with 550, at most ${SMTP_MAX_RECIPIENTS} accepted, the rest 452`, async () => {
  const waiting = await Promise.all(Array.from({ length: SMTP_MAX_RECIPIENTS + 1 }, () => createEmailJob()));
  const strangers = Array.from({ length: 1000 - waiting.length }, (_, i) => `t-stranger${i}@inbox.assay.localhost`);
  const replies = await smtpSession(server.smtpPort, [
    "EHLO flood.example",
    "MAIL FROM:<news@trailhead.example>",
    ...strangers.slice(0, 10).map((r) => `RCPT TO:<${r}>`),
    ...waiting.map((job) => `RCPT TO:<${job.testEmail}>`),
    ...strangers.slice(10).map((r) => `RCPT TO:<${r}>`),
    "DATA",
    `From: news@trailhead.example\r\nTo: news@trailhead.example\r\nSubject: Spring sale on walking boots\r\n\r\nWalking boots, 25% off.\r\n.`,
    "QUIT",
  ]);
  const rcpt = replies.slice(3, 3 + 1000);
  const unknown = "550 5.1.1 No email job has this test address";
  const tooMany = "452 Error: too many recipients";
  expect(rcpt.slice(0, 10).every((r) => r.startsWith(unknown))).toBe(true);
  expect(rcpt.slice(10, 10 + SMTP_MAX_RECIPIENTS).every((r) => r.startsWith("250 "))).toBe(true);
  // Past the cap, every recipient is refused for the count alone, waiting or not.
  expect(rcpt.slice(10 + SMTP_MAX_RECIPIENTS).every((r) => r.startsWith(tooMany))).toBe(true);
  expect(replies.slice(1003, 1005).map((r) => r.slice(0, 4))).toEqual(["354 ", "250 "]);
  const done = await Promise.all(waiting.slice(0, SMTP_MAX_RECIPIENTS).map((job) => settled(job.jobId)));
  expect(done.every((job) => job.results[0].verdict === "pass")).toBe(true);
  expect((await jobOf(waiting.at(-1)!.jobId)).status).toBe("pending");
  await expectServiceUp();
});

test(`slow senders that dribble bytes are closed after ${SESSION_SECONDS} s with 421; others are served meanwhile`, async () => {
  const dribbled = await Promise.all(Array.from({ length: 5 }, () => createEmailJob()));
  const dribblers = dribbled.map((job) => dribble(job.testEmail));
  // While they dribble, a normal sender is served.
  const other = await createEmailJob();
  await transport().sendMail(message(other.testEmail));
  expect((await settled(other.jobId)).results.map((r: { verdict: string }) => r.verdict)).toEqual(["pass"]);
  await expectServiceUp();
  const ends = await Promise.all(dribblers);
  for (const end of ends) expect(end).toMatch(/^421 4\.4\.2 .*Session time limit of 3 s reached/m);
  for (const job of dribbled) {
    expect(receivedFor(job.jobId)).toEqual([]);
    expect((await jobOf(job.jobId)).status).toBe("pending");
  }
});

/** Opens a session to `to`, then sends its DATA a byte every 100 ms; resolves with everything the server said. */
function dribble(to: string): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = connect(server.smtpPort, "127.0.0.1");
    let said = "";
    let timer: ReturnType<typeof setInterval> | undefined;
    const commands = ["EHLO slow.example", "MAIL FROM:<slow@trailhead.example>", `RCPT TO:<${to}>`, "DATA"];
    const body = `Subject: Spring sale\r\n\r\n${"walking boots ".repeat(1000)}`;
    socket.on("data", (d) => {
      said += d.toString();
      const replies = said.split("\r\n").filter((l) => /^\d{3} /.test(l)).length;
      if (replies >= 1 && replies <= commands.length && !said.includes("354 "))
        socket.write(`${commands[replies - 1]}\r\n`);
      if (said.includes("354 ") && !timer) {
        let i = 0;
        timer = setInterval(() => socket.write(body[i++]!), 100);
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(timer);
      resolve(said);
    });
  });
}

test("the ledger balances after the flood", async () => {
  const verify = await runCli(["ledger", "verify"], server.env);
  if (verify.code !== 0) throw new Error(`ledger verify failed:\n${verify.stdout}\n${verify.stderr}`);
});
