import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import nodemailer from "nodemailer";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { S3Client } from "bun";
import { DirectoryStore, S3Store, type ObjectStore } from "../../src/store/object-store";
import { htmlJob, runCli, scratchDirs, startServer, type TestServer } from "../support/harness";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { startS3, type TestS3 } from "../support/s3";
import { trailheadMessage } from "../support/smtp-session";

/**
 * Screenshots and received messages in an S3-compatible bucket (a real s3rver, from npm): the object store's
 * contract on a directory and on the bucket; two nodes on one PostgreSQL log and one bucket, with no directory in
 * common, serving each other's screenshots, share links and received messages; and a bucket that is away failing
 * a job refunded, and a message with 451, never half-written.
 */
setDefaultTimeout(180_000);

const PAGE = `<html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width"></head>
<body><h1>Hello</h1><a href="/go" style="background:#036;color:#fff;padding:12px">Go</a></body></html>`;
const EMAIL_CHECKS = ["email-subject-length", "email-list-unsubscribe-header"];

let s3: TestS3;
let postgres: TestPostgres;
const scratch = scratchDirs();
const dir = scratch.next;
beforeAll(async () => {
  [s3, postgres] = await Promise.all([startS3(), startPostgres()]);
});
afterAll(async () => {
  await s3?.stop();
  await postgres?.stop();
  scratch.removeAll();
});

describe("the object store's contract", () => {
  const stores: Array<[string, () => ObjectStore]> = [
    ["a directory", () => new DirectoryStore(dir())],
    [
      "an S3 bucket",
      () =>
        new S3Store({
          bucket: s3.bucket,
          endpoint: s3.endpoint,
          region: "us-east-1",
          accessKeyId: "S3RVER",
          secretAccessKey: "S3RVER",
        }),
    ],
  ];
  for (const [name, open] of stores) {
    test(`${name}: what is put is got back byte for byte; a missing key is null; a prefix is deleted whole and only it`, async () => {
      const store = open();
      const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
      await store.put("captures/cus_a/job_1/job_1-desktop-md.jpg", bytes);
      await store.put("captures/cus_a/job_1/job_1-mobile-sm.jpg", new Uint8Array([1, 2, 3]));
      await store.put("captures/cus_a/job_2/job_2-mobile-sm.jpg", new Uint8Array([4]));
      expect(await store.get("captures/cus_a/job_1/job_1-desktop-md.jpg")).toEqual(bytes);
      expect(await store.get("captures/cus_a/job_9/none.jpg")).toBeNull();
      await store.deletePrefix("captures/cus_a/job_1/");
      expect(await store.get("captures/cus_a/job_1/job_1-desktop-md.jpg")).toBeNull();
      expect(await store.get("captures/cus_a/job_1/job_1-mobile-sm.jpg")).toBeNull();
      expect(await store.get("captures/cus_a/job_2/job_2-mobile-sm.jpg")).toEqual(new Uint8Array([4]));
    });
  }
});

describe("two nodes, one PostgreSQL log, one bucket, no directory in common", () => {
  let a: TestServer;
  let b: TestServer;
  let url: string;
  beforeAll(async () => {
    url = await postgres.createDatabase("objects");
    // ASSAY_SHARED_DIR unset: each node's DATA_DIR is its own.
    a = await startServer({ DATA_DIR: dir(), ASSAY_DATABASE_URL: url, ...s3.env });
    b = await startServer({ DATA_DIR: dir(), ASSAY_DATABASE_URL: url, ...s3.env });
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  test("a screenshot taken on one node is served by the other, by key and by a share link made on the first; it is in the bucket, not on either disk", async () => {
    const { apiKey } = await a.signup();
    const job = (await a.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(PAGE, ["no-horizontal-overflow"]) }))
      .body;
    const row = job.results[0];
    expect(row.verdict).toBe("pass");
    const path = new URL(row.screenshotUrl).pathname;
    const key = path.split("/").pop()!;
    const onA = new Uint8Array(
      await (await fetch(`${a.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } })).arrayBuffer(),
    );
    const fromB = await fetch(`${b.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
    expect(fromB.status).toBe(200);
    expect(new Uint8Array(await fromB.arrayBuffer())).toEqual(onA);
    const share = new URL(row.screenshotShareUrl);
    expect((await fetch(`${b.baseUrl}${share.pathname}${share.search}`)).status).toBe(200);

    const bucket = new S3Client({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
    });
    const stored = new Uint8Array(
      await bucket
        .file(
          `captures/${job.customerId ?? (await a.api("GET", "/api/org", { key: apiKey })).body.customerId}/${job.jobId}/${key}`,
        )
        .arrayBuffer(),
    );
    expect(stored).toEqual(onA);
    for (const node of [a, b]) expect(existsSync(join(node.dataDir, "captures"))).toBe(false);
    expect((await b.api("GET", "/healthz")).body.storage).toEqual({
      kind: "s3",
      endpoint: s3.endpoint,
      bucket: s3.bucket,
    });
  });

  test("a message taken by one node's inbox is checked there and served by the other", async () => {
    const { apiKey } = await a.signup();
    const job = (await a.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: EMAIL_CHECKS } }))
      .body;
    const info = await nodemailer
      .createTransport({ host: "127.0.0.1", port: b.smtpPort, secure: false, ignoreTLS: true })
      .sendMail(trailheadMessage(job.testEmail));
    expect(info.response).toStartWith("250");
    for (let i = 0; (await a.api("GET", `/api/jobs/${job.jobId}`, { key: apiKey })).body.status !== "completed"; i++) {
      if (i > 300) throw new Error("the email job never completed");
      await Bun.sleep(100);
    }
    const raw = await fetch(`${a.baseUrl}/api/jobs/${job.jobId}/email`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toContain("Spring sale");
  });
});

test("while the bucket is away, a job that takes screenshots fails refunded and a message is refused with 451; nothing is half-written", async () => {
  const bucket = await startS3("away");
  const node = await startServer({ DATA_DIR: dir(), ...bucket.env });
  try {
    const { apiKey } = await node.signup();
    const opening = (await node.api("GET", "/api/credits", { key: apiKey })).body.balance;
    const email = (
      await node.api("POST", "/api/jobs", { key: apiKey, body: { type: "email", validations: EMAIL_CHECKS } })
    ).body;
    const charged = (await node.api("GET", "/api/credits", { key: apiKey })).body.balance;
    await bucket.stop();

    const failed = await node.api("POST", "/api/jobs", {
      key: apiKey,
      body: htmlJob(PAGE, ["no-horizontal-overflow"]),
    });
    expect(failed.status).toBe(500);
    expect(failed.body.code).toBe("JOB_EXECUTION_FAILED");
    expect(failed.body.retryable).toBe(true);
    const job = (await node.api("GET", `/api/jobs/${failed.body.details.jobId}`, { key: apiKey })).body;
    expect(job.status).toBe("interrupted");
    expect(job.credits.refunded).toBe(job.credits.charged);
    expect((await node.api("GET", "/api/credits", { key: apiKey })).body.balance).toBe(charged);

    const refused = await nodemailer
      .createTransport({ host: "127.0.0.1", port: node.smtpPort, secure: false, ignoreTLS: true })
      .sendMail(trailheadMessage(email.testEmail))
      .catch((e: { responseCode?: number }) => e);
    expect((refused as { responseCode?: number }).responseCode).toBe(451);
    // The job still waits for its message, charged once, nothing recorded of a message.
    expect((await node.api("GET", `/api/jobs/${email.jobId}`, { key: apiKey })).body.status).toBe("pending");
    expect(opening).toBeGreaterThan(charged);
  } finally {
    await node.stop();
  }
  const verify = await runCli(["ledger", "verify"], { DATA_DIR: node.dataDir });
  expect(verify.code).toBe(0);
});

test("an ASSAY_S3_ENDPOINT that is not an http(s) URL stops the start naming the variable", async () => {
  const out = await runCli(["replay"], {
    DATA_DIR: dir(),
    ASSAY_S3_BUCKET: "assay",
    ASSAY_S3_ENDPOINT: "s3.internal:9000",
  });
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain("ASSAY_S3_ENDPOINT must be an http:// or https:// URL");
});
