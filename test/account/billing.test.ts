import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  eventCount,
  eventsOf,
  expectError,
  runCli,
  startServer,
  uniqueEmail,
  type TestServer,
} from "../support/harness";
import { inSession, signIn, startServerWithRelay, type MailRelay } from "../support/mail-relay";
import { startFakeStripe, type FakeStripe } from "../support/stripe-server";
import { STATIC_HTML_EXAMPLE } from "../../src/operations/jobs/examples";

/**
 * The Stripe billing provider against a fake Stripe speaking Stripe's HTTP API. Plan resolutions are fresh for
 * 2 s and served through an outage up to 4 s old, so the outage windows pass in seconds; a new customer shows in
 * the fake's search 5 s after it is created (Stripe's search lags up to a minute), so only the customer linked
 * in the log is found at once.
 */
const FRESH = 2;
const STALE = 4;
const SEARCH_LAG = 5;

let stripe: FakeStripe;
let server: TestServer;
let relay: MailRelay;
let stopServer: () => Promise<void>;
let freePrice: string;
beforeAll(async () => {
  stripe = startFakeStripe();
  stripe.searchLagSeconds = SEARCH_LAG;
  freePrice = stripe.addPlanPrice({ assay_plan: "free" });
  ({
    server,
    relay,
    stop: stopServer,
  } = await startServerWithRelay({
    ASSAY_BILLING_PROVIDER: "stripe",
    ASSAY_STRIPE_SECRET_KEY: stripe.secretKey,
    ASSAY_STRIPE_API_BASE: stripe.url,
    ASSAY_STRIPE_FREE_PRICE: freePrice,
    ASSAY_PLAN_CACHE_SECONDS: String(FRESH),
    ASSAY_PLAN_STALE_SECONDS: String(STALE),
  }));
});
afterAll(async () => {
  await stopServer();
  stripe.close();
});

const sleep = (s: number) => new Promise((r) => setTimeout(r, s * 1000));
const customerOf = (customerId: string) =>
  stripe.customers.find((c) => c.metadata?.assay_customer_id === customerId && !c.deleted)!;
const links = (customerId: string) =>
  eventsOf(server).flatMap((e) =>
    e.type === "BillingCustomerLinked" && e.data.customerId === customerId
      ? [{ data: e.data, metadata: e.metadata }]
      : [],
  );

/** A new organization whose free subscription is replaced by one to a product with this metadata. */
async function orgOnPlan(metadata: Record<string, string>) {
  const org = await server.signup();
  stripe.cancelAll(org.customerId);
  stripe.subscribe(org.customerId, stripe.addPlanPrice(metadata));
  return org;
}

/**
 * The job and its estimate are refused with this code, retryable only for an outage (the others wait for the
 * operator or the billing account), and nothing was charged or created: the log and the balance are as before.
 */
async function expectJobRefused(key: string, status: number, code: string, on: TestServer = server) {
  const server = on;
  const before = eventCount(server);
  const balance = (await server.api("GET", "/api/credits", { key })).body.balance;
  for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
    const res = await server.api("POST", path, { key, body: STATIC_HTML_EXAMPLE });
    expectError(res, status, code);
    expect(res.body.retryable).toBe(code === "BILLING_PROVIDER_UNREACHABLE");
  }
  expect(eventCount(server)).toBe(before);
  expect((await server.api("GET", "/api/credits", { key })).body.balance).toBe(balance);
  expect((await server.api("GET", "/api/jobs", { key })).body.jobs).toEqual([]);
  return (await server.api("POST", "/api/jobs", { key, body: STATIC_HTML_EXAMPLE })).body;
}

describe("the Stripe billing provider", () => {
  test("signup provisions a Stripe customer for the organization and subscribes it to the free price, and says its billing is ready", async () => {
    const org = await server.signup();
    expect(org.billing).toEqual({
      provider: "stripe",
      ready: true,
      plan: "free",
      code: null,
      message: "Jobs, estimates and credits are answered under plan free.",
    });
    const customer = stripe.customers.find((c) => c.metadata?.assay_customer_id === org.customerId)!;
    expect(customer.email).toBe(org.email);
    const subs = stripe.subscriptions.filter((s) => s.customer === customer.id);
    expect(subs.map((s) => s.status)).toEqual(["active"]);
    const org1 = await server.api("GET", "/api/org", { key: org.apiKey });
    expect(org1.status).toBe(200);
    expect(org1.body.plan).toBe("free");
    expect(org1.body.monthlyCredits).toBe(server.assay.config.monthlyFreeCredits);
  });

  test("signup then a job at once: provisioning links the customer in the log, and the plan is read from it by id, not by the lagging search", async () => {
    const atSignup = stripe.requests.length;
    const org = await server.signup();
    const customer = customerOf(org.customerId);
    // Signup read the plan it reports (billing) from the customer it had just created: by id, not by search.
    const afterCreate = stripe.requests.slice(stripe.requests.indexOf("POST /v1/customers", atSignup));
    expect(afterCreate).toContain(`GET /v1/customers/${customer.id}`);
    expect(afterCreate).not.toContain("GET /v1/customers/search");
    expect(org.billing.ready).toBe(true);
    expect(links(org.customerId).map((e) => [e.data, e.metadata.actor.kind])).toEqual([
      [{ customerId: org.customerId, provider: "stripe", billingCustomerId: customer.id }, "system"],
    ]);
    // Stripe's search does not have it yet.
    const searched = await fetch(
      `${stripe.url}/v1/customers/search?query=${encodeURIComponent(`metadata['assay_customer_id']:'${org.customerId}'`)}`,
      {
        headers: { authorization: `Bearer ${stripe.secretKey}` },
      },
    );
    expect((await searched.json()).data).toEqual([]);
    const asked = stripe.requests.length;
    const run = await server.api("POST", "/api/jobs", { key: org.apiKey, body: STATIC_HTML_EXAMPLE });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe("completed");
    const since = stripe.requests.slice(asked);
    expect(since).toContain(`GET /v1/customers/${customer.id}`);
    expect(since).not.toContain("GET /v1/customers/search");
  });

  test("an organization never linked (its customer made outside Assay) is found by search, once Stripe's search has it", async () => {
    stripe.stop();
    const org = await server.signup();
    stripe.restart();
    expect(links(org.customerId)).toEqual([]);
    stripe.createCustomer(org.customerId, org.email);
    stripe.subscribe(org.customerId, stripe.addPlanPrice({ assay_plan: "team", assay_monthly_credits: "700" }));
    // Not yet searchable: no customer, as Stripe answers in the first moments.
    await expectJobRefused(org.apiKey, 503, "BILLING_NOT_PROVISIONED");
    await sleep(SEARCH_LAG);
    const res = await server.api("GET", "/api/org", { key: org.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: "team", monthlyCredits: 700 });
  });

  test("a deleted linked customer is not provisioned; provisioning again replaces it and links the new one", async () => {
    const org = await server.signup();
    const first = customerOf(org.customerId).id;
    expect((await server.api("GET", "/api/org", { key: org.apiKey })).status).toBe(200);
    stripe.deleteCustomer(first);
    await sleep(FRESH + 0.2);
    const body = await expectJobRefused(org.apiKey, 503, "BILLING_NOT_PROVISIONED");
    expect(body.details).toEqual({ provider: "stripe" });
    expect(body.message).toBe(`Stripe customer ${first}, linked to organization ${org.customerId}, is deleted.`);

    const cli = await runCli(["billing", "provision", "--customer", org.customerId], server.env);
    expect([cli.code, cli.stderr]).toEqual([0, ""]);
    const second = customerOf(org.customerId).id;
    expect(second).not.toBe(first);
    expect(cli.stdout).toContain(
      `linked Stripe customer ${first} is deleted; created Stripe customer ${second}; subscribed to the free price ${freePrice}`,
    );
    expect(
      links(org.customerId).map((e) => [e.data.billingCustomerId, e.metadata.actor.kind, e.metadata.channel]),
    ).toEqual([
      [first, "system", "system"],
      [second, "operator", "cli"],
    ]);
    expect((await server.api("GET", "/api/org", { key: org.apiKey })).body.plan).toBe("free");
  });

  test("the plan is Stripe's: an admin's change and the operator's plan set are PLAN_MANAGED_BY_BILLING, nothing changed; /api/plans says so", async () => {
    const org = await server.signup();
    const plans = (await server.api("GET", "/api/plans", { key: org.apiKey })).body;
    expect([plans.current, plans.billingProvider, plans.planChangeable]).toEqual(["free", "stripe", false]);

    const admin = await signIn(server, relay, uniqueEmail("billing-admin"));
    // A first sign-in provisions the organization it opens without waiting for it; count from its link on.
    for (let waited = 0; !links(admin.customerId).length && waited < 100; waited++) await sleep(0.1);
    expect(links(admin.customerId)).toHaveLength(1);
    const before = eventCount(server);
    // Refused before the code is looked at: no change is Assay's to make.
    for (const planCode of ["team", "platinum"]) {
      const res = await server.api("POST", "/api/org/plan", { headers: inSession(admin), body: { planCode } });
      expectError(res, 409, "PLAN_MANAGED_BY_BILLING");
      expect(res.body.details).toEqual({ provider: "stripe" });
      expect(res.body.message).toBe(
        "The plan is managed by the billing provider (stripe): change the subscription there.",
      );
    }
    const cli = await runCli(["plan", "set", "--customer", org.customerId, "--plan", "team"], server.env);
    expect([cli.code, cli.stdout, cli.stderr]).toEqual([
      1,
      "",
      "PLAN_MANAGED_BY_BILLING: The plan is managed by the billing provider (stripe): change the subscription there.\n",
    ]);
    expect(eventCount(server)).toBe(before);
    expect((await server.api("GET", "/api/org", { key: org.apiKey })).body.plan).toBe("free");
  });

  test("a paid subscription's plan and its product's credits resolve, and /api/org names them", async () => {
    const org = await orgOnPlan({ assay_plan: "team", assay_monthly_credits: "25000" });
    const res = await server.api("GET", "/api/org", { key: org.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ customerId: org.customerId, plan: "team", monthlyCredits: 25000 });
    const resolved = await server.assay.plans.resolve(org.customerId);
    expect(resolved).toMatchObject({ monthlyCredits: 25000, source: "stripe" });
    expect(resolved.plan.name).toBe("Team");
  });

  test("a trialing subscription is a live agreement; a canceled one is none", async () => {
    const org = await server.signup();
    stripe.cancelAll(org.customerId);
    stripe.subscribe(
      org.customerId,
      stripe.addPlanPrice({ assay_plan: "team", assay_monthly_credits: "500" }),
      "trialing",
    );
    expect((await server.api("GET", "/api/org", { key: org.apiKey })).body.plan).toBe("team");
  });

  test("no live subscription: BILLING_NOT_PROVISIONED, no default plan, nothing charged or created", async () => {
    const org = await server.signup();
    stripe.cancelAll(org.customerId);
    const body = await expectJobRefused(org.apiKey, 503, "BILLING_NOT_PROVISIONED");
    expect(body.details).toEqual({ provider: "stripe" });
    expect(body.message).toContain("no active subscription");
    expectError(await server.api("GET", "/api/org", { key: org.apiKey }), 503, "BILLING_NOT_PROVISIONED");
  });

  test("a product without a usable entitlement, or naming a plan the catalog lacks: PLAN_NOT_PUBLISHED, nothing charged", async () => {
    const cases: Array<[Record<string, string>, Record<string, unknown>]> = [
      [
        { assay_plan: "team", assay_monthly_credits: "2147483647" },
        { planCode: "team", monthlyCredits: 2147483647, provider: "stripe" },
      ],
      [
        { assay_plan: "team", assay_monthly_credits: "0" },
        { planCode: "team", monthlyCredits: 0, provider: "stripe" },
      ],
      [
        { assay_plan: "team", assay_monthly_credits: "-5" },
        { planCode: "team", monthlyCredits: -5, provider: "stripe" },
      ],
      [{ assay_plan: "team" }, { planCode: "team", monthlyCredits: null, provider: "stripe" }],
      [
        { assay_plan: "platinum", assay_monthly_credits: "100" },
        { planCode: "platinum", provider: "stripe" },
      ],
    ];
    for (const [metadata, details] of cases) {
      const org = await orgOnPlan(metadata);
      const body = await expectJobRefused(org.apiKey, 503, "PLAN_NOT_PUBLISHED");
      expect(body.details).toEqual(details);
    }
  });

  test("Stripe failing (500) with nothing kept: BILLING_PROVIDER_UNREACHABLE, retryable, nothing charged", async () => {
    const org = await server.signup();
    stripe.failing = true;
    try {
      const body = await expectJobRefused(org.apiKey, 503, "BILLING_PROVIDER_UNREACHABLE");
      expect(body.details).toEqual({ provider: "stripe", staleLimitSeconds: STALE, lastResolvedSecondsAgo: null });
    } finally {
      stripe.failing = false;
    }
  });

  test("a fresh resolution keeps Stripe off the hot path; through an outage a kept one is served until it is too old", async () => {
    const org = await server.signup();
    expect((await server.api("GET", "/api/org", { key: org.apiKey })).status).toBe(200);
    const asked = stripe.requests.length;
    const estimate = await server.api("POST", "/api/jobs/estimate", { key: org.apiKey, body: STATIC_HTML_EXAMPLE });
    expect(estimate.status).toBe(200);
    expect(stripe.requests.length).toBe(asked);

    stripe.stop();
    try {
      await sleep(FRESH + 0.2);
      // Past fresh, within stale: Stripe is asked, cannot be reached, and the kept plan is served.
      const served = await server.api("GET", "/api/org", { key: org.apiKey });
      expect(served.status).toBe(200);
      expect(served.body.plan).toBe("free");
      await sleep(STALE - FRESH);
      const body = await expectJobRefused(org.apiKey, 503, "BILLING_PROVIDER_UNREACHABLE");
      expect(body.details.provider).toBe("stripe");
      expect(body.details.staleLimitSeconds).toBe(STALE);
      expect(body.details.lastResolvedSecondsAgo).toBeGreaterThanOrEqual(STALE);

      // Signing up during the outage still opens the account; it is unprovisioned until the operator provisions it.
      const late = await server.signup();
      expect(stripe.customers.some((c) => c.metadata?.assay_customer_id === late.customerId)).toBe(false);
      expect(late.billing).toMatchObject({
        provider: "stripe",
        ready: false,
        plan: null,
        code: "BILLING_PROVIDER_UNREACHABLE",
      });
      stripe.restart();
      await expectJobRefused(late.apiKey, 503, "BILLING_NOT_PROVISIONED");
      const cli = await runCli(["billing", "provision", "--customer", late.customerId], server.env);
      expect(cli.stderr).toBe("");
      expect(cli.code).toBe(0);
      expect(cli.stdout).toContain(`subscribed to the free price ${freePrice}`);
      expect((await server.api("GET", "/api/org", { key: late.apiKey })).body.plan).toBe("free");
      // Provisioning again changes nothing.
      const again = await runCli(["billing", "provision", "--customer", late.customerId], server.env);
      expect(again.stdout).toMatch(/exists; subscription sub_\w+ is active/);
      expect(stripe.customers.filter((c) => c.metadata?.assay_customer_id === late.customerId)).toHaveLength(1);
      // The operator's provisioning linked the customer it created, once.
      expect(links(late.customerId).map((e) => e.data.billingCustomerId)).toEqual([customerOf(late.customerId).id]);
    } finally {
      stripe.restart();
    }
  });
});

describe("the Stripe provider without a free price (ASSAY_STRIPE_FREE_PRICE unset)", () => {
  let bare: TestServer;
  beforeAll(async () => {
    bare = await startServer({
      ASSAY_BILLING_PROVIDER: "stripe",
      ASSAY_STRIPE_SECRET_KEY: stripe.secretKey,
      ASSAY_STRIPE_API_BASE: stripe.url,
    });
  });
  afterAll(() => bare.stop());

  /** What every refusal of an unsubscribed organization says, and signup's answer must say with the key. */
  const notReady = (_customerId: string) => ({
    provider: "stripe",
    ready: false,
    plan: null,
    code: "BILLING_NOT_PROVISIONED",
    message: expect.stringContaining(
      `has no active subscription. Until billing is set up, this organization's jobs, estimates, GET /api/credits and GET /api/org answer BILLING_NOT_PROVISIONED.`,
    ),
  });

  test("signup answers 201 with the key and says its billing is not ready (BILLING_NOT_PROVISIONED), which is what its jobs then get", async () => {
    const res = await bare.api("POST", "/api/signup", { body: { email: uniqueEmail("no-free-price") } });
    expect(res.status).toBe(201);
    const { customerId, apiKey, billing } = res.body;
    expect(billing).toEqual(notReady(customerId));
    expect(billing.message).toContain(`assay billing provision --customer ${customerId}`);
    // The customer exists (provisioning made it), with no subscription to read a plan from.
    expect(stripe.subscriptions.filter((sub) => sub.customer === customerOf(customerId).id)).toEqual([]);
    const refusal = await expectJobRefused(apiKey, 503, "BILLING_NOT_PROVISIONED", bare);
    expect(billing.message.startsWith(refusal.message)).toBe(true);
    expectError(await bare.api("GET", "/api/org", { key: apiKey }), 503, "BILLING_NOT_PROVISIONED");

    // What docs/plans-and-billing.md tells the operator: subscribe the customer (or set ASSAY_STRIPE_FREE_PRICE and provision); then the same key works.
    stripe.subscribe(customerId, freePrice);
    expect((await bare.api("GET", "/api/org", { key: apiKey })).body.plan).toBe("free");
  });

  test("MCP create_account says the same, in its result and its summary", async () => {
    const client = new Client({ name: "billing-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${bare.baseUrl}/mcp`)));
    try {
      const result = (await client.callTool({
        name: "create_account",
        arguments: { email: uniqueEmail("no-free-price-mcp") },
      })) as {
        isError?: boolean;
        structuredContent: any;
        content: Array<{ type: string; text: string }>;
      };
      expect(result.isError).toBeFalsy();
      const account = result.structuredContent;
      expect(account.billing).toEqual(notReady(account.customerId));
      expect(result.content[0]!.text).toContain(
        "Billing is not ready: its jobs and estimates answer BILLING_NOT_PROVISIONED",
      );
      await expectJobRefused(account.apiKey, 503, "BILLING_NOT_PROVISIONED", bare);
    } finally {
      await client.close();
    }
  });
});
