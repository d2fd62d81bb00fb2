import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eventCount, eventsOf, expectError, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { openLink, startServerWithRelay, type MailRelay } from "../support/mail-relay";
import { postForm } from "../support/pages";
import { addressGroup } from "../../src/services/limits";

/**
 * The free grant is not a faucet: POST /api/signup, the create_account tool and a first sign-in (by link here; by
 * OpenID Connect in test/session/oidc.test.ts) open at most ASSAY_SIGNUPS_PER_ADDRESS organizations per client address
 * per ASSAY_SIGNUP_WINDOW_SECONDS, one budget for all. Past it, 429 SIGNUP_RATE_LIMITED with Retry-After, and
 * nothing is created. Signup and create_account are also bound by ASSAY_SIGNIN_DOMAINS, as sign-in is.
 */
setDefaultTimeout(120_000);
const LIMIT = 3;

const signup = (server: TestServer, email: string, headers: Record<string, string> = {}) =>
  server.api("POST", "/api/signup", { body: { email }, headers });

async function mcpClient(server: TestServer): Promise<Client> {
  const client = new Client({ name: "assay-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`)));
  return client;
}

const createAccount = async (client: Client, email: string) =>
  (await client.callTool({ name: "create_account", arguments: { email } })) as CallToolResult;

/** An organization count: the AccountOpened events of the log. */
const organizations = (server: TestServer) => eventsOf(server).filter((e) => e.type === "AccountOpened").length;

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
    expectError(
      await signup(server, uniqueEmail("spoof"), { "x-forwarded-for": "203.0.113.9" }),
      429,
      "SIGNUP_RATE_LIMITED",
    );
    expect(eventCount(server)).toBe(before);
  });

  test("the create_account tool counts against the same budget", async () => {
    const client = await mcpClient(server);
    const before = eventCount(server);
    const result = await createAccount(client, uniqueEmail("mcp"));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: "SIGNUP_RATE_LIMITED", details: { limit: LIMIT } });
    expect(eventCount(server)).toBe(before);
    await client.close();
  });
});

describe("one budget for every way to open an organization", () => {
  const BUDGET = 2;
  let relay: MailRelay;
  let server: TestServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ relay, server, stop } = await startServerWithRelay({
      ASSAY_SIGNUPS_PER_ADDRESS: String(BUDGET),
      ASSAY_SIGNUP_WINDOW_SECONDS: "600",
    }));
  });
  afterAll(() => stop());

  const askLink = (email: string) => server.api("POST", "/api/session/email", { body: { email } });

  test("a first sign-in by link spends it; past it, signup, create_account, a new email's link and its use are all refused; known emails still sign in", async () => {
    const first = uniqueEmail("link-first");
    const late = uniqueEmail("link-late");
    // Asking for a link only checks the budget: both are sent while it lasts.
    expect([(await askLink(first)).status, (await askLink(late)).status]).toEqual([202, 202]);
    const lateLink = await relay.linkFor(late);
    expect((await openLink(await relay.linkFor(first))).status).toBe(303);
    const account = (await signup(server, uniqueEmail("budget"))).body;
    expect(organizations(server)).toBe(BUDGET);

    const before = { events: eventCount(server), mail: relay.messages.length };
    expectError(await signup(server, uniqueEmail("budget")), 429, "SIGNUP_RATE_LIMITED");
    // The link asked for earlier would open an organization when used from here: refused, and not used up.
    const used = await openLink(lateLink);
    const refused = { status: used.status, body: (await used.json()) as any, headers: used.headers };
    expectError(refused, 429, "SIGNUP_RATE_LIMITED");
    expect(refused.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: BUDGET, windowSeconds: 600 });
    expect(used.headers.get("retry-after")).toBe(String(refused.body.details.retryAfterSeconds));
    expect(used.headers.get("set-cookie")).toBeNull();
    // A link for an email that would open one is refused when asked for, on the API and on the page: nothing sent.
    for (let i = 0; i < 5; i++) {
      const asked = await askLink(uniqueEmail("link-flood"));
      expectError(asked, 429, "SIGNUP_RATE_LIMITED");
      expect(asked.headers.get("retry-after")).toBe(String(asked.body.details.retryAfterSeconds));
    }
    const onPage = await postForm(server, "/signin", { email: uniqueEmail("page-flood") });
    expect(onPage.status).toBe(429);
    expect(Number(onPage.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(onPage.text).toContain("No link was sent.");
    const client = await mcpClient(server);
    const tool = await createAccount(client, uniqueEmail("mcp-budget"));
    expect(tool.isError).toBe(true);
    expect(tool.structuredContent).toMatchObject({ code: "SIGNUP_RATE_LIMITED", details: { limit: BUDGET } });
    await client.close();
    expect({ events: eventCount(server), mail: relay.messages.length }).toEqual(before);
    expect(organizations(server)).toBe(BUDGET);

    // Emails that open nothing still get links and sign in: a signup email claims its organization, a person signs in again.
    for (const email of [account.email, first]) {
      expect((await askLink(email)).status).toBe(202);
      expect((await openLink(await relay.linkFor(email))).status).toBe(303);
    }
    expect(organizations(server)).toBe(BUDGET);
  });
});

describe("a link asked for from one address and used from another (behind a trusted proxy)", () => {
  let relay: MailRelay;
  let server: TestServer;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ relay, server, stop } = await startServerWithRelay({
      ASSAY_SIGNUPS_PER_ADDRESS: "1",
      ASSAY_TRUST_FORWARDED_FOR: "1",
    }));
  });
  afterAll(() => stop());

  test("the address that uses the link pays for the organization it opens", async () => {
    const from = (client: string) => ({ "x-forwarded-for": client });
    const spent = "203.0.113.10";
    const fresh = "203.0.113.20";
    expect((await signup(server, uniqueEmail("spent"), from(spent))).status).toBe(201);
    const email = uniqueEmail("travelling");
    expectError(
      await server.api("POST", "/api/session/email", { body: { email }, headers: from(spent) }),
      429,
      "SIGNUP_RATE_LIMITED",
    );
    expect((await server.api("POST", "/api/session/email", { body: { email }, headers: from(fresh) })).status).toBe(
      202,
    );
    const link = await relay.linkFor(email);
    const before = eventCount(server);
    const refused = await fetch(link, { redirect: "manual", headers: from(spent) });
    expect([refused.status, ((await refused.json()) as any).code]).toEqual([429, "SIGNUP_RATE_LIMITED"]);
    expect(eventCount(server)).toBe(before);
    expect((await fetch(link, { redirect: "manual", headers: from(fresh) })).status).toBe(303);
    // Now that address has opened its one organization too.
    expectError(await signup(server, uniqueEmail("fresh"), from(fresh)), 429, "SIGNUP_RATE_LIMITED");
  });
});

describe("signup and create_account are bound by ASSAY_SIGNIN_DOMAINS", () => {
  const INVITED = "invited.example";
  let server: TestServer;
  beforeAll(async () => {
    // One organization per address: a refused signup must not spend it.
    server = await startServer({ ASSAY_SIGNIN_DOMAINS: INVITED, ASSAY_SIGNUPS_PER_ADDRESS: "1" });
  });
  afterAll(() => server.stop());

  test("an email outside the domains is 403 UNAUTHORIZED_DOMAIN on both, and nothing is created; one inside opens its account", async () => {
    const before = eventCount(server);
    const refused = await signup(server, uniqueEmail("outsider"));
    expectError(refused, 403, "UNAUTHORIZED_DOMAIN");
    expect(refused.body.details).toEqual({ domain: "example.com" });
    const client = await mcpClient(server);
    const tool = await createAccount(client, uniqueEmail("outsider-mcp"));
    expect(tool.isError).toBe(true);
    expect(tool.structuredContent).toMatchObject({ code: "UNAUTHORIZED_DOMAIN", details: { domain: "example.com" } });
    expect(eventCount(server)).toBe(before);
    const inside = await createAccount(client, `insider-${Date.now()}@${INVITED.toUpperCase()}`);
    expect(inside.isError).toBeFalsy();
    expect(inside.structuredContent).toMatchObject({ email: expect.stringMatching(new RegExp(`@${INVITED}$`)) });
    await client.close();
    expect(organizations(server)).toBe(1);
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
