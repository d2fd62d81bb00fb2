import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventCount, expectError, startServer, tempDataDir, type TestServer } from "../support/harness";

/** ASSAY_EMAIL_CLIENTS_FILE: the operator's narrowing of the render catalog, and EMAIL_CLIENT_CATALOG_UNAVAILABLE when it cannot be read. */
const file = join(tempDataDir(), "email-clients.json");
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ ASSAY_EMAIL_CLIENTS_FILE: file });
});
afterAll(() => server.stop());

const emailJob = (clients?: Record<string, string[]>) => ({
  type: "email",
  validations: [clients ? { id: "email-layout-not-broken", clients } : "email-layout-not-broken"],
});

describe("the render catalog file", () => {
  test("unreadable with no good copy: the catalog and jobs naming clients are refused, nothing charged; a job naming none still runs", async () => {
    const org = await server.signup();
    const before = eventCount(server);
    const balance = (await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance;
    const refusals = [
      await server.api("GET", "/api/email-clients", { key: org.apiKey }),
      await server.api("POST", "/api/jobs/estimate", {
        key: org.apiKey,
        body: emailJob({ "desktop-md": ["gmail-web"] }),
      }),
      await server.api("POST", "/api/jobs", { key: org.apiKey, body: emailJob({ "desktop-md": ["gmail-web"] }) }),
    ];
    for (const res of refusals) {
      expectError(res, 503, "EMAIL_CLIENT_CATALOG_UNAVAILABLE");
      expect(res.body.retryable).toBe(true);
      expect(res.body.details).toEqual({ source: "ASSAY_EMAIL_CLIENTS_FILE" });
    }
    expect(eventCount(server)).toBe(before);
    expect((await server.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(balance);
    expect((await server.api("GET", "/api/jobs", { key: org.apiKey })).body.jobs).toEqual([]);

    // Resubmitted without per-validation clients, it renders in the native defaults.
    const run = await server.api("POST", "/api/jobs", { key: org.apiKey, body: emailJob() });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe("pending");
  });

  test("a valid file narrows what is offered, read again when it changes; an invalid one leaves the last good copy in use", async () => {
    const org = await server.signup();
    writeFileSync(file, JSON.stringify({ offered: { "desktop-md": ["apple-mail", "gmail-web"] } }));
    const catalog = await server.api("GET", "/api/email-clients", { key: org.apiKey });
    expect(catalog.status).toBe(200);
    expect(Object.keys(catalog.body.formFactors["desktop-md"].clients)).toEqual(["apple-mail", "gmail-web"]);
    expect(Object.keys(catalog.body.formFactors["mobile-sm"].clients)).toContain("samsung-mail");

    expect(
      (
        await server.api("POST", "/api/jobs/estimate", {
          key: org.apiKey,
          body: emailJob({ "desktop-md": ["gmail-web"] }),
        })
      ).status,
    ).toBe(200);
    const before = eventCount(server);
    const outside = await server.api("POST", "/api/jobs", {
      key: org.apiKey,
      body: emailJob({ "desktop-md": ["outlook-web"] }),
    });
    expectError(outside, 400, "UNKNOWN_EMAIL_CLIENT");
    expect(outside.body.details).toEqual({
      validationId: "email-layout-not-broken",
      unknownClients: [{ formFactor: "desktop-md", clientId: "outlook-web" }],
      knownClients: { "desktop-md": ["apple-mail", "gmail-web"] },
    });
    expect(eventCount(server)).toBe(before);

    writeFileSync(file, JSON.stringify({ offered: { "desktop-md": ["apple-mail", "outlook-web"] } }));
    const changed = await server.api("GET", "/api/email-clients", { key: org.apiKey });
    expect(Object.keys(changed.body.formFactors["desktop-md"].clients)).toEqual(["apple-mail", "outlook-web"]);

    // Invalid (a native default taken away, then not JSON at all): the last good copy is still offered.
    for (const bad of [JSON.stringify({ offered: { "desktop-md": ["gmail-web"] } }), "{ offered: "]) {
      writeFileSync(file, bad);
      const kept = await server.api("GET", "/api/email-clients", { key: org.apiKey });
      expect(kept.status).toBe(200);
      expect(Object.keys(kept.body.formFactors["desktop-md"].clients)).toEqual(["apple-mail", "outlook-web"]);
    }
  });
});
