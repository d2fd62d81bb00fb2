import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendTo,
  eventCount,
  eventsOf,
  expectError,
  htmlJob,
  runCli,
  startServer,
  tempDataDir,
  uniqueEmail,
  type TestServer,
} from "../support/harness";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { checkToolResult } from "../support/contracts";
import {
  inSession,
  signIn,
  signInThrough,
  startServerWithRelay,
  type MailRelay,
  type SignedIn,
} from "../support/mail-relay";

const FEATURES_ALL = { website_checks: true, email_checks: true, custom_parameters: true, extra_credit_clients: true };
const ALL_SCOPES = ["jobs:read", "jobs:write", "account:read", "feedback:write", "webhooks:write"];
const periodAt = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 7);

let server: TestServer;
let relay: MailRelay;
let stopAll: () => Promise<void>;
beforeAll(async () => {
  // No sweep: the grants these tests see are the ones requests make. Private targets: a url job's host is this server.
  ({
    server,
    relay,
    stop: stopAll,
  } = await startServerWithRelay({ ASSAY_GRANT_SWEEP_SECONDS: "0", ASSAY_ALLOW_PRIVATE_TARGETS: "1" }));
});
afterAll(() => stopAll());

/** An organization opened by its admin's first sign-in, moved to `planCode` by that admin, with a key for the API. */
async function orgOn(planCode: string): Promise<{ admin: SignedIn; key: string }> {
  const admin = await signIn(server, relay, uniqueEmail(`plan-${planCode}`));
  if (planCode !== "free") {
    const changed = await server.api("POST", "/api/org/plan", { headers: inSession(admin), body: { planCode } });
    if (changed.status !== 200)
      throw new Error(`plan change refused: ${changed.status} ${JSON.stringify(changed.body)}`);
  }
  const minted = await server.api("POST", "/api/keys", {
    headers: inSession(admin),
    body: { name: "plan test", scopes: ALL_SCOPES },
  });
  return { admin, key: minted.body.apiKey };
}

/** Refused before work: no event, no job, the balance as it was. */
async function expectNothingMoved(key: string, run: () => Promise<unknown>) {
  const before = {
    events: eventCount(server),
    credits: (await server.api("GET", "/api/credits", { key })).body.balance,
  };
  await run();
  expect(eventCount(server)).toBe(before.events);
  expect((await server.api("GET", "/api/credits", { key })).body.balance).toBe(before.credits);
  expect((await server.api("GET", "/api/jobs", { key })).body.jobs).toEqual([]);
}

describe("the plan catalog", () => {
  test("a bad ASSAY_PLANS_FILE stops the start, naming the file and the problem", async () => {
    const dir = tempDataDir();
    const cases: Array<[string, unknown, RegExp]> = [
      ["not-json.json", "{ plans: ", /cannot be read as JSON/],
      [
        "no-free.json",
        {
          plans: [
            { code: "team", name: "Team", paid: true, monthlyCredits: 5, features: FEATURES_ALL, mailClients: "all" },
          ],
        },
        /no plan with code "free"/,
      ],
      [
        "bad-feature.json",
        {
          plans: [{ code: "free", name: "Free", paid: false, features: { website_checks: "yes" }, mailClients: "all" }],
        },
        /\/plans\/0\/features/,
      ],
      [
        "bad-client.json",
        { plans: [{ code: "free", name: "Free", paid: false, features: FEATURES_ALL, mailClients: ["lotus-notes"] }] },
        /\/plans\/0\/mailClients: no mail client "lotus-notes"/,
      ],
    ];
    for (const [name, content, problem] of cases) {
      const file = join(dir, name);
      writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
      const start = startServer({ ASSAY_PLANS_FILE: file, DATA_DIR: join(dir, `data-${name}`) });
      await expect(start).rejects.toThrow(file);
      await expect(start).rejects.toThrow(problem);
    }
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("an organization's plan", () => {
  test("an admin changes it (PlanChanged by the session); org, credits and email-clients name the same plan", async () => {
    const admin = await signIn(server, relay, uniqueEmail("plan-admin"));
    const before = eventCount(server);
    const changed = await server.api("POST", "/api/org/plan", {
      headers: inSession(admin),
      body: { planCode: "email" },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      customerId: admin.customerId,
      plan: "email",
      planName: "Email checks, native clients",
    });
    const event = eventsOf(server)
      .slice(before)
      .find((e) => e.type === "PlanChanged")!;
    expect(event.data).toEqual({ customerId: admin.customerId, planCode: "email", previousPlanCode: "free" });
    expect(event.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId }, channel: "api" });

    const minted = await server.api("POST", "/api/keys", {
      headers: inSession(admin),
      body: { name: "reader", scopes: ALL_SCOPES },
    });
    const key = minted.body.apiKey;
    const org = (await server.api("GET", "/api/org", { key })).body;
    const credits = (await server.api("GET", "/api/credits", { key })).body;
    const clients = (await server.api("GET", "/api/email-clients", { key })).body;
    expect([org.plan, org.planName]).toEqual(["email", "Email checks, native clients"]);
    expect([credits.plan, credits.planName, credits.monthlyGrant]).toEqual([
      "email",
      "Email checks, native clients",
      1000,
    ]);
    expect(clients.plan).toEqual({ code: "email", name: "Email checks, native clients" });
    const plans = (await server.api("GET", "/api/plans", { key })).body;
    expect([plans.current, plans.billingProvider, plans.planChangeable]).toEqual(["email", "local", true]);
    expect(
      plans.plans.map((p: { code: string; paid: boolean; monthlyCredits: number }) => [
        p.code,
        p.paid,
        p.monthlyCredits,
      ]),
    ).toEqual([
      ["free", false, 1000],
      ["web", false, 1000],
      ["email", false, 1000],
      ["team", true, 20000],
    ]);
    const desktop = clients.formFactors["desktop-md"].clients;
    expect([desktop["apple-mail"].planIncluded, desktop["apple-mail-dark"].planIncluded]).toEqual([true, true]);
    expect([desktop["gmail-web"].planIncluded, desktop["outlook-windows"].planIncluded]).toEqual([false, false]);

    // The same plan again records nothing.
    const same = eventCount(server);
    expect(
      (await server.api("POST", "/api/org/plan", { headers: inSession(admin), body: { planCode: "email" } })).status,
    ).toBe(200);
    expect(eventCount(server)).toBe(same);
  });

  test("a code the catalog lacks is PLAN_UNKNOWN; a member is ADMIN_REQUIRED; neither records anything", async () => {
    const admin = await signIn(server, relay, uniqueEmail("plan-boss"));
    const invited = await server.api("POST", "/api/invitations", {
      headers: inSession(admin),
      body: { email: uniqueEmail("plan-staff"), role: "member" },
    });
    const member = await signInThrough(server, await relay.invitationFor(invited.body.email));
    const before = eventCount(server);
    const unknown = await server.api("POST", "/api/org/plan", {
      headers: inSession(admin),
      body: { planCode: "platinum" },
    });
    expectError(unknown, 400, "PLAN_UNKNOWN");
    expect(unknown.body.details).toEqual({
      field: "planCode",
      planCode: "platinum",
      knownPlanCodes: ["free", "web", "email", "team"],
    });
    const refused = await server.api("POST", "/api/org/plan", {
      headers: inSession(member),
      body: { planCode: "team" },
    });
    expectError(refused, 403, "ADMIN_REQUIRED");
    expect(refused.body.details).toEqual({ role: "member" });
    expect(eventCount(server)).toBe(before);
  });
});

describe("gating before pricing", () => {
  test("a plan without website checks refuses url and static_html jobs: PLAN_EXCLUDES_WEBSITE_CHECKS, nothing charged or created", async () => {
    const { key } = await orgOn("email");
    await expectNothingMoved(key, async () => {
      for (const [path, body] of [
        ["/api/jobs", htmlJob("<html lang=en><title>t</title></html>", ["page-title"])],
        ["/api/jobs/estimate", htmlJob("<html lang=en><title>t</title></html>", ["page-title"])],
        ["/api/jobs", { type: "url", url: `${server.baseUrl}/healthz`, validations: ["page-title"] }],
      ] as const) {
        const res = await server.api("POST", path, { key, body });
        expectError(res, 403, "PLAN_EXCLUDES_WEBSITE_CHECKS");
        expect(res.body.details).toEqual({ feature: "website_checks", planCode: "email" });
      }
    });
  });

  test("a plan without email checks refuses email jobs: PLAN_EXCLUDES_EMAIL_CHECKS, nothing charged or created", async () => {
    const { key } = await orgOn("web");
    await expectNothingMoved(key, async () => {
      const res = await server.api("POST", "/api/jobs", {
        key,
        body: { type: "email", validations: ["email-headers-valid"] },
      });
      expectError(res, 403, "PLAN_EXCLUDES_EMAIL_CHECKS");
      expect(res.body.details).toEqual({ feature: "email_checks", planCode: "web" });
    });
  });

  test("an explicitly named client outside the plan is PLAN_EXCLUDES_REQUESTED_CLIENTS, never narrowed", async () => {
    const { key } = await orgOn("email");
    await expectNothingMoved(key, async () => {
      const named = {
        id: "email-layout-not-broken",
        clients: { "desktop-md": ["apple-mail", "outlook-windows", "gmail-web"] },
      };
      for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
        const res = await server.api("POST", path, {
          key,
          body: { type: "email", validations: ["email-headers-valid", named] },
        });
        expectError(res, 403, "PLAN_EXCLUDES_REQUESTED_CLIENTS");
        expect(res.body.details).toEqual({
          validationId: "email-layout-not-broken",
          refusedClients: [
            { formFactor: "desktop-md", clientId: "outlook-windows" },
            { formFactor: "desktop-md", clientId: "gmail-web" },
          ],
          missingFeatures: ["mail_clients", "extra_credit_clients"],
          planCode: "email",
        });
      }
    });
  });

  test("checks the plan does not include are trimmed into skipped_validations and not charged; the estimate equals the run", async () => {
    const { key } = await orgOn("email");
    const body = {
      type: "email",
      validations: [
        "email-headers-valid",
        { id: "email-subject-length", parameters: { maxLength: 60 } },
        "email-layout-not-broken",
      ],
    };
    const estimate = (await server.api("POST", "/api/jobs/estimate", { key, body })).body;
    const trimmed = {
      validationId: "email-subject-length",
      reason: "SKIPPED_NOT_IN_PLAN",
      reasonCode: "SKIPPED_NOT_IN_PLAN",
      message: expect.stringContaining("custom_parameters"),
    };
    expect(estimate.lines.map((l: { validationId: string }) => l.validationId)).toEqual([
      "email-headers-valid",
      "email-layout-not-broken",
    ]);
    expect(estimate.skipped_validations).toEqual([trimmed]);
    const free = (await server.api("POST", "/api/jobs/estimate", { key: (await orgOn("free")).key, body })).body;
    expect(free.skipped_validations).toEqual([]);
    expect(estimate.totalCredits).toBe(
      free.totalCredits -
        free.lines.find((l: { validationId: string }) => l.validationId === "email-subject-length").credits,
    );

    const balance = (await server.api("GET", "/api/credits", { key })).body.balance;
    const job = await server.api("POST", "/api/jobs", { key, body });
    expect(job.status).toBe(200);
    // One shape: the job lists the trimmed check as its estimate did.
    expect(job.body.skipped_validations).toEqual(estimate.skipped_validations);
    expect(job.body.skipped_validations).toEqual([trimmed]);
    expect(job.body.credits.charged).toBe(estimate.totalCredits);
    expect((await server.api("GET", "/api/credits", { key })).body.balance).toBe(balance - estimate.totalCredits);
  });

  test("check_job_request with a key answers what the run would: the plan's refusal, or the quote without the trimmed checks", async () => {
    const { key } = await orgOn("email");
    const client = new Client({ name: "plans-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const check = async (body: unknown) => {
      const result = (await client.callTool({
        name: "check_job_request",
        arguments: body as Record<string, unknown>,
      })) as CallToolResult;
      checkToolResult("check_job_request", result);
      return result.structuredContent as any;
    };
    await expectNothingMoved(key, async () => {
      const web = await check(htmlJob("<html lang=en><title>t</title></html>", ["page-title"]));
      expect([web.ok, web.httpStatus, web.error.code, web.error.details]).toEqual([
        false,
        403,
        "PLAN_EXCLUDES_WEBSITE_CHECKS",
        { feature: "website_checks", planCode: "email" },
      ]);
      const trimmed = await check({
        type: "email",
        validations: ["email-headers-valid", { id: "email-subject-length", parameters: { maxLength: 60 } }],
      });
      expect(trimmed.ok).toBe(true);
      expect(trimmed.quote.lines.map((l: { validationId: string }) => l.validationId)).toEqual(["email-headers-valid"]);
      expect(trimmed.quote.skipped_validations.map((v: { reason: string }) => v.reason)).toEqual([
        "SKIPPED_NOT_IN_PLAN",
      ]);
    });
    await client.close();
  });

  test("nothing left after trimming is PLAN_EXCLUDES_SELECTED_CHECKS with the gated checks and missing features", async () => {
    const { key } = await orgOn("email");
    await expectNothingMoved(key, async () => {
      const body = { type: "email", validations: [{ id: "email-subject-length", parameters: { maxLength: 60 } }] };
      for (const path of ["/api/jobs", "/api/jobs/estimate"]) {
        const res = await server.api("POST", path, { key, body });
        expectError(res, 400, "PLAN_EXCLUDES_SELECTED_CHECKS");
        expect(res.body.details).toEqual({
          gatedValidationIds: ["email-subject-length"],
          missingFeatures: ["custom_parameters"],
          planCode: "email",
        });
      }
    });
  });
});

describe("a plan whose mail clients leave out the native defaults", () => {
  test("a visual check rendering in default clients outside the plan is trimmed (mail_clients); alone, it is PLAN_EXCLUDES_SELECTED_CHECKS", async () => {
    const dataDir = tempDataDir();
    const file = join(dataDir, "plans.json");
    const gmailOnly = {
      code: "gmail",
      name: "Gmail only",
      paid: false,
      monthlyCredits: 100,
      features: { ...FEATURES_ALL, website_checks: false },
      mailClients: ["gmail-web"],
    };
    writeFileSync(
      file,
      JSON.stringify({
        plans: [{ code: "free", name: "Free", paid: false, features: FEATURES_ALL, mailClients: "all" }, gmailOnly],
      }),
    );
    let s = await startServer({ DATA_DIR: dataDir, ASSAY_PLANS_FILE: file });
    const org = await s.signup();
    await s.stop();
    expect(
      (
        await runCli(["plan", "set", "--customer", org.customerId, "--plan", "gmail"], {
          DATA_DIR: dataDir,
          ASSAY_PLANS_FILE: file,
        })
      ).code,
    ).toBe(0);
    s = await startServer({ DATA_DIR: dataDir, ASSAY_PLANS_FILE: file });
    const key = org.apiKey;
    const clients = (await s.api("GET", "/api/email-clients", { key })).body.formFactors["desktop-md"].clients;
    expect([clients["gmail-web"].planIncluded, clients["apple-mail"].planIncluded]).toEqual([true, false]);

    const estimate = await s.api("POST", "/api/jobs/estimate", {
      key,
      body: { type: "email", validations: ["email-headers-valid", "email-layout-not-broken"] },
    });
    expect(estimate.body.lines.map((l: { validationId: string }) => l.validationId)).toEqual(["email-headers-valid"]);
    expect(estimate.body.skipped_validations).toEqual([
      {
        validationId: "email-layout-not-broken",
        reason: "SKIPPED_NOT_IN_PLAN",
        reasonCode: "SKIPPED_NOT_IN_PLAN",
        message:
          "email-layout-not-broken is not in the Gmail only plan (it needs mail_clients). Not run and not charged.",
      },
    ]);
    // Named, the plan's own client renders.
    const named = await s.api("POST", "/api/jobs/estimate", {
      key,
      body: {
        type: "email",
        validations: [{ id: "email-layout-not-broken", clients: { "desktop-md": ["gmail-web"] } }],
      },
    });
    expect([named.status, named.body.skipped_validations]).toEqual([200, []]);
    const before = eventCount(s);
    const alone = await s.api("POST", "/api/jobs", {
      key,
      body: { type: "email", validations: ["email-layout-not-broken"] },
    });
    expectError(alone, 400, "PLAN_EXCLUDES_SELECTED_CHECKS");
    expect(alone.body.details).toEqual({
      gatedValidationIds: ["email-layout-not-broken"],
      missingFeatures: ["mail_clients"],
      planCode: "gmail",
    });
    expect(eventCount(s)).toBe(before);
    await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
});

describe("the monthly grant and the operator's commands", () => {
  test("amounts and balances past 2^53 - 1 are refused by the operator's commands and flagged by ledger verify", async () => {
    const dataDir = tempDataDir();
    const cli = (...args: string[]) => runCli(args, { DATA_DIR: dataDir });
    let s = await startServer({ DATA_DIR: dataDir });
    const org = await s.signup();
    const before = eventCount(s);
    await s.stop();
    for (const amount of ["9007199254740993", "1e3", "0x10", "010", "12.0"]) {
      const usage = await cli("credits", "grant", "--customer", org.customerId, "--amount", amount, "--reason", "x");
      expect([usage.code, usage.stderr]).toEqual([
        2,
        expect.stringContaining("--amount must be a whole number of credits, from 1 to 9007199254740991"),
      ]);
    }
    // Each amount is exact, the balance it leaves is not.
    const overflow = await cli(
      "credits",
      "grant",
      "--customer",
      org.customerId,
      "--amount",
      String(Number.MAX_SAFE_INTEGER - 10),
      "--reason",
      "x",
    );
    expect(overflow.code).toBe(1);
    expect(overflow.stderr).toContain("CREDIT_AMOUNT_OUT_OF_RANGE");
    expect(overflow.stderr).toContain(
      "Moving 9007199254740981 credits on a balance of 1000 leaves more than the ledger counts exactly; nothing was moved.",
    );
    expect((await cli("ledger", "verify")).code).toBe(0);

    s = await startServer({ DATA_DIR: dataDir });
    expect(eventCount(s)).toBe(before);
    expect((await s.api("GET", "/api/credits", { key: org.apiKey })).body.balance).toBe(1000);
    // An event no decider would write (as a tamperer or an older build might have): verify names it.
    const [recorded] = await appendTo(
      s,
      [
        {
          streamId: `credits-${org.customerId}`,
          expectedVersion: "any",
          events: [
            {
              type: "CreditsGranted",
              data: { customerId: org.customerId, amount: 2 ** 53 + 2, reason: "operator", note: "x" },
            },
          ],
        },
      ],
      { actor: { kind: "operator", id: "test" }, channel: "cli" },
    );
    await s.stop();
    const verify = await cli("ledger", "verify", "--json");
    expect(verify.code).toBe(1);
    const report = JSON.parse(verify.stdout);
    expect(report.problems).toContainEqual({
      position: recorded!.position,
      customerId: org.customerId,
      message: "amount 9007199254740994 is not a whole number from 0 to 9007199254740991",
    });
    expect(report.problems).toContainEqual({
      position: recorded!.position,
      customerId: org.customerId,
      message: `balance ${2 ** 53 + 2 + 1000} is past what is counted exactly (9007199254740991)`,
    });
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("operator grant, deduct and plan set (the operator as actor); one monthly grant per period under 20 concurrent requests and across restarts; free tops up, paid adds", async () => {
    const dataDir = tempDataDir();
    const env = { DATA_DIR: dataDir, ASSAY_GRANT_SWEEP_SECONDS: "0" };
    const cli = (...args: string[]) => runCli(args, { DATA_DIR: dataDir });
    const monthlyGrants = (s: TestServer, customerId: string) =>
      eventsOf(s).flatMap((e) =>
        e.type === "CreditsGranted" && e.data.customerId === customerId && e.data.reason === "monthly" ? [e.data] : [],
      );
    const balanceOf = async (s: TestServer, key: string) => (await s.api("GET", "/api/credits", { key })).body.balance;

    let s = await startServer(env);
    const [free, paid, quiet] = [await s.signup(), await s.signup(), await s.signup()];
    // The signup grant closes the signup month for the free plan: no monthly grant this month.
    expect(eventsOf(s).find((e) => e.type === "CreditsGranted" && e.data.customerId === free.customerId)!.data).toEqual(
      {
        customerId: free.customerId,
        amount: 1000,
        reason: "signup",
        period: periodAt(0),
        planCode: "free",
      },
    );
    expect(await balanceOf(s, free.apiKey)).toBe(1000);
    expect(monthlyGrants(s, free.customerId)).toEqual([]);
    await s.stop();

    const deducted = await cli(
      "credits",
      "deduct",
      "--customer",
      free.customerId,
      "--amount",
      "400",
      "--reason",
      "duplicate signup",
    );
    expect([deducted.code, JSON.parse(deducted.stdout)]).toEqual([0, { customerId: free.customerId, balance: 600 }]);
    const granted = await cli(
      "credits",
      "grant",
      "--customer",
      free.customerId,
      "--amount",
      "50",
      "--reason",
      "goodwill",
    );
    expect([granted.code, JSON.parse(granted.stdout)]).toEqual([0, { customerId: free.customerId, balance: 650 }]);
    const overdrawn = await cli(
      "credits",
      "deduct",
      "--customer",
      free.customerId,
      "--amount",
      "5000",
      "--reason",
      "too much",
    );
    expect(overdrawn.code).toBe(1);
    expect(overdrawn.stderr).toContain(
      "INSUFFICIENT_CREDITS: Cannot deduct 5000 credits from a balance of 650: a balance never goes below zero; nothing was deducted.",
    );
    const moved = await cli("plan", "set", "--customer", paid.customerId, "--plan", "team");
    expect([moved.code, JSON.parse(moved.stdout)]).toEqual([
      0,
      { customerId: paid.customerId, plan: "team", previousPlan: "free" },
    ]);
    const unknown = await cli("plan", "set", "--customer", paid.customerId, "--plan", "platinum");
    expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringContaining("PLAN_UNKNOWN")]);
    const usage = await cli("credits", "grant", "--customer", free.customerId, "--amount", "-3", "--reason", "x");
    expect([usage.code, usage.stderr]).toEqual([
      2,
      expect.stringContaining("--amount must be a whole number of credits, from 1 to 9007199254740991"),
    ]);

    s = await startServer(env);
    const operatorEvents = eventsOf(s).filter((e) => e.metadata.actor.kind === "operator");
    expect(operatorEvents.map((e) => [e.type, e.data])).toEqual([
      ["CreditsDeducted", { customerId: free.customerId, amount: 400, reason: "operator", note: "duplicate signup" }],
      ["CreditsGranted", { customerId: free.customerId, amount: 50, reason: "operator", note: "goodwill" }],
      ["PlanChanged", { customerId: paid.customerId, planCode: "team", previousPlanCode: "free" }],
    ]);
    expect(operatorEvents.every((e) => e.metadata.channel === "cli")).toBe(true);
    // A paid plan's entitlement is added for the month it starts in.
    const team = (await s.api("GET", "/api/credits", { key: paid.apiKey })).body;
    expect([team.plan, team.planName, team.monthlyGrant, team.balance]).toEqual(["team", "Team", 20000, 21000]);
    expect(monthlyGrants(s, paid.customerId)).toEqual([
      { customerId: paid.customerId, amount: 20000, reason: "monthly", period: periodAt(0), planCode: "team" },
    ]);
    await s.stop();

    // Next month: 20 concurrent requests per organization, one grant each.
    const later = { ...env, ASSAY_CLOCK_OFFSET_DAYS: "31" };
    s = await startServer(later);
    const concurrent = (key: string) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 ? s.api("GET", "/api/credits", { key }) : s.api("GET", "/api/org", { key }),
        ),
      );
    for (const res of [...(await concurrent(free.apiKey)), ...(await concurrent(paid.apiKey))])
      expect(res.status).toBe(200);
    expect(monthlyGrants(s, free.customerId)).toEqual([
      { customerId: free.customerId, amount: 350, reason: "monthly", period: periodAt(31), planCode: "free" },
    ]);
    expect(await balanceOf(s, free.apiKey)).toBe(1000);
    expect(monthlyGrants(s, paid.customerId).map((g) => [g.period, g.amount])).toEqual([
      [periodAt(0), 20000],
      [periodAt(31), 20000],
    ]);
    expect(await balanceOf(s, paid.apiKey)).toBe(41000);
    expect(
      eventsOf(s)
        .filter((e) => e.type === "CreditsGranted" && e.data.reason === "monthly")
        .every((e) => e.metadata.actor.kind === "system"),
    ).toBe(true);
    await s.stop();

    // A restart with the sweep on: the organization no request touched gets its period at start (a top-up of 0,
    // recorded, closing the period); the others are not granted twice.
    s = await startServer({ ...later, ASSAY_GRANT_SWEEP_SECONDS: "3600" });
    expect(monthlyGrants(s, quiet.customerId)).toEqual([
      { customerId: quiet.customerId, amount: 0, reason: "monthly", period: periodAt(31), planCode: "free" },
    ]);
    expect(monthlyGrants(s, free.customerId)).toHaveLength(1);
    expect(monthlyGrants(s, paid.customerId)).toHaveLength(2);
    await s.stop();

    const verified = await cli("ledger", "verify");
    expect([verified.code, verified.stdout]).toEqual([
      0,
      expect.stringContaining("ledger verified: hash chain intact, balances match"),
    ]);
    expect(verified.stdout).toContain(`${free.customerId}: 1000`);
    expect(verified.stdout).toContain(`${paid.customerId}: 41000`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("a plan without a usable credits entitlement, or one the catalog lacks, is PLAN_NOT_PUBLISHED before any work", async () => {
    const dataDir = tempDataDir();
    const catalog = (plans: unknown[]) => {
      const file = join(dataDir, `plans-${plans.length}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          plans: [{ code: "free", name: "Free", paid: false, features: FEATURES_ALL, mailClients: "all" }, ...plans],
        }),
      );
      return file;
    };
    const unlimited = {
      code: "unlimited",
      name: "Unlimited",
      paid: true,
      monthlyCredits: 2147483647,
      features: FEATURES_ALL,
      mailClients: "all",
    };
    const unpriced = { code: "unpriced", name: "Unpriced", paid: true, features: FEATURES_ALL, mailClients: "all" };
    const both = catalog([unlimited, unpriced]);
    let s = await startServer({ DATA_DIR: dataDir, ASSAY_PLANS_FILE: both });
    const [a, b] = [await s.signup(), await s.signup()];
    await s.stop();
    for (const [org, plan] of [
      [a, "unlimited"],
      [b, "unpriced"],
    ] as const) {
      expect(
        (
          await runCli(["plan", "set", "--customer", org.customerId, "--plan", plan], {
            DATA_DIR: dataDir,
            ASSAY_PLANS_FILE: both,
          })
        ).code,
      ).toBe(0);
    }

    const refusedEverywhere = async (key: string, details: Record<string, unknown>) => {
      const before = eventCount(s);
      for (const [method, path, body] of [
        ["GET", "/api/credits", undefined],
        ["GET", "/api/org", undefined],
        ["GET", "/api/email-clients", undefined],
        ["POST", "/api/jobs/estimate", htmlJob("<html lang=en><title>t</title></html>", ["page-title"])],
        ["POST", "/api/jobs", htmlJob("<html lang=en><title>t</title></html>", ["page-title"])],
      ] as const) {
        const res = await s.api(method, path, { key, body });
        expectError(res, 503, "PLAN_NOT_PUBLISHED");
        expect(res.body.details).toEqual(details);
      }
      expect(eventCount(s)).toBe(before);
    };
    s = await startServer({ DATA_DIR: dataDir, ASSAY_PLANS_FILE: both });
    await refusedEverywhere(a.apiKey, { planCode: "unlimited", monthlyCredits: 2147483647, provider: "local" });
    await refusedEverywhere(b.apiKey, { planCode: "unpriced", monthlyCredits: null, provider: "local" });
    await s.stop();

    // The catalog no longer has the plan the organization is on.
    s = await startServer({ DATA_DIR: dataDir, ASSAY_PLANS_FILE: catalog([unpriced]) });
    await refusedEverywhere(a.apiKey, { planCode: "unlimited", provider: "local" });
    await s.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
});
