import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eventCount, expectError, startServer, uniqueEmail, type TestServer } from "./support/harness";
import { addressGroup } from "../src/services/address-group";

/**
 * The free grant is not a faucet: POST /api/signup and the create_account tool open at most
 * ASSAY_SIGNUPS_PER_ADDRESS accounts per client address per ASSAY_SIGNUP_WINDOW_SECONDS. Past it, 429
 * SIGNUP_RATE_LIMITED with Retry-After, and nothing is created.
 */
setDefaultTimeout(120_000);
const LIMIT = 3;

const signup = (server: TestServer, email: string, headers: Record<string, string> = {}) =>
  server.api("POST", "/api/signup", { body: { email }, headers });

describe("signups per client address", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_SIGNUPS_PER_ADDRESS: String(LIMIT), ASSAY_SIGNUP_WINDOW_SECONDS: "600" });
  });
  afterAll(() => server.stop());

  test("refusals that open nothing do not count; the signup past the limit is 429 with Retry-After and creates nothing", async () => {
    const first = await signup(server, uniqueEmail("limit"));
    expect(first.status).toBe(201);
    // An existing account and an invalid email open nothing, so they spend nothing of the budget.
    expectError(await signup(server, first.body.email), 409, "ACCOUNT_EXISTS");
    expectError(await signup(server, "not-an-email"), 400, "SIGNUP_INVALID_EMAIL");
    for (let i = 1; i < LIMIT; i++) expect((await signup(server, uniqueEmail("limit"))).status).toBe(201);

    const before = eventCount(server);
    const refused = await signup(server, uniqueEmail("limit"));
    expectError(refused, 429, "SIGNUP_RATE_LIMITED");
    expect(refused.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: LIMIT, windowSeconds: 600 });
    expect(refused.body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.body.details.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.retryAfterSeconds));
    expect(eventCount(server)).toBe(before);
  });

  test("an X-Forwarded-For header does not buy a new budget unless the operator trusts a proxy", async () => {
    const before = eventCount(server);
    expectError(await signup(server, uniqueEmail("spoof"), { "x-forwarded-for": "203.0.113.9" }), 429, "SIGNUP_RATE_LIMITED");
    expect(eventCount(server)).toBe(before);
  });

  test("the create_account tool counts against the same budget", async () => {
    const client = new Client({ name: "assay-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
    const before = eventCount(server);
    const result = (await client.callTool({ name: "create_account", arguments: { email: uniqueEmail("mcp") } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: "SIGNUP_RATE_LIMITED", details: { limit: LIMIT } });
    expect(eventCount(server)).toBe(before);
    await client.close();
  });
});

describe("behind a trusted proxy (ASSAY_TRUST_FORWARDED_FOR=1)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_SIGNUPS_PER_ADDRESS: "1", ASSAY_TRUST_FORWARDED_FOR: "1" });
  });
  afterAll(() => server.stop());

  test("each client address the proxy reports (the last X-Forwarded-For entry) has its own budget", async () => {
    const via = (client: string) => ({ "x-forwarded-for": `198.51.100.1, ${client}` });
    expect((await signup(server, uniqueEmail("a"), via("203.0.113.1"))).status).toBe(201);
    expectError(await signup(server, uniqueEmail("a"), via("203.0.113.1")), 429, "SIGNUP_RATE_LIMITED");
    expect((await signup(server, uniqueEmail("b"), via("203.0.113.2"))).status).toBe(201);
    // Addresses in one IPv6 /64 share a budget: one host commonly holds the whole prefix.
    expect((await signup(server, uniqueEmail("c"), via("2001:db8:1:2::1"))).status).toBe(201);
    expectError(await signup(server, uniqueEmail("c"), via("2001:db8:1:2:ffff::9")), 429, "SIGNUP_RATE_LIMITED");
  });
});

test("addressGroup: IPv4 as is (also IPv4-mapped), IPv6 by its /64", () => {
  expect(addressGroup("203.0.113.7")).toBe("203.0.113.7");
  expect(addressGroup("::ffff:203.0.113.7")).toBe("203.0.113.7");
  expect(addressGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
  expect(addressGroup("2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
  expect(addressGroup("::1")).toBe("0:0:0:0::/64");
  expect(addressGroup("fe80::1")).toBe("fe80:0:0:0::/64");
});
