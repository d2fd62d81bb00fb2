import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eventsOf, htmlJob, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, signInThrough, inSession, type MailRelay, startServerWithRelay } from "../support/mail-relay";
import { hidden, page, postForm } from "../support/pages";
import { startFakeStripe, type FakeStripe } from "../support/stripe-server";

/**
 * The credits page as a browser without JavaScript reads it: balance, plan, monthly grant and the ledger, each
 * entry with its event position and, for a job's charge, a link to the job. Real server, real sign-in, a real job.
 */

setDefaultTimeout(120_000);
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;

beforeAll(async () => {
  ({ relay, server, stop: stopServer } = await startServerWithRelay());
}, 120_000);
afterAll(async () => {
  await stopServer?.();
}, 120_000);

const PAGE = `<!doctype html><html lang="en"><head><title>Credits</title></head><body><h1>Credits</h1></body></html>`;
const rows = (html: string) => [...html.matchAll(/<tr id="position-(\d+)">/g)].map((m) => Number(m[1]));

describe("the credits page", () => {
  test("signed out, it sends the person to sign in and back", async () => {
    const res = await page(server, "/dashboard/credits?limit=50");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/signin?next=%2Fdashboard%2Fcredits%3Flimit%3D50");
  });

  test("shows the balance, plan and grant, and the ledger with each entry's event position and the charged job's link", async () => {
    const { apiKey, customerId, email } = await server.signup(uniqueEmail("credits"));
    const run = await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(PAGE, [{ id: "page-title" }]) });
    expect(run.status).toBe(200);
    const jobId = run.body.jobId as string;
    const credits = (await server.api("GET", "/api/credits", { key: apiKey })).body;
    expect(credits.ledger.some((e: { jobId?: string }) => e.jobId === jobId)).toBe(true);

    const who = await signIn(server, relay, email);
    expect(who.customerId).toBe(customerId);
    const before = eventsOf(server).length;
    const shown = await page(server, "/dashboard/credits", who.cookie);
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(shown.text).toContain(`<dd id="balance">${credits.balance} credits</dd>`);
    expect(shown.text).toContain(`<dd id="plan"><span>${credits.planName}</span> (<code>${credits.plan}</code>)</dd>`);
    expect(shown.text).toContain(`<dd>${credits.monthlyGrant} credits</dd>`);
    // Every entry, newest first, under its position in the log; the positions are those of the ledger's events.
    expect(rows(shown.text)).toEqual(credits.ledger.map((e: { position: number }) => e.position));
    const positions = new Map(eventsOf(server).map((e) => [e.position, e.type]));
    for (const e of credits.ledger) expect(positions.get(e.position)).toBe(e.type);
    const charge = credits.ledger.find((e: { jobId?: string; amount: number }) => e.jobId === jobId && e.amount < 0);
    const chargeRow = shown.text.slice(shown.text.indexOf(`<tr id="position-${charge.position}">`)).split("</tr>")[0]!;
    expect(chargeRow).toContain(`<a href="/dashboard/jobs/${jobId}">`);
    expect(chargeRow).toContain(`<td data-label="Amount">${charge.amount}</td>`);
    expect(chargeRow).toContain(`<td data-label="Balance after">${charge.balanceAfter}</td>`);
    // Reading writes nothing.
    expect(eventsOf(server).length).toBe(before);
  });

  test("more entries on request, within the operation's limit; outside it, the page says why with 400", async () => {
    const { apiKey, email } = await server.signup(uniqueEmail("credits-limit"));
    for (let i = 0; i < 2; i++)
      expect(
        (await server.api("POST", "/api/jobs", { key: apiKey, body: htmlJob(PAGE, [{ id: "page-title" }]) })).status,
      ).toBe(200);
    const all = (await server.api("GET", "/api/credits?limit=200", { key: apiKey })).body.ledger.length;
    expect(all).toBeGreaterThan(2);
    const who = await signIn(server, relay, email);
    const two = await page(server, "/dashboard/credits?limit=2", who.cookie);
    expect(two.status).toBe(200);
    expect(rows(two.text)).toHaveLength(2);
    expect(two.text).toContain('<option value="2" selected>2</option>');
    const most = await page(server, "/dashboard/credits?limit=200", who.cookie);
    expect(rows(most.text)).toHaveLength(all);
    expect(most.text).toContain('<option value="200" selected>200</option>');
    const tooMany = await page(server, "/dashboard/credits?limit=201", who.cookie);
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain("<code>INVALID_REQUEST_BODY</code>");
  });

  test("a customerId in the address changes nothing: the page shows the session's organization alone", async () => {
    const mine = await signIn(server, relay, uniqueEmail("credits-mine"));
    const theirs = await server.signup(uniqueEmail("credits-theirs"));
    await server.api("POST", "/api/jobs", { key: theirs.apiKey, body: htmlJob(PAGE, [{ id: "page-title" }]) });
    const own = await page(server, "/dashboard/credits", mine.cookie);
    const asked = await page(server, `/dashboard/credits?customerId=${theirs.customerId}`, mine.cookie);
    expect(asked.status).toBe(200);
    expect(rows(asked.text)).toEqual(rows(own.text));
  });

  test("an admin changes the plan with the page's form (PlanChanged); a refused change says why; a member gets no form", async () => {
    const admin = await signIn(server, relay, uniqueEmail("credits-admin"));
    const shown = await page(server, "/dashboard/credits", admin.cookie);
    expect(shown.text).toContain('<option value="free" selected>Free, 1000 credits a month</option>');
    expect(shown.text).toContain('<option value="team">Team, paid, 20000 credits a month</option>');

    const changed = await postForm(
      server,
      "/dashboard/credits/plan",
      { _csrf: hidden(shown.text, "_csrf")!, planCode: "team" },
      { cookie: admin.cookie },
    );
    expect([changed.status, changed.headers.get("location")]).toEqual([303, "/dashboard/credits?done=plan"]);
    const after = await page(server, "/dashboard/credits?done=plan", admin.cookie);
    expect(after.text).toContain("Plan changed.");
    expect(after.text).toContain('<dd id="plan"><span>Team</span> (<code>team</code>)</dd>');
    const event = eventsOf(server).findLast((e) => e.type === "PlanChanged")!;
    expect([event.data, event.metadata.channel]).toEqual([
      { customerId: admin.customerId, planCode: "team", previousPlanCode: "free" },
      "dashboard",
    ]);

    const before = eventsOf(server).length;
    const refused = await postForm(
      server,
      "/dashboard/credits/plan",
      { _csrf: admin.csrfToken, planCode: "platinum" },
      { cookie: admin.cookie },
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("Nothing was changed. (PLAN_UNKNOWN)");
    expect(eventsOf(server).length).toBe(before);

    const invited = await server.api("POST", "/api/invitations", {
      headers: inSession(admin),
      body: { email: uniqueEmail("credits-member"), role: "member" },
    });
    const member = await signInThrough(server, await relay.invitationFor(invited.body.email));
    const memberView = await page(server, "/dashboard/credits", member.cookie);
    expect(memberView.text).toContain('<dd id="plan"><span>Team</span> (<code>team</code>)</dd>');
    expect(memberView.text).not.toContain('action="/dashboard/credits/plan"');
  });
});

/** Under a billing provider the plan is the subscription: its own server, with a fake Stripe. */
describe("the credits page under a billing provider", () => {
  let stripe: FakeStripe;
  let billed: { relay: MailRelay; server: TestServer; stop(): Promise<void> };
  beforeAll(async () => {
    stripe = startFakeStripe();
    billed = await startServerWithRelay({
      ASSAY_BILLING_PROVIDER: "stripe",
      ASSAY_STRIPE_SECRET_KEY: stripe.secretKey,
      ASSAY_STRIPE_API_BASE: stripe.url,
      ASSAY_STRIPE_FREE_PRICE: stripe.addPlanPrice({ assay_plan: "free" }),
    });
  }, 120_000);
  afterAll(async () => {
    await billed?.stop();
    stripe?.close();
  }, 120_000);

  test("an admin gets no plan form, only where to change the subscription; a form posted anyway is refused, nothing changed", async () => {
    const admin = await signIn(billed.server, billed.relay, uniqueEmail("credits-billed"));
    // The first sign-in provisions the organization it opens without waiting for it.
    for (
      let waited = 0;
      !eventsOf(billed.server).some(
        (e) => e.type === "BillingCustomerLinked" && e.data.customerId === admin.customerId,
      ) && waited < 100;
      waited++
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const shown = await page(billed.server, "/dashboard/credits", admin.cookie);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<dd id="plan"><span>Free</span> (<code>free</code>)</dd>');
    expect(shown.text).toContain(
      `<p id="plan-managed">The plan is the organization's subscription with <span>stripe</span>: change the subscription there.</p>`,
    );
    expect(shown.text).not.toContain('action="/dashboard/credits/plan"');

    const before = eventsOf(billed.server).length;
    const refused = await postForm(
      billed.server,
      "/dashboard/credits/plan",
      { _csrf: admin.csrfToken, planCode: "team" },
      { cookie: admin.cookie },
    );
    expect(refused.status).toBe(409);
    expect(refused.text).toContain("(PLAN_MANAGED_BY_BILLING)");
    expect(eventsOf(billed.server).length).toBe(before);
  });
});
