import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { expectError, htmlJob, runCli, startServer, uniqueEmail, type TestServer } from "../support/harness";

/** Signup, keys, scopes, the organization and its credits, and tenant resolution, through HTTP. */

const PAGE = '<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>';
/** Hooks start servers and Chromium: give them the same room as tests (`--timeout` covers tests only). */
const HOOK_TIMEOUT = 120_000;
// Bun 1.4 ignores bunfig's [test] timeout; so that this file also runs alone (without npm test's --timeout), set the room here.
setDefaultTimeout(120_000);
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

let server: TestServer;
type Account = Awaited<ReturnType<TestServer["signup"]>>;
let a: Account;
let b: Account;

beforeAll(async () => {
  server = await startServer();
  a = await server.signup();
  b = await server.signup();
}, HOOK_TIMEOUT);
afterAll(() => server.stop(), HOOK_TIMEOUT);

async function balanceOf(key: string): Promise<number> {
  const res = await server.api("GET", "/api/credits", { key });
  expect(res.status).toBe(200);
  return res.body.balance;
}

async function jobCountOf(key: string): Promise<number> {
  const res = await server.api("GET", "/api/jobs", { key });
  expect(res.status).toBe(200);
  return res.body.jobs.length;
}

describe("signup", () => {
  test("answers 201 with the key once, and grants 1,000 credits as a ledger entry with its event position", async () => {
    const email = uniqueEmail("signup");
    const res = await server.api("POST", "/api/signup", { body: { email } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["apiKey", "billing", "customerId", "email", "keyId", "orgCode"]);
    // The local provider: the plan the log records, ready at once.
    expect(res.body.billing).toEqual({
      provider: "local",
      ready: true,
      plan: "free",
      code: null,
      message: "Jobs, estimates and credits are answered under plan free.",
    });
    expect(res.body.email).toBe(email);
    expect(res.body.apiKey).toMatch(/^assay_sk_[0-9A-Za-z]{43}$/);
    expect(res.body.keyId).toMatch(/^key_/);
    expect(res.body.customerId).toMatch(/^cus_/);
    expect(typeof res.body.orgCode).toBe("string");

    const credits = await server.api("GET", "/api/credits", { key: res.body.apiKey });
    expect(credits.status).toBe(200);
    expect(credits.body.customerId).toBe(res.body.customerId);
    expect(credits.body.balance).toBe(1000);
    expect(credits.body.ledger).toHaveLength(1);
    const [grant] = credits.body.ledger;
    expect(grant.type).toBe("CreditsGranted");
    expect(grant.amount).toBe(1000);
    expect(grant.reason).toBe("signup");
    expect(grant.balanceAfter).toBe(1000);
    expect(Number.isInteger(grant.position)).toBe(true);
    expect(grant.position).toBeGreaterThan(0);
  });

  test("two signups get different keys, key ids, customers and org codes", async () => {
    expect(a.apiKey).not.toBe(b.apiKey);
    expect(a.keyId).not.toBe(b.keyId);
    expect(a.customerId).not.toBe(b.customerId);
    expect(a.orgCode).not.toBe(b.orgCode);
  });

  test("the same email again is ACCOUNT_EXISTS (409), whatever the domain's case, and returns no credential", async () => {
    const local = `exists-${Date.now()}`;
    await server.signup(`${local}@example.com`);
    for (const email of [
      `${local}@example.com`,
      `${local}@EXAMPLE.COM`,
      `${local}@Example.Com`,
      `  ${local}@example.com  `,
    ]) {
      const res = await server.api("POST", "/api/signup", { body: { email } });
      expectError(res, 409, "ACCOUNT_EXISTS");
      expect(JSON.stringify(res.body)).not.toContain("assay_sk_");
    }
  });

  test.each([
    ["empty", ""],
    ["no at sign", "not-an-email"],
    ["no domain", "someone@"],
    ["no local part", "@example.com"],
    ["single-label domain", "someone@localhost"],
    ["two at signs", "a@@example.com"],
    ["a space", "some one@example.com"],
    ["leading dot", ".someone@example.com"],
    ["double dot", "some..one@example.com"],
    ["domain starting with a hyphen", "someone@-example.com"],
    ["a number", 42],
    ["null", null],
  ])("an invalid email (%s) is SIGNUP_INVALID_EMAIL", async (_name, email) => {
    const res = await server.api("POST", "/api/signup", { body: { email } });
    expectError(res, 400, "SIGNUP_INVALID_EMAIL");
  });

  test("a signup body without email, with extra fields or not JSON is refused", async () => {
    expectError(await server.api("POST", "/api/signup", { body: {} }), 400, "MISSING_REQUIRED_FIELD");
    expectError(
      await server.api("POST", "/api/signup", { body: { email: uniqueEmail(), plan: "pro" } }),
      400,
      "UNKNOWN_FIELD",
    );
    expectError(
      await server.api("POST", "/api/signup", { rawBody: "{", headers: { "content-type": "application/json" } }),
      400,
      "INVALID_REQUEST_BODY",
    );
    expectError(
      await server.api("POST", "/api/signup", {
        rawBody: "email=a@example.com",
        headers: { "content-type": "text/plain" },
      }),
      400,
      "INVALID_REQUEST_BODY",
    );
  });
});

describe("keys, org and credits", () => {
  test("GET /api/keys lists the signup key with its scopes and never a secret or a hash", async () => {
    const res = await server.api("GET", "/api/keys", { key: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.keys).toHaveLength(1);
    const [k] = res.body.keys;
    expect(k.keyId).toBe(a.keyId);
    expect(k.status).toBe("active");
    expect([...k.scopes].sort()).toEqual([
      "account:read",
      "feedback:write",
      "jobs:read",
      "jobs:write",
      "webhooks:write",
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(a.apiKey);
    expect(text).not.toContain(sha256(a.apiKey));
    expect(text.toLowerCase()).not.toContain("hash");
    expect(text.toLowerCase()).not.toContain("secret");
    // A recognisable prefix is fine; the secret part is not.
    expect(a.apiKey.startsWith(k.displayPrefix)).toBe(true);
    expect(k.displayPrefix.length).toBeLessThan(a.apiKey.length - 32);
  });

  test("GET /api/org describes the key's organization", async () => {
    const res = await server.api("GET", "/api/org", { key: a.apiKey });
    expect(res.status).toBe(200);
    expect(res.body.customerId).toBe(a.customerId);
    expect(res.body.orgCode).toBe(a.orgCode);
    expect(res.body.email).toBe(a.email);
    expect(res.body.plan).toBe("free");
  });

  test("the API key is stored only as a SHA-256 hash: it appears nowhere in the SQLite file's tables", async () => {
    const db = new Database(join(server.dataDir, "assay.sqlite"), { readonly: true });
    try {
      const tables = db
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((t) => t.name);
      expect(tables).toContain("events");
      expect(tables).toContain("api_keys");
      for (const table of tables) {
        for (const row of db.query(`SELECT * FROM ${table}`).all()) {
          const text = JSON.stringify(row);
          expect(text).not.toContain(a.apiKey);
          expect(text).not.toContain(a.apiKey.slice("assay_sk_".length));
        }
      }
      const stored = db
        .query<{ secret_hash: string }, [string]>("SELECT secret_hash FROM api_keys WHERE key_id = ?")
        .get(a.keyId);
      expect(stored?.secret_hash).toBe(sha256(a.apiKey));
      const minted = db.query<{ data: string }, []>("SELECT data FROM events WHERE type = 'KeyMinted'").all();
      expect(minted.some((e) => JSON.parse(e.data).secretHash === sha256(a.apiKey))).toBe(true);
    } finally {
      db.close();
    }
  });
});

describe("authentication", () => {
  const routes: Array<[string, string, unknown?]> = [
    ["GET", "/api/credits"],
    ["GET", "/api/keys"],
    ["GET", "/api/org"],
    ["GET", "/api/jobs"],
    ["POST", "/api/jobs", htmlJob(PAGE, ["page-title"])],
    ["POST", "/api/jobs/estimate", htmlJob(PAGE, ["page-title"])],
  ];
  const badHeaders: Array<[string, string | undefined]> = [
    ["missing", undefined],
    ["not Bearer", "Basic dXNlcjpwYXNz"],
    ["Bearer without a key", "Bearer "],
    ["Bearer with two tokens", "Bearer assay_sk_a assay_sk_b"],
    ["an unknown key", "Bearer assay_sk_0000000000000000000000000000000000000000000"],
    ["an unprefixed key", "Bearer 0123456789abcdef"],
  ];
  for (const [method, path, body] of routes) {
    test.each(badHeaders)(`${method} ${path} with a %s credential is AUTH_REQUIRED`, async (_name, authorization) => {
      const res = await server.api(method, path, {
        body,
        headers: authorization === undefined ? {} : { authorization },
      });
      expectError(res, 401, "AUTH_REQUIRED");
    });
  }

  test("a tampered key (one character changed) is AUTH_REQUIRED", async () => {
    const last = a.apiKey.at(-1) === "A" ? "B" : "A";
    const res = await server.api("GET", "/api/credits", { key: a.apiKey.slice(0, -1) + last });
    expectError(res, 401, "AUTH_REQUIRED");
  });

  test("a revoked key is AUTH_REQUIRED; the organization's other keys keep working", async () => {
    const out = await runCli(["key", "mint", "--customer", b.customerId, "--scope", "account:read"], server.env);
    expect(out.code).toBe(0);
    const minted = JSON.parse(out.stdout);
    expect((await server.api("GET", "/api/org", { key: minted.apiKey })).status).toBe(200);
    // No HTTP route revokes with a key (session-only), so revoke as the operator would, in the service.
    server.assay.accounts.revokeKey(b.customerId, minted.keyId, { actor: { kind: "system" }, channel: "cli" });
    expectError(await server.api("GET", "/api/org", { key: minted.apiKey }), 401, "AUTH_REQUIRED");
    const keys = await server.api("GET", "/api/keys", { key: b.apiKey });
    expect(keys.status).toBe(200);
    const revoked = keys.body.keys.find((k: { keyId: string }) => k.keyId === minted.keyId);
    expect(revoked.status).toBe("revoked");
    expect(typeof revoked.revokedAt).toBe("string");
  });

  test("nothing was charged or created by refused job requests", async () => {
    expect(await balanceOf(a.apiKey)).toBe(1000);
    expect(await jobCountOf(a.apiKey)).toBe(0);
  });

  test.each([
    ["POST", "/api/keys"],
    ["POST", `/api/keys/KEYID/rotate`],
    ["POST", `/api/keys/KEYID/revoke`],
  ])("%s %s is session-only: a Bearer key gets AUTH_REQUIRED", async (method, path) => {
    const res = await server.api(method, path.replace("KEYID", a.keyId), { key: a.apiKey, body: {} });
    expectError(res, 401, "AUTH_REQUIRED");
    // The key is untouched: still one active key that still works.
    const keys = await server.api("GET", "/api/keys", { key: a.apiKey });
    expect(keys.status).toBe(200);
    expect(keys.body.keys.map((k: { keyId: string; status: string }) => [k.keyId, k.status])).toEqual([
      [a.keyId, "active"],
    ]);
  });
});

describe("scopes", () => {
  let readOnly: string;
  beforeAll(async () => {
    const out = await runCli(["key", "mint", "--customer", a.customerId, "--scope", "jobs:read"], server.env);
    expect(out.code).toBe(0);
    const minted = JSON.parse(out.stdout);
    expect(minted.customerId).toBe(a.customerId);
    expect(minted.scopes).toEqual(["jobs:read"]);
    readOnly = minted.apiKey;
  }, HOOK_TIMEOUT);

  test("a jobs:read key running a job is INSUFFICIENT_SCOPE (403) and nothing is charged or created", async () => {
    const run = await server.api("POST", "/api/jobs", { key: readOnly, body: htmlJob(PAGE, ["page-title"]) });
    expectError(run, 403, "INSUFFICIENT_SCOPE");
    expect(run.body.details.requiredScope).toBe("jobs:write");
    const estimate = await server.api("POST", "/api/jobs/estimate", {
      key: readOnly,
      body: htmlJob(PAGE, ["page-title"]),
    });
    expectError(estimate, 403, "INSUFFICIENT_SCOPE");
    expect(await balanceOf(a.apiKey)).toBe(1000);
    expect(await jobCountOf(a.apiKey)).toBe(0);
  });

  test("a jobs:read key may list jobs but not read the account", async () => {
    const jobs = await server.api("GET", "/api/jobs", { key: readOnly });
    expect(jobs.status).toBe(200);
    expect(jobs.body.jobs).toEqual([]);
    for (const path of ["/api/credits", "/api/keys", "/api/org"]) {
      const res = await server.api("GET", path, { key: readOnly });
      expectError(res, 403, "INSUFFICIENT_SCOPE");
      expect(res.body.details.requiredScope).toBe("account:read");
    }
  });

  test("the minted key shows up in GET /api/keys with its fixed scope", async () => {
    const res = await server.api("GET", "/api/keys", { key: a.apiKey });
    expect(res.body.keys).toHaveLength(2);
    const scopes = res.body.keys.map((k: { scopes: string[] }) => k.scopes.join(",")).sort();
    expect(scopes).toContain("jobs:read");
    expect(JSON.stringify(res.body)).not.toContain(readOnly);
  });

  test("key mint for an unknown customer fails and mints nothing", async () => {
    const out = await runCli(["key", "mint", "--customer", "cus_doesnotexist", "--scope", "jobs:read"], server.env);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain("CUSTOMER_NOT_FOUND");
  });
});

describe("customerId resolution", () => {
  const UNKNOWN = "cus_0000000000000000000000";

  test.each(["/api/credits", "/api/keys", "/api/org", "/api/jobs"])(
    "GET %s with another tenant's customerId is CUSTOMER_SCOPE_MISMATCH",
    async (path) => {
      const res = await server.api("GET", `${path}?customerId=${b.customerId}`, { key: a.apiKey });
      expectError(res, 403, "CUSTOMER_SCOPE_MISMATCH");
      expect(JSON.stringify(res.body)).not.toContain(b.email);
    },
  );

  test.each(["/api/credits", "/api/keys", "/api/org", "/api/jobs"])(
    "GET %s with an unknown customerId is CUSTOMER_NOT_FOUND",
    async (path) => {
      const res = await server.api("GET", `${path}?customerId=${UNKNOWN}`, { key: a.apiKey });
      expectError(res, 404, "CUSTOMER_NOT_FOUND");
    },
  );

  test.each(["/api/credits", "/api/org"])("GET %s with the key's own customerId acts as omitting it", async (path) => {
    const own = await server.api("GET", `${path}?customerId=${a.customerId}`, { key: a.apiKey });
    const omitted = await server.api("GET", path, { key: a.apiKey });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(omitted.body);
  });

  for (const endpoint of ["/api/jobs", "/api/jobs/estimate"]) {
    test(`POST ${endpoint} naming another tenant in the body or the query is CUSTOMER_SCOPE_MISMATCH and charges no one`, async () => {
      const inBody = await server.api("POST", endpoint, {
        key: a.apiKey,
        body: htmlJob(PAGE, ["page-title"], { customerId: b.customerId }),
      });
      expectError(inBody, 403, "CUSTOMER_SCOPE_MISMATCH");
      const inQuery = await server.api("POST", `${endpoint}?customerId=${b.customerId}`, {
        key: a.apiKey,
        body: htmlJob(PAGE, ["page-title"]),
      });
      expectError(inQuery, 403, "CUSTOMER_SCOPE_MISMATCH");
      for (const acct of [a, b]) {
        expect(await balanceOf(acct.apiKey)).toBe(1000);
        expect(await jobCountOf(acct.apiKey)).toBe(0);
      }
    });

    test(`POST ${endpoint} naming an unknown customer is CUSTOMER_NOT_FOUND and charges nothing`, async () => {
      const inBody = await server.api("POST", endpoint, {
        key: a.apiKey,
        body: htmlJob(PAGE, ["page-title"], { customerId: UNKNOWN }),
      });
      expectError(inBody, 404, "CUSTOMER_NOT_FOUND");
      const inQuery = await server.api("POST", `${endpoint}?customerId=${UNKNOWN}`, {
        key: a.apiKey,
        body: htmlJob(PAGE, ["page-title"]),
      });
      expectError(inQuery, 404, "CUSTOMER_NOT_FOUND");
      expect(await balanceOf(a.apiKey)).toBe(1000);
      expect(await jobCountOf(a.apiKey)).toBe(0);
    });
  }

  test("a body naming the key's own customerId runs as the key's organization", async () => {
    const res = await server.api("POST", "/api/jobs/estimate", {
      key: a.apiKey,
      body: htmlJob(PAGE, ["page-title"], { customerId: a.customerId }),
    });
    expect(res.status).toBe(200);
    expect(res.body.balance).toBe(1000);
  });
});
