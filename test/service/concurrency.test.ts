import { afterAll, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { htmlJob, runCli, startServer, type TestServer } from "../support/harness";

/**
 * 50 parallel one-credit jobs on an organization that can afford 20: exactly 20 are charged and run,
 * 30 are refused with 402 and charged nothing, the balance ends at 0 and never goes below it, and the
 * operator's ledger verification passes.
 */

const HOOK_TIMEOUT = 120_000;
// Bun 1.4 ignores bunfig's [test] timeout; so that this file also runs alone (without npm test's --timeout), set the room here.
setDefaultTimeout(120_000);
const PAGE = '<html lang="en"><head><title>T</title></head><body><h1>Hi</h1></body></html>';

let server: TestServer;
let org: Awaited<ReturnType<TestServer["signup"]>>;
// A second organization running jobs at the same time must be untouched by the first one's race.
let bystander: Awaited<ReturnType<TestServer["signup"]>>;

beforeAll(async () => {
  server = await startServer({ ASSAY_SIGNUP_CREDITS: "20" });
  org = await server.signup();
  bystander = await server.signup();
}, HOOK_TIMEOUT);
afterAll(() => server.stop(), HOOK_TIMEOUT);

test("50 parallel jobs on 20 credits: exactly 20 charged, 30 refused with 402, never negative, ledger verifies", async () => {
  const body = htmlJob(PAGE, ["page-title"]);
  const [responses, bystanderResponses] = await Promise.all([
    Promise.all(Array.from({ length: 50 }, () => server.api("POST", "/api/jobs", { key: org.apiKey, body }))),
    Promise.all(Array.from({ length: 3 }, () => server.api("POST", "/api/jobs", { key: bystander.apiKey, body }))),
  ]);

  const ok = responses.filter((r) => r.status === 200);
  const refused = responses.filter((r) => r.status === 402);
  const other = responses.filter((r) => r.status !== 200 && r.status !== 402);
  expect(other.map((r) => [r.status, r.body?.code])).toEqual([]);
  expect(ok).toHaveLength(20);
  expect(refused).toHaveLength(30);

  for (const r of ok) {
    expect(r.body.status).toBe("completed");
    expect(r.body.credits).toEqual({ charged: 1, refunded: 0, net: 1 });
    expect(r.body.results).toHaveLength(1);
    expect(r.body.results[0].verdict).toBe("pass");
  }
  expect(new Set(ok.map((r) => r.body.jobId)).size).toBe(20);
  for (const r of refused) {
    expect(r.body.code).toBe("INSUFFICIENT_CREDITS");
    expect(r.body.details.required).toBe(1);
    expect(r.body.details.balance).toBe(0);
    expect(r.body.details.shortfall).toBe(1);
    expect(typeof r.body.requestId).toBe("string");
  }

  const credits = await server.api("GET", "/api/credits", { key: org.apiKey });
  expect(credits.body.balance).toBe(0);
  // The ledger, oldest first: the grant, then 20 charges, each leaving a balance of zero or more.
  const ledger = await server.api("GET", "/api/credits?limit=200", { key: org.apiKey });
  const entries = [...ledger.body.ledger].reverse();
  expect(entries).toHaveLength(21);
  expect(entries[0]).toMatchObject({ type: "CreditsGranted", amount: 20, balanceAfter: 20 });
  const charges = entries.slice(1);
  expect(charges.every((e: { type: string; amount: number }) => e.type === "CreditsCharged" && e.amount === -1)).toBe(
    true,
  );
  expect(charges.map((e: { balanceAfter: number }) => e.balanceAfter)).toEqual(
    Array.from({ length: 20 }, (_, i) => 19 - i),
  );
  expect(new Set(charges.map((e: { jobId: string }) => e.jobId))).toEqual(new Set(ok.map((r) => r.body.jobId)));

  // Only the 20 charged jobs exist; the refused requests created nothing.
  const listed = await server.api("GET", "/api/jobs?limit=100", { key: org.apiKey });
  expect(listed.body.jobs).toHaveLength(20);

  // The bystander's jobs all ran on its own balance.
  expect(bystanderResponses.map((r) => r.status)).toEqual([200, 200, 200]);
  const bystanderCredits = await server.api("GET", "/api/credits", { key: bystander.apiKey });
  expect(bystanderCredits.body.balance).toBe(17);

  const verify = await runCli(["ledger", "verify"], server.env);
  if (verify.code !== 0) throw new Error(`ledger verify failed:\n${verify.stdout}\n${verify.stderr}`);
  expect(verify.stdout).toContain("ledger verified");
  expect(verify.stdout).toContain(`${org.customerId}: 0`);
  expect(verify.stdout).toContain(`${bystander.customerId}: 17`);

  const json = await runCli(["ledger", "verify", "--customer", org.customerId, "--json"], server.env);
  expect(json.code).toBe(0);
  const report = JSON.parse(json.stdout);
  expect(report.ok).toBe(true);
  expect(report.balances).toEqual({ [org.customerId]: 0 });
  expect(report.creditEvents).toBe(21);
});
