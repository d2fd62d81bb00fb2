import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventCount, expectError, startServer, tempDataDir, type TestServer } from "../support/harness";
import { findChromium } from "../../src/capture/chromium-launch";
import { STATIC_HTML_EXAMPLE } from "../../src/operations/jobs/examples";

/** SERVICE_UNAVAILABLE: a required dependency (Chromium, the configured billing provider) cannot be had; refused before any charge. */

/** Refused with SERVICE_UNAVAILABLE (retryable) naming the dependency; the log and the balance are untouched. */
async function expectUnavailable(
  server: TestServer,
  key: string,
  path: string,
  body: unknown,
  details: Record<string, unknown>,
) {
  const before = eventCount(server);
  const res = await server.api("POST", path, { key, body });
  expectError(res, 503, "SERVICE_UNAVAILABLE");
  expect(res.body.retryable).toBe(true);
  expect(res.body.details).toEqual(details);
  expect(eventCount(server)).toBe(before);
  expect((await server.api("GET", "/api/jobs", { key })).body.jobs).toEqual([]);
}

describe("Chromium cannot be launched", () => {
  const chromium = join(tempDataDir(), "chromium");
  let server: TestServer;
  beforeAll(async () => {
    writeFileSync(chromium, "#!/bin/sh\nexit 1\n");
    chmodSync(chromium, 0o755);
    server = await startServer({ CHROMIUM_PATH: chromium });
  });
  afterAll(() => server.stop());

  test("jobs of both subjects are refused before they are charged; estimates still answer; once it launches, the same body runs", async () => {
    const org = await server.signup();
    const balance = (await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance;
    await expectUnavailable(server, org.apiKey, "/api/jobs", STATIC_HTML_EXAMPLE, { dependency: "chromium" });
    await expectUnavailable(
      server,
      org.apiKey,
      "/api/jobs",
      { type: "email", validations: ["email-subject-length"] },
      { dependency: "chromium" },
    );
    expect((await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(balance);
    expect(
      (await server.api("POST", "/api/jobs/estimate", { key: org.apiKey, body: STATIC_HTML_EXAMPLE })).status,
    ).toBe(200);

    // The pool launches again on the next job: with a working Chromium behind the same path, the retry runs.
    writeFileSync(chromium, `#!/bin/sh\nexec ${findChromium()} "$@"\n`);
    const retried = await server.api("POST", "/api/jobs", { key: org.apiKey, body: STATIC_HTML_EXAMPLE });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe("completed");
  });
});

describe("the Stripe provider selected without a secret key", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_BILLING_PROVIDER: "stripe" });
  });
  afterAll(() => server.stop());

  test("the server starts; signup, the catalog and the error table answer; plan-dependent requests are SERVICE_UNAVAILABLE", async () => {
    const org = await server.signup();
    expect((await server.api("GET", "/api/errors")).status).toBe(200);
    expect((await server.api("GET", "/api/validations")).status).toBe(200);
    const details = { dependency: "billing provider", provider: "stripe" };
    for (const path of ["/api/jobs", "/api/jobs/estimate"])
      await expectUnavailable(server, org.apiKey, path, STATIC_HTML_EXAMPLE, details);
    const orgView = await server.api("GET", "/api/org", { key: org.apiKey });
    expectError(orgView, 503, "SERVICE_UNAVAILABLE");
    expect(orgView.body.details).toEqual(details);
  });
});

describe("DNS cannot answer while a job's URL is checked", () => {
  let server: TestServer;
  beforeAll(async () => {
    // The guard resolves through the DNS fixture file: one name times out, one gets EAI_AGAIN, one does not exist.
    const fixtures = join(tempDataDir(), "dns.json");
    writeFileSync(
      fixtures,
      JSON.stringify({
        "*.slow.example": { error: "ETIMEOUT" },
        "*.flaky.example": { error: "EAI_AGAIN" },
        "shop.example": { A: ["93.184.215.14"] },
      }),
    );
    server = await startServer({ ASSAY_DNS_FIXTURES: fixtures });
  });
  afterAll(() => server.stop());

  test("a resolver time-out or EAI_AGAIN is 503 SERVICE_UNAVAILABLE (retryable, no job, nothing charged); a name that does not exist stays 400", async () => {
    const org = await server.signup();
    const balance = (await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance;
    for (const url of ["https://www.slow.example/", "https://www.flaky.example/pricing"]) {
      await expectUnavailable(
        server,
        org.apiKey,
        "/api/jobs",
        { type: "url", url, validations: ["page-title"] },
        { dependency: "dns", field: "url" },
      );
    }
    expect((await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(balance);
    const missing = await server.api("POST", "/api/jobs", {
      key: org.apiKey,
      body: { type: "url", url: "https://missing.example/", validations: ["page-title"] },
    });
    expectError(missing, 400, "PLAYGROUND_INVALID_URL");
    expect(missing.body.details).toMatchObject({ field: "url", reason: "unresolvable" });
  });
});
