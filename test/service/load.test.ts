import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { htmlJob, runCli, startServer, tempDataDir, type TestServer } from "../support/harness";
import { errorEntry } from "../../src/errors/catalog";

/**
 * Load: 1,000 job requests (pages and email jobs) from 50 organizations with tight balances (2 credits each),
 * 20 in flight at a time, while /healthz is polled. Every request is answered with a job or a catalogued error (never a 500, never a
 * dropped connection), each organization is charged for exactly the jobs its balance afforded (a refunded error
 * row frees its credit for a later request), refusals create nothing, and the operator's ledger verification
 * recomputes every balance.
 */

setDefaultTimeout(600_000);
const ORGS = 50;
const PER_ORG = 20;
const IN_FLIGHT = 20;
const CREDITS = 2;
const PAGE = '<html lang="en"><head><title>Load</title></head><body><h1>Under load</h1></body></html>';

let server: TestServer;
let orgs: Array<Awaited<ReturnType<TestServer["signup"]>>>;

beforeAll(async () => {
  // The pages' baseUrl is checked by the network guard, DNS included: answered from fixtures (no such name), so a
  // system resolver slowed by the load cannot turn a page into a retryable 503 the test does not measure.
  const dns = join(tempDataDir(), "dns.json");
  writeFileSync(dns, "{}");
  server = await startServer({ ASSAY_SIGNUP_CREDITS: String(CREDITS), ASSAY_DNS_FIXTURES: dns });
  orgs = [];
  for (let i = 0; i < ORGS; i++) orgs.push(await server.signup());
});
afterAll(() => server.stop());

/**
 * The request organization o sends as its n-th: valid one-credit jobs, and some a planner refuses. One
 * organization in five also sends pages rendered in the browser; the others send email jobs (charged at
 * acceptance, then waiting for their message), so the run measures the service rather than a queue of renders.
 */
function requestBody(o: number, n: number): unknown {
  if (n % 10 === 3) return { type: "static_html", validations: ["page-title"] }; // no html: 400
  if (n % 10 === 7) return { type: "url", url: "http://127.0.0.1:1/", validations: ["page-title"] }; // loopback: 400
  return o % 5 === 0 && n % 2 === 1
    ? htmlJob(PAGE, ["page-title"])
    : { type: "email", validations: ["email-subject-length"] };
}

test("1,000 job requests from 50 organizations, 20 at a time: every answer a job or a catalogued error, each organization charged for what it could afford, the ledger verifies", async () => {
  // Round by round, every organization's n-th request, so each one's requests are spread over the whole run.
  const requests = Array.from({ length: PER_ORG }, (_, n) =>
    orgs.map((org, o) => ({ org, o, n, body: requestBody(o, n) })),
  ).flat();
  const answers: Array<{ o: number; n: number; status: number; code?: string; jobId?: string; charged?: number }> = [];
  let healthChecks = 0;
  let healthy = true;
  let running = true;
  const health = (async () => {
    while (running) {
      const res = await fetch(`${server.baseUrl}/healthz`);
      healthy &&= res.status === 200;
      healthChecks++;
      await Bun.sleep(200);
    }
  })();

  const queue = [...requests];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        const res = await server.api("POST", "/api/jobs", { key: r.org.apiKey, body: r.body });
        answers.push({
          o: r.o,
          n: r.n,
          status: res.status,
          code: res.body?.code,
          jobId: res.body?.jobId,
          charged: res.body?.credits?.net,
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await health;

  expect(answers).toHaveLength(ORGS * PER_ORG);
  // Every refusal is a catalogued code with its catalogued status; nothing answered 5xx.
  const refusals = answers.filter((a) => a.status !== 200);
  for (const a of refusals) expect([a.status, a.code]).toEqual([errorEntry(a.code as never).status, a.code]);
  expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  // The planner's refusals are 400s whatever the balance; a valid request is run or refused for credits alone.
  expect(new Set(answers.filter((a) => a.n % 10 === 3 || a.n % 10 === 7).map((a) => a.status))).toEqual(new Set([400]));
  expect(
    new Set(answers.filter((a) => a.n % 10 !== 3 && a.n % 10 !== 7 && a.status !== 200).map((a) => a.code)),
  ).toEqual(new Set(["INSUFFICIENT_CREDITS"]));
  expect(healthy).toBe(true);

  let ran = 0;
  for (let o = 0; o < ORGS; o++) {
    const mine = answers.filter((a) => a.o === o && a.status === 200);
    // Charged for what the balance afforded: each job settled once, a refunded error row giving its credit back
    // for a later request, never below zero; the jobs listed are exactly the jobs answered.
    const credits = await server.api("GET", "/api/credits", { key: orgs[o]!.apiKey });
    expect(credits.body.balance).toBeGreaterThanOrEqual(0);
    expect(mine.reduce((sum, a) => sum + a.charged!, 0)).toBe(CREDITS - credits.body.balance);
    expect(mine.length).toBeGreaterThanOrEqual(CREDITS);
    const listed = await server.api("GET", "/api/jobs?limit=100", { key: orgs[o]!.apiKey });
    expect(listed.body.jobs.map((j: { jobId: string }) => j.jobId).sort()).toEqual(mine.map((a) => a.jobId).sort());
    // Pages ran to the end (or were interrupted and refunded); email jobs wait for their message.
    expect(
      listed.body.jobs.every((j: { type: string; status: string }) =>
        j.type === "email" ? j.status === "pending" : j.status === "completed" || j.status === "interrupted",
      ),
    ).toBe(true);
    ran += mine.length;
  }

  const verify = await runCli(["ledger", "verify", "--json"], server.env);
  expect(verify.code).toBe(0);
  const report = JSON.parse(verify.stdout);
  expect(report.ok).toBe(true);
  console.log(
    `load: ${answers.length} requests in ${seconds.toFixed(1)} s (${ran} jobs run, ${refusals.length} refused), ${healthChecks} health checks all 200`,
  );
});
