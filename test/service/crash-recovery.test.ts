import { afterAll, beforeAll, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { connect } from "node:net";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { eventsOf, htmlJob, runCli, spawnServer, tempDataDir, type ServerProcess } from "../support/harness";

/**
 * Crashes at named points of a job's life: `assay serve` in a subprocess, killed with SIGKILL (by a failpoint,
 * ASSAY_CRASH_AT, src/faults.ts, or by the test where the point can be reached from outside), then started again
 * on the same DATA_DIR. Everything is read back through the real interface: GET /api/jobs, GET /api/credits,
 * SMTP, and `assay ledger verify` as a subprocess.
 */

const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];
const SUBJECT = "Spring sale: 25% off walking boots";
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Walking boots | Trailhead</title></head><body><h1>Walking boots</h1><p>Free returns on every order.</p></body></html>`;

/** A page that never answers: a url job on it stays in capture until the server is killed. */
let stalled: ReturnType<typeof Bun.serve>;
let stalledRequests = 0;
const dataDirs: string[] = [];
beforeAll(() => {
  stalled = Bun.serve({
    port: 0,
    fetch() {
      stalledRequests++;
      return new Promise<Response>(() => {});
    },
  });
});
afterAll(() => {
  stalled.stop(true);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = tempDataDir();
  dataDirs.push(dir);
  return dir;
}

/** A server on a fresh data directory with one organization, and its opening balance. */
async function openServer(env: Record<string, string> = {}) {
  const server = await spawnServer(freshDataDir(), env);
  const { apiKey: key, customerId } = await server.signup();
  const opening = (await server.api("GET", "/api/credits", { key })).body.balance as number;
  return { server, key, customerId, opening };
}

async function jobsOf(server: ServerProcess, key: string): Promise<any[]> {
  const res = await server.api("GET", "/api/jobs?limit=100&detail=verbose", { key });
  expect(res.status).toBe(200);
  return res.body.jobs;
}

async function jobOf(server: ServerProcess, key: string, jobId: string): Promise<any> {
  const res = await server.api("GET", `/api/jobs?jobId=${jobId}`, { key });
  expect(res.body.jobs).toHaveLength(1);
  return res.body.jobs[0];
}

/** Polls until the job is no longer pending or running (an email job being checked in the background). */
async function settledJob(server: ServerProcess, key: string, jobId: string): Promise<any> {
  for (let i = 0; i < 1200; i++) {
    const job = await jobOf(server, key, jobId);
    if (job.status !== "pending" && job.status !== "running") return job;
    await Bun.sleep(50);
  }
  throw new Error(`job ${jobId} never settled`);
}

/** Polls until the organization has `count` jobs running (accepted and charged, not settled). */
async function untilRunning(server: ServerProcess, key: string, count: number): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    const res = await server.api("GET", "/api/jobs?status=running&limit=100", { key });
    if (res.body.jobs.length >= count) return;
    await Bun.sleep(50);
  }
  throw new Error(`fewer than ${count} jobs running`);
}

/**
 * Every job of the organization settled or refunded exactly once: none left running, one charge per job in the
 * ledger and at most one refund, each equal to what the job shows; the balance is the opening balance less
 * exactly the settled charges; `assay ledger verify` on the same DATA_DIR passes. Pending email jobs are allowed
 * only when named in `waiting`.
 */
async function expectClosedOnce(server: ServerProcess, key: string, opening: number, waiting: string[] = []) {
  const jobs = await jobsOf(server, key);
  const credits = (await server.api("GET", "/api/credits?limit=200", { key })).body;
  let spent = 0;
  for (const job of jobs) {
    const entries = credits.ledger.filter((e: any) => e.jobId === job.jobId);
    const charges = entries.filter((e: any) => e.type === "CreditsCharged");
    const refunds = entries.filter((e: any) => e.type === "CreditsRefunded");
    expect(charges.map((e: any) => -e.amount)).toEqual([job.credits.charged]);
    if (waiting.includes(job.jobId)) {
      expect(job.status).toBe("pending");
      expect(refunds).toEqual([]);
    } else {
      expect(["completed", "interrupted", "expired"]).toContain(job.status);
      expect(refunds.length).toBeLessThanOrEqual(1);
      expect(refunds.reduce((n: number, e: any) => n + e.amount, 0)).toBe(job.credits.refunded);
    }
    spent += job.credits.charged - job.credits.refunded;
  }
  expect(credits.balance).toBe(opening - spent);
  const verify = await runCli(["ledger", "verify"], { DATA_DIR: server.dataDir });
  expect(verify.code).toBe(0);
  return jobs;
}

/** A job cut off by the restart: interrupted, saying so, every row an error refunded in full. */
function expectCutOff(job: any) {
  expect(job.status).toBe("interrupted");
  expect(job.interruption.cause).toBe("execution_failed");
  expect(job.interruption.message).toContain("the server restarted while it ran");
  expect(job.interruption.refund).toEqual({ settled: true, refundedCredits: job.credits.charged });
  expect(job.credits.refunded).toBe(job.credits.charged);
  const selected = job.validationSets.flatMap((set: any) => set.validations.map((v: any) => v.validationId));
  expect(job.results.map((r: any) => r.validationId).sort()).toEqual(selected.sort());
  expect(job.interruption.affectedValidationIds.sort()).toEqual(selected.sort());
  expect(job.summary).toMatchObject({ pass: 0, fail: 0, error: selected.length });
  for (const row of job.results) {
    expect(row.verdict).toBe("error");
    expect(row.reason).toContain("the server restarted while it ran");
  }
}

const transport = (port: number) =>
  nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });

function message(to: string) {
  return {
    from: '"Trailhead" <offers@trailhead.example>',
    to,
    subject: SUBJECT,
    text: "Hello",
    html: "<p>Hello</p>",
    headers: { "List-Unsubscribe": "<https://trailhead.example/u?id=1>" },
  };
}

/** Sends the message; resolves with the server's final reply (250 when it took the message). */
async function deliver(server: ServerProcess, to: string): Promise<string> {
  const info = await transport(server.smtpPort).sendMail(message(to));
  return info.response;
}

/** An email job whose message was checked: both checks ran on what was sent. */
function expectChecked(job: any) {
  expect(job.status).toBe("completed");
  expect(job.email.subject).toBe(SUBJECT);
  expect(job.results.map((r: any) => [r.validationId, r.verdict])).toEqual(EMAIL_CHECKS.map((id) => [id, "pass"]));
  expect(job.credits.refunded).toBe(0);
}

async function emailJob(server: ServerProcess, key: string) {
  const res = await server.api("POST", "/api/jobs", { key, body: { type: "email", validations: EMAIL_CHECKS } });
  expect(res.status).toBe(200);
  return res.body;
}

/** Starts again on the same data directory after the crash. */
const restart = (crashed: ServerProcess) => spawnServer(crashed.dataDir);

test("killed after the charge (JobAccepted appended, before capture): the webpage job is interrupted and refunded at the restart", async () => {
  const { server, key, opening } = await openServer({ ASSAY_CRASH_AT: "job-accepted" });
  const posted = await server
    .api("POST", "/api/jobs", { key, body: htmlJob(PAGE, undefined, { validationSetId: "web-essentials" }) })
    .catch((e: Error) => e);
  expect(posted).toBeInstanceOf(Error);
  expect((await server.exited).signal).toBe("SIGKILL");

  const again = await restart(server);
  try {
    const [job] = await expectClosedOnce(again, key, opening);
    expectCutOff(job);
    expect(job.credits.charged).toBeGreaterThan(0);
    expect((await again.api("GET", "/api/credits", { key })).body.balance).toBe(opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("killed after an email job's charge: the job still waits at the restart, and completes when its message comes", async () => {
  const { server, key, opening } = await openServer({ ASSAY_CRASH_AT: "job-accepted" });
  expect(
    await server
      .api("POST", "/api/jobs", { key, body: { type: "email", validations: EMAIL_CHECKS } })
      .catch((e: Error) => e),
  ).toBeInstanceOf(Error);
  await server.exited;

  const again = await restart(server);
  try {
    const [pending] = await expectClosedOnce(
      again,
      key,
      opening,
      (await jobsOf(again, key)).map((j) => j.jobId),
    );
    expect(pending.emailCapture.captureStatus).toBe("awaiting_email");
    expect(await deliver(again, pending.testEmail)).toStartWith("250");
    expectChecked(await settledJob(again, key, pending.jobId));
    await expectClosedOnce(again, key, opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("killed during capture (a page that never finishes loading): the job is interrupted and refunded at the restart", async () => {
  const { server, key, opening } = await openServer();
  const before = stalledRequests;
  const posted = server
    .api("POST", "/api/jobs", {
      key,
      body: { type: "url", url: `http://127.0.0.1:${stalled.port}/never`, validationSetId: "web-essentials" },
    })
    .catch((e: Error) => e);
  // The browser asked for the page: the capture is under way.
  while (stalledRequests === before) await Bun.sleep(20);
  await server.kill();
  expect(await posted).toBeInstanceOf(Error);

  const again = await restart(server);
  try {
    const [job] = await expectClosedOnce(again, key, opening);
    expectCutOff(job);
    expect((await again.api("GET", "/api/credits", { key })).body.balance).toBe(opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("killed between the checks and the settlement: the webpage job is interrupted once and refunded, its unrecorded screenshot removed", async () => {
  const { server, key, customerId, opening } = await openServer({ ASSAY_CRASH_AT: "checks-done" });
  const body = htmlJob(PAGE, ["layout-not-broken"], { validationSetId: "web-essentials" });
  expect(await server.api("POST", "/api/jobs", { key, body }).catch((e: Error) => e)).toBeInstanceOf(Error);
  expect((await server.exited).signal).toBe("SIGKILL");
  // The run stored its screenshot before the kill; no CaptureStored records it.
  const captures = join(server.dataDir, "captures", customerId);
  const [jobDir] = readdirSync(captures);
  expect(readdirSync(join(captures, jobDir!))).toEqual([`${jobDir}-desktop-md.jpg`]);

  const again = await restart(server);
  try {
    const [job] = await expectClosedOnce(again, key, opening);
    expect(job.jobId).toBe(jobDir);
    expectCutOff(job);
    expect(job.results.map((r: any) => r.validationId)).toContain("layout-not-broken");
    expect(existsSync(join(captures, jobDir!))).toBe(false);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("killed between an email job's checks and its settlement: the message is checked again at the restart and settled once", async () => {
  const { server, key, opening } = await openServer({ ASSAY_CRASH_AT: "checks-done" });
  const job = await emailJob(server, key);
  expect(await deliver(server, job.testEmail)).toStartWith("250");
  expect((await server.exited).signal).toBe("SIGKILL");

  const again = await restart(server);
  try {
    expectChecked(await settledJob(again, key, job.jobId));
    await expectClosedOnce(again, key, opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

/** Speaks SMTP up to DATA and sends the first half of a message, then stops: resolves once the half is written. */
function halfDelivery(port: number, to: string): Promise<{ closed: Promise<string[]> }> {
  const raw = `From: offers@trailhead.example\r\nTo: ${to}\r\nSubject: ${SUBJECT}\r\n\r\n${"Hello walker.\r\n".repeat(200)}`;
  const commands = ["EHLO tester", "MAIL FROM:<offers@trailhead.example>", `RCPT TO:<${to}>`, "DATA"];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const replies: string[] = [];
    let buffer = "";
    const closed = new Promise<string[]>((done) => socket.on("close", () => done(replies)));
    socket.on("error", () => {});
    socket.on("data", (d) => {
      buffer += d.toString();
      const lines = buffer.split("\r\n").filter((l) => /^\d{3} /.test(l));
      if (lines.length === replies.length) return;
      replies.push(...lines.slice(replies.length));
      const last = replies[replies.length - 1]!;
      if (last.startsWith("354")) socket.write(raw.slice(0, raw.length / 2), () => resolve({ closed }));
      else if (/^[23]/.test(last) && replies.length <= commands.length)
        socket.write(`${commands[replies.length - 1]}\r\n`);
      else reject(new Error(`refused: ${replies.join(" | ")}`));
    });
  });
}

test("killed during SMTP DATA (a message half-sent): the job still waits at the restart, and completes when the message is sent whole", async () => {
  const { server, key, opening } = await openServer();
  const job = await emailJob(server, key);
  const half = await halfDelivery(server.smtpPort, job.testEmail);
  await server.kill();
  // The client never got 250 for the half: the connection ended after 354.
  expect((await half.closed).at(-1)).toStartWith("354");

  const again = await restart(server);
  try {
    const [waiting] = await expectClosedOnce(again, key, opening, [job.jobId]);
    expect(waiting.emailCapture.captureStatus).toBe("awaiting_email");
    expect(await deliver(again, job.testEmail)).toStartWith("250");
    expectChecked(await settledJob(again, key, job.jobId));
    await expectClosedOnce(again, key, opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("killed between receipt (250 answered) and processing: the message is not lost, it is checked at the restart", async () => {
  const { server, key, opening } = await openServer({ ASSAY_CRASH_AT: "email-received" });
  const job = await emailJob(server, key);
  expect(await deliver(server, job.testEmail)).toStartWith("250");
  expect((await server.exited).signal).toBe("SIGKILL");

  const again = await restart(server);
  try {
    expectChecked(await settledJob(again, key, job.jobId));
    const raw = await fetch(`${again.baseUrl}/api/jobs/${job.jobId}/email`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toContain(`Subject: ${SUBJECT}`);
    await expectClosedOnce(again, key, opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("a received message gone from DATA_DIR/mail by the restart: the server still starts, and the job is closed interrupted and refunded", async () => {
  const { server, key, customerId, opening } = await openServer({ ASSAY_CRASH_AT: "email-received" });
  const job = await emailJob(server, key);
  expect(await deliver(server, job.testEmail)).toStartWith("250");
  await server.exited;
  rmSync(join(server.dataDir, "mail", customerId, `${job.jobId}.eml`));

  const again = await restart(server);
  try {
    const closed = await settledJob(again, key, job.jobId);
    expect(closed.status).toBe("interrupted");
    expect(closed.interruption.message).toContain(`stored message ${job.jobId}.eml is missing`);
    expect(closed.results.map((r: any) => r.verdict)).toEqual(EMAIL_CHECKS.map(() => "error"));
    expect(closed.credits.refunded).toBe(closed.credits.charged);
    await expectClosedOnce(again, key, opening);
  } finally {
    await again.kill("SIGTERM");
  }
});

test("an ASSAY_CRASH_AT that names no crash point stops the start, saying which points there are", async () => {
  const refused = await spawnServer(freshDataDir(), { ASSAY_CRASH_AT: "after-lunch" }).catch((e: Error) => e);
  expect(refused).toBeInstanceOf(Error);
  expect((refused as Error).message).toContain(
    "ASSAY_CRASH_AT=after-lunch names no crash point; the points are job-accepted, checks-done, email-received",
  );
});

test("24 web-essentials jobs in flight killed at once all end interrupted and refunded exactly once; a second start and two racing starts change nothing", async () => {
  const { server, key, opening } = await openServer();
  const body = (n: number) => ({
    type: "url",
    url: `http://127.0.0.1:${stalled.port}/page-${n}`,
    validationSetId: "web-essentials",
  });
  const posted = Array.from({ length: 24 }, (_, n) =>
    server.api("POST", "/api/jobs", { key, body: body(n) }).catch((e: Error) => e),
  );
  await untilRunning(server, key, 24);
  await server.kill();
  for (const p of await Promise.all(posted)) expect(p).toBeInstanceOf(Error);

  // Two starts race on the same data: between them each job is closed once.
  const [first, second] = await Promise.all([restart(server), restart(server)]);
  const closedBy = (s: ServerProcess) =>
    Number(/Closed (\d+) webpage job\(s\) cut off by the last stop .* \((\d+) ms\)/.exec(s.log())?.[1] ?? 0);
  const recoveryMs = [first, second]
    .map((s) => /cut off by the last stop .* \((\d+) ms\)/.exec(s.log())?.[1])
    .filter(Boolean);
  console.log(
    `recovery of 24 in-flight jobs: ${recoveryMs.join(" ms and ")} ms (closed ${closedBy(first)} + ${closedBy(second)})`,
  );
  expect(closedBy(first) + closedBy(second)).toBe(24);
  const jobs = await expectClosedOnce(first, key, opening);
  expect(jobs).toHaveLength(24);
  for (const job of jobs) expectCutOff(job);
  expect((await first.api("GET", "/api/credits", { key })).body.balance).toBe(opening);
  await Promise.all([first.kill("SIGTERM"), second.kill("SIGTERM")]);

  // A further start finds nothing to close.
  const third = await restart(server);
  try {
    expect(third.log()).not.toContain("cut off by the last stop");
    const closed = (list: any[]) => list.map((j) => [j.jobId, j.status, j.credits]);
    expect(closed(await expectClosedOnce(third, key, opening))).toEqual(closed(jobs));
  } finally {
    await third.kill("SIGTERM");
  }
});

test("a run killed mid-way (one page settled, the others running or waiting their turn): at the restart every page is settled once, the run completes interrupted, and every credit of every page is accounted for", async () => {
  const { server, key, opening } = await openServer({ ASSAY_CRASH_AT: "run-page-settled" });
  const pages = Array.from({ length: 6 }, (_, i) =>
    htmlJob(PAGE.replace("Walking boots", `Walking boots ${i}`), undefined, {
      validationSetId: "web-essentials",
      baseUrl: `https://trailhead.example/boots/${i}`,
    }),
  );
  const posted = await server
    .api("POST", "/api/runs", { key, body: { project: "trailhead", branch: "main", pages } })
    .catch((e: Error) => e);
  expect((await server.exited).signal).toBe("SIGKILL");
  const runId =
    posted instanceof Error
      ? (eventsOf({ dataDir: server.dataDir, env: {} }).find((e) => e.type === "RunStarted")!.data as any).runId
      : posted.body.runId;

  const again = await restart(server);
  try {
    const run = (await again.api("GET", `/api/runs/${runId}`, { key })).body;
    expect(run.status).toBe("interrupted");
    expect(run.decision).toBe("undecided");
    const statuses = run.pages.map((p: any) => p.status);
    expect(statuses.filter((s: string) => s === "completed").length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s: string) => s === "interrupted").length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s: string) => s === "completed" || s === "interrupted")).toBe(true);
    for (const p of run.pages.filter((p: any) => p.status === "interrupted")) {
      expectCutOff((await again.api("GET", `/api/jobs/${p.jobId}`, { key })).body);
      expect(p.decision).toBe("undecided");
    }
    // Every page is a job charged once and closed once; the ledger verifies; the run's credits are its jobs'.
    const jobs = await expectClosedOnce(again, key, opening);
    expect(jobs.map((j: any) => j.jobId).sort()).toEqual(run.pages.map((p: any) => p.jobId).sort());
    const charged = jobs.reduce((n: number, j: any) => n + j.credits.charged, 0);
    const refunded = jobs.reduce((n: number, j: any) => n + j.credits.refunded, 0);
    expect(run.totals.credits).toEqual({ charged, refunded, net: charged - refunded });
    expect((await again.api("GET", "/api/credits", { key })).body.balance).toBe(opening - charged + refunded);
    const events = eventsOf({ dataDir: again.dataDir, env: {} });
    expect(events.filter((e) => e.type === "RunCompleted")).toHaveLength(1);
    for (const p of run.pages)
      expect(events.filter((e) => e.type === "JobSettled" && (e.data as any).jobId === p.jobId)).toHaveLength(1);
  } finally {
    await again.kill("SIGTERM");
  }
  // A further start changes nothing.
  const third = await restart(server);
  try {
    expect((await third.api("GET", `/api/runs/${runId}`, { key })).body.status).toBe("interrupted");
    expect(eventsOf({ dataDir: third.dataDir, env: {} }).filter((e) => e.type === "RunCompleted")).toHaveLength(1);
  } finally {
    await third.kill("SIGTERM");
  }
});
