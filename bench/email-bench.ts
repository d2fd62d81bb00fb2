/**
 * Email jobs, measured on the real app in this process (HTTP, the SMTP inbox, the event log, the checks):
 *
 * - latency from the end of SMTP DATA (the moment the sending client has the server's 250 reply) to the job
 *   being completed, for the `marketing` set (or, while that set does not exist, every registered email check
 *   that runs without parameters), p50 and p95 over LATENCY_MESSAGES messages sent one after another; beside
 *   it the same with one trivial check, which isolates what the inbox, the log and settlement cost;
 * - messages accepted per second with SENDERS concurrent nodemailer senders, each message to its own fresh
 *   email job's address; beside it a bare smtp-server with the same options that discards what it gets.
 *
 * DNS for SPF/DKIM/DMARC is a fixture file (ASSAY_DNS_FIXTURES), so the figures leave out DNS round trips.
 * Run alone with `bun bench/email-bench.ts`; `npm run bench` runs it as one section.
 */
import nodemailer from "nodemailer";
import { generateKeyPairSync } from "node:crypto";
import { loadavg } from "node:os";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { loadConfig } from "../src/config";
import { startAssay, type RunningAssay } from "../src/runtime";
import { findSet } from "../src/catalog/sets";
import { validationModules } from "../src/catalog/registry";
import { profileJobs, profileRows, type JobProfile } from "./profile";
import { fmtInt, fmtMs, fmtRatio, nowMs, printTable, removeTempDirs, summary, tempDir, type Row } from "./support";

const LATENCY_MESSAGES = 30;
const PROFILE_MESSAGES = 10;
const WARMUP_MESSAGES = 3;
const SENDERS = 10;
const MESSAGES_PER_SENDER = 10;
/** Messages per sender when the jobs run the full latency selection (renders make each job cost seconds). */
const LOADED_PER_SENDER = 3;
const SETTLE_TIMEOUT_MS = 300_000;
const TRIVIAL = { validations: ["email-subject-length"] };
const TARGET_MS = 2000;
const DOMAIN = "trailhead.example";
const SELECTOR = "bench";

export interface EmailBenchResult {
  rows: Row[];
  notes: string[];
  profile: JobProfile;
}

type Log = (m: string) => void;

/** Which checks the latency figure runs: the marketing set when it exists, else every parameter-free email check. */
export function marketingSelection(): { body: Record<string, unknown>; label: string; note: string } {
  const set = findSet("marketing");
  if (set)
    return {
      body: { validationSetId: "marketing" },
      label: `marketing set (${set.validationIds.length} checks)`,
      note: `the marketing set: ${set.validationIds.join(", ")}`,
    };
  const ids = validationModules
    .filter((m) => m.meta.subjectType === "email" && !m.meta.requiresConfiguration)
    .map((m) => m.meta.id);
  return {
    body: { validations: ids },
    label: `${ids.length} parameter-free email checks (no marketing set yet)`,
    note: `no \`marketing\` set is registered yet, so every registered parameter-free email check: ${ids.join(", ")}`,
  };
}

/** A realistic bulk marketing message, DKIM-signed once (as an ESP signs before sending), plus the DNS that vouches for it. */
export async function composeMessage(dir: string): Promise<{ raw: Buffer; fixtures: string; html: string }> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const fixtures = join(dir, "dns.json");
  writeFileSync(
    fixtures,
    JSON.stringify({
      [DOMAIN]: { TXT: ["v=spf1 ip4:127.0.0.1 -all"] },
      [`${SELECTOR}._domainkey.${DOMAIN}`]: {
        TXT: [`v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`],
      },
      [`_dmarc.${DOMAIN}`]: { TXT: ["v=DMARC1; p=reject"] },
    }),
  );
  const utm = "utm_source=newsletter&utm_medium=email&utm_campaign=spring-sale";
  const products = ["Trailrunner GTX", "Ridge Mid boot", "Harbour slip-on", "Merino hiking socks"]
    .map(
      (name, i) => `<tr><td style="padding:12px 0;border-bottom:1px solid #e5e5e5">
        <img src="https://img.${DOMAIN}/p/${i + 1}.jpg" width="120" height="90" alt="${name}" style="display:block">
        </td><td style="padding:12px;font-size:16px;color:#222"><a href="https://www.${DOMAIN}/p/${i + 1}?${utm}" style="color:#1a5d3a">${name}</a><br>From £${69 + i * 20}.00</td></tr>`,
    )
    .join("\n");
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>Spring sale</title>
<style>@media (prefers-color-scheme: dark){body,.bg{background:#111!important;color:#eee!important}} @media (max-width:600px){.wrap{width:100%!important}}</style></head>
<body style="margin:0;background:#f4f4f4;font-family:Arial,sans-serif;font-size:16px">
<div style="display:none;max-height:0;overflow:hidden">Every boot and trail shoe is 25% off until Sunday, with free returns.</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" class="bg"><tr><td align="center">
<table role="presentation" width="600" class="wrap" cellpadding="0" cellspacing="0" style="background:#fff">
<tr><td style="padding:24px"><img src="https://img.${DOMAIN}/logo.png" width="160" height="40" alt="Trailhead Outfitters"></td></tr>
<tr><td style="padding:0 24px;font-size:28px;font-weight:bold;color:#222">25% off walking boots</td></tr>
<tr><td style="padding:16px 24px;font-size:16px;line-height:24px;color:#333">Our spring sale starts today and runs until Sunday at midnight. Every boot and trail shoe is included, plus free returns if the fit is not right.</td></tr>
<tr><td style="padding:8px 24px"><a href="https://www.${DOMAIN}/sale?${utm}" style="display:inline-block;background:#1a5d3a;color:#fff;padding:14px 28px;font-size:18px;text-decoration:none;border-radius:4px">Shop the sale</a></td></tr>
<tr><td style="padding:16px 24px"><table role="presentation" width="100%">${products}</table></td></tr>
<tr><td style="padding:24px;font-size:13px;line-height:20px;color:#666">Trailhead Outfitters Ltd, 12 Market Street, Keswick CA12 5BX, United Kingdom.<br>
You are receiving this because you subscribed at ${DOMAIN}. <a href="https://www.${DOMAIN}/unsubscribe?u=8f2c" style="color:#666">Unsubscribe</a></td></tr>
</table></td></tr></table></body></html>`;
  const text = `25% off walking boots

Our spring sale starts today and runs until Sunday at midnight. Every boot and trail shoe is included, plus free returns if the fit is not right.

Shop the sale: https://www.${DOMAIN}/sale?${utm}

Trailhead Outfitters Ltd, 12 Market Street, Keswick CA12 5BX, United Kingdom.
Unsubscribe: https://www.${DOMAIN}/unsubscribe?u=8f2c
`;
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "windows",
    dkim: {
      domainName: DOMAIN,
      keySelector: SELECTOR,
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    },
  });
  const info = await composer.sendMail({
    from: `"Trailhead Outfitters" <offers@${DOMAIN}>`,
    replyTo: `help@${DOMAIN}`,
    to: "subscriber@example.com",
    subject: "Spring sale: 25% off walking boots this weekend",
    headers: {
      "List-Unsubscribe": `<https://www.${DOMAIN}/unsubscribe?u=8f2c>, <mailto:unsubscribe@${DOMAIN}?subject=8f2c>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    text,
    html,
  });
  return { raw: info.message as Buffer, fixtures, html };
}

/** Sends raw bytes over a fresh SMTP connection; resolves when the client has the 250 reply to DATA. */
export function send(port: number, to: string, raw: Buffer) {
  return nodemailer
    .createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true, name: `mta.${DOMAIN}` })
    .sendMail({ envelope: { from: `bounce@${DOMAIN}`, to: [to] }, raw });
}

/** The real app with its SMTP inbox (DNS from `fixtures`, no vision judge) in this process, and one organization signed up. */
export async function startEmailApp(dir: string, fixtures: string, tag: string) {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("ASSAY_VISION_")) delete env[key];
  const config = loadConfig({
    ...env,
    DATA_DIR: join(dir, "data"),
    PORT: "0",
    SMTP_PORT: "0",
    ASSAY_SIGNUP_CREDITS: "1000000",
    ASSAY_DNS_FIXTURES: fixtures,
  });
  const running: RunningAssay = await startAssay(config);
  const baseUrl = `http://127.0.0.1:${running.httpPort}`;
  running.assay.config.publicBaseUrl = baseUrl;
  try {
    const res = await fetch(`${baseUrl}/api/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `${tag}-${Date.now()}@example.com` }),
    });
    const signup = (await res.json()) as { apiKey: string; customerId: string };
    return { config, running, baseUrl, signup };
  } catch (e) {
    await running.stop();
    throw e;
  }
}

export async function benchEmail(log: Log = () => {}): Promise<EmailBenchResult> {
  const dir = tempDir("email");
  const { raw, fixtures } = await composeMessage(dir);
  const selection = marketingSelection();
  log(`email: starting the app with its SMTP inbox; latency checks: ${selection.label}`);
  const { config, running, baseUrl, signup } = await startEmailApp(dir, fixtures, "email-bench");
  try {
    const createJob = async (body: Record<string, unknown>): Promise<{ jobId: string; testEmail: string }> => {
      const res = await fetch(`${baseUrl}/api/jobs`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${signup.apiKey}` },
        body: JSON.stringify({ type: "email", ...body }),
      });
      const json = (await res.json()) as any;
      if (res.status !== 200 || json.status !== "pending")
        throw new Error(`email job not created: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
      return json;
    };
    const jobNow = (jobId: string) => running.assay.jobs.get(signup.customerId, jobId)!;
    /** Polls one job in-process (every millisecond, cheap SQLite reads) until it leaves pending; returns when it saw that. */
    const settled = async (jobId: string) => {
      for (const started = nowMs(); nowMs() - started < SETTLE_TIMEOUT_MS; await Bun.sleep(1)) {
        const job = jobNow(jobId);
        if (job.status !== "pending") return { at: nowMs(), job };
      }
      throw new Error(`email job ${jobId} still pending after ${SETTLE_TIMEOUT_MS / 1000} s`);
    };

    /**
     * The poll starts before the send, so a job that completes before the client has read its 250 is seen
     * then: such a message counts as 0 ms (and is counted in `early`).
     */
    const oneMessage = async (body: Record<string, unknown>) => {
      const job = await createJob(body);
      const watching = settled(job.jobId);
      await send(running.smtpPort, job.testEmail, raw);
      const accepted = nowMs();
      const done = await watching;
      if (done.job.status !== "completed") throw new Error(`email job ${job.jobId} ended ${done.job.status}`);
      return { ms: Math.max(0, done.at - accepted), early: done.at < accepted, job: done.job };
    };
    const latencyOf = async (body: Record<string, unknown>, n: number) => {
      const times: number[] = [];
      let early = 0;
      let last: any;
      for (let i = 0; i < WARMUP_MESSAGES + n; i++) {
        const one = await oneMessage(body);
        if (i >= WARMUP_MESSAGES) {
          if (one.early) early++;
          times.push(one.ms);
        }
        last = one.job;
      }
      return { latency: summary(times), last, early };
    };

    /**
     * SENDERS senders, `perSender` messages each, every one to its own job created beforehand; then waits
     * (one poll of all jobs every 20 ms, at most SETTLE_TIMEOUT_MS) for the jobs to settle. Never throws on
     * a slow or failed send: those are counted.
     */
    const burstOf = async (body: Record<string, unknown>, perSender: number) => {
      const jobs = await Promise.all(Array.from({ length: SENDERS * perSender }, () => createJob(body)));
      let failed = 0;
      let firstFailure: string | undefined;
      const burst = await concurrentSends(
        SENDERS,
        perSender,
        (k) => send(running.smtpPort, jobs[k]!.testEmail, raw).then(() => {}),
        (e) => {
          failed++;
          firstFailure ??= (e as Error).message.slice(0, 200);
        },
      );
      const pending = new Set(jobs.map((j) => j.jobId));
      let completed = 0;
      let lastAt = nowMs();
      for (const deadline = nowMs() + SETTLE_TIMEOUT_MS; pending.size && nowMs() < deadline; await Bun.sleep(20)) {
        for (const id of pending) {
          const job = jobNow(id);
          if (job.status === "pending") continue;
          pending.delete(id);
          if (job.status === "completed") completed++;
          lastAt = nowMs();
        }
      }
      return {
        ...burst,
        messages: jobs.length,
        rate: burst.accepted / (burst.elapsedMs / 1000),
        failed,
        firstFailure,
        completed,
        stillPending: pending.size,
        settledMs: lastAt - burst.started,
      };
    };

    log(`email: ${LATENCY_MESSAGES} messages one after another (after ${WARMUP_MESSAGES} untimed), ${selection.label}`);
    const full = await latencyOf(selection.body, LATENCY_MESSAGES);
    log(
      `email: p50 ${fmtMs(full.latency.p50)}, p95 ${fmtMs(full.latency.p95)}; the same with email-subject-length only`,
    );
    const bare = await latencyOf(TRIVIAL, LATENCY_MESSAGES);
    log(`email: profile of ${PROFILE_MESSAGES} more messages, ${selection.label}`);
    const profile = await profileJobs(
      `email job, ${selection.label}, end of DATA to completed`,
      PROFILE_MESSAGES,
      async () => (await oneMessage(selection.body)).ms,
    );

    log(
      `email: ${SENDERS} concurrent senders x ${MESSAGES_PER_SENDER} messages, each to its own fresh job (email-subject-length only)`,
    );
    const inbox = await burstOf(TRIVIAL, MESSAGES_PER_SENDER);
    log(
      `email: ${inbox.rate.toFixed(1)} msg/s; ${SENDERS} senders x ${LOADED_PER_SENDER} messages to jobs running ${selection.label}`,
    );
    const loaded = await burstOf(selection.body, LOADED_PER_SENDER);
    log(
      `email: ${loaded.rate.toFixed(1)} msg/s; the same ${SENDERS} senders against a bare smtp-server (accept and discard)`,
    );
    const baseline = await bareServerRate(raw, config.smtpMaxBytes);

    const verdicts = (full.last.results as Array<{ validationId: string; verdict: string }>)
      .map((r) => `${r.validationId} ${r.verdict}`)
      .join(", ");
    const settledText = (b: typeof inbox) =>
      `${b.completed} completed${b.stillPending ? `, ${b.stillPending} still pending after ${SETTLE_TIMEOUT_MS / 1000} s` : ""}, ${b.failed} send(s) failed`;
    const rows: Row[] = [
      {
        name: `email job, end of DATA to completed, ${selection.label}, p50 (n=${full.latency.n})`,
        value: fmtMs(full.latency.p50),
        baseline: `${fmtMs(bare.latency.p50)} with 1 trivial check`,
        ratio: fmtRatio(full.latency.p50 / Math.max(bare.latency.p50, 0.01)),
        target: `<= 2 s: ${full.latency.p50 <= TARGET_MS ? "met" : "NOT met"}`,
      },
      {
        name: `email job, end of DATA to completed, p95 (n=${full.latency.n})`,
        value: fmtMs(full.latency.p95),
        baseline: `${fmtMs(bare.latency.p95)} with 1 trivial check`,
        ratio: fmtRatio(full.latency.p95 / Math.max(bare.latency.p95, 0.01)),
        target: `<= 2 s (ARCHITECTURE): ${full.latency.p95 <= TARGET_MS ? "met" : "NOT met"}`,
      },
      {
        name: `SMTP inbox, ${SENDERS} concurrent nodemailer senders, ${inbox.messages} messages, jobs with 1 trivial check`,
        value: `${inbox.rate.toFixed(1)} msg/s`,
        baseline: `${baseline.toFixed(1)} msg/s bare smtp-server`,
        ratio: fmtRatio(inbox.rate / baseline),
        target: "-",
      },
      {
        name: `  ${SENDERS} senders, ${loaded.messages} messages, jobs running the latency checks`,
        value: `${loaded.rate.toFixed(1)} msg/s`,
        baseline: `${baseline.toFixed(1)} msg/s bare smtp-server`,
        ratio: fmtRatio(loaded.rate / baseline),
        target: "-",
      },
      {
        name: `  those ${loaded.messages} jobs: first send to last settled`,
        value: `${(loaded.settledMs / 1000).toFixed(2)} s`,
        baseline: settledText(loaded),
        ratio: "-",
        target: "-",
      },
    ];
    const failures = [inbox.firstFailure, loaded.firstFailure].filter(Boolean);
    const notes = [
      `- email: the real app in this process with its SMTP inbox; a ${fmtInt(raw.length)}-byte multipart marketing message (HTML with tables, images, UTM links, ` +
        `List-Unsubscribe, plain text part), DKIM-signed once, sent as raw bytes by nodemailer over a fresh connection each time. ` +
        `Latency runs ${selection.note}. It is timed from the moment nodemailer has the 250 reply to DATA to the moment an in-process poll ` +
        `(every 1 ms) sees the job completed; jobs are created over HTTP before each send, untimed; ${WARMUP_MESSAGES} untimed messages first. ` +
        `Min ${fmtMs(full.latency.min)}, mean ${fmtMs(full.latency.mean)}, max ${fmtMs(full.latency.max)}; last job: ${verdicts}. ` +
        `Completed before the client had read its 250 (counted as 0 ms): ${full.early} of ${full.latency.n}, and ${bare.early} of ${bare.latency.n} with the trivial check. ` +
        `1-min load average ${loadavg()[0]!.toFixed(1)} at the end of the email section.`,
      `  DNS for email-authentication is a fixture file (ASSAY_DNS_FIXTURES), so no DNS round trips are in these figures: with real DNS add ` +
        `a few lookups (SPF TXT, DKIM key, DMARC; each bounded by ASSAY_DNS_TIMEOUT_MS).`,
      `- throughput: ${SENDERS} senders, each sending its messages back to back, every message to its own email job created beforehand; ` +
        `rate = messages accepted / time from the first connection to the last 250. First with jobs that run one trivial check (the inbox's own ` +
        `capacity: SMTP, storage, EmailReceived, settlement; ${settledText(inbox)}, all settled ${(inbox.settledMs / 1000).toFixed(2)} s after the first send), ` +
        `then with jobs that run the latency checks, which are checked in the same process while later messages arrive. The senders run in this process ` +
        `too, so they share its CPU with the inbox${failures.length ? `; first failure: ${failures[0]}` : ""}. ` +
        `Baseline: a bare smtp-server with the inbox's options that discards each message, same senders, same message.`,
    ];
    return { rows, notes, profile };
  } finally {
    await running.stop();
  }
}

/** `senders` loops in parallel, each doing `perSender` sends one after another; send k gets index k. */
async function concurrentSends(
  senders: number,
  perSender: number,
  sendOne: (k: number) => Promise<void>,
  onError: (e: unknown) => void,
) {
  const started = nowMs();
  let accepted = 0;
  await Promise.all(
    Array.from({ length: senders }, async (_, s) => {
      for (let i = 0; i < perSender; i++) {
        try {
          await sendOne(s * perSender + i);
          accepted++;
        } catch (e) {
          onError(e);
        }
      }
    }),
  );
  return { started, accepted, elapsedMs: nowMs() - started };
}

/** Messages per second a bare smtp-server (same options as the inbox, accepts everything, discards it) takes from the same senders. */
async function bareServerRate(raw: Buffer, size: number): Promise<number> {
  const server = new SMTPServer({
    name: "bare.localhost",
    size,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => callback(null));
    },
  });
  const port = await new Promise<number>((resolve) =>
    server.listen(0, () => resolve((server.server.address() as { port: number }).port)),
  );
  try {
    await send(port, "warm@bare.localhost", raw);
    const burst = await concurrentSends(
      SENDERS,
      MESSAGES_PER_SENDER,
      (k) => send(port, `r${k}@bare.localhost`, raw).then(() => {}),
      (e) => {
        throw e;
      },
    );
    return burst.accepted / (burst.elapsedMs / 1000);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (import.meta.main) {
  const started = nowMs();
  try {
    const r = await benchEmail((m) => console.error(`[email bench ${((nowMs() - started) / 1000).toFixed(1)}s] ${m}`));
    console.log("");
    printTable(r.rows);
    console.log("");
    printTable(profileRows(r.profile));
    console.log("");
    for (const n of r.notes) console.log(n);
    removeTempDirs();
    process.exit(0);
  } catch (e) {
    removeTempDirs();
    console.error("email bench crashed:", e);
    process.exit(1);
  }
}
