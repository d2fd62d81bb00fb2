import { afterAll, beforeAll, expect, test } from "bun:test";
import nodemailer from "nodemailer";
import { join } from "node:path";
import { startServer, tempDataDir, type TestServer } from "../support/harness";

/** With ASSAY_SMTP_TLS_KEY/CERT set, the inbox offers STARTTLS and a client that requires TLS delivers. */
const certDir = tempDataDir();
let server: TestServer;
beforeAll(async () => {
  const made = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=inbox.assay.localhost",
      "-keyout",
      join(certDir, "key.pem"),
      "-out",
      join(certDir, "cert.pem"),
    ],
    { stdout: "ignore", stderr: "ignore" },
  );
  expect(made.exitCode).toBe(0);
  server = await startServer({
    ASSAY_SMTP_TLS_KEY: join(certDir, "key.pem"),
    ASSAY_SMTP_TLS_CERT: join(certDir, "cert.pem"),
  });
});
afterAll(() => server.stop());

test("a client that requires STARTTLS delivers over TLS and the job completes", async () => {
  const { apiKey } = await server.signup();
  const created = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validations: ["email-subject-length"] },
  });
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: server.smtpPort,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
  });
  const info = await transport.sendMail({
    from: "a@b.example",
    to: created.body.testEmail,
    subject: "Over TLS",
    text: "hi",
  });
  expect(info.accepted).toEqual([created.body.testEmail]);
  for (let i = 0; i < 200; i++) {
    const res = await server.api("GET", `/api/jobs?jobId=${created.body.jobId}`, { key: apiKey });
    if (res.body.jobs[0].status !== "pending") {
      expect(res.body.jobs[0].results[0].verdict).toBe("pass");
      return;
    }
    await Bun.sleep(50);
  }
  throw new Error("job did not complete");
});

test("without a certificate the inbox offers no STARTTLS, so a client requiring it is refused", async () => {
  const plain = await startServer();
  try {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: plain.smtpPort,
      secure: false,
      requireTLS: true,
    });
    const err = await transport
      .sendMail({ from: "a@b.example", to: "t-x@inbox.assay.localhost", subject: "x", text: "x" })
      .catch((e) => e);
    expect(String(err.message)).toMatch(/STARTTLS/i);
  } finally {
    await plain.stop();
  }
});
