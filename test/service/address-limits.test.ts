import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import {
  eventCount,
  eventsOf,
  expectError,
  scratchDirs,
  startServer,
  uniqueEmail,
  type ApiResponse,
  type TestServer,
} from "../support/harness";
import { inSession, openLink, signIn, startMailRelay, type MailRelay } from "../support/mail-relay";
import { postForm } from "../support/pages";
import { startPostgres, type TestPostgres } from "../support/postgres";

/**
 * Nothing reachable without a credential grows the log without bound: each route that appends without one has a
 * per-client-address limit, answered 429 with its code and Retry-After, after which the log stops growing. Here
 * the sign-in links one address may ask for (whatever the recipients) and the sessions it may start (a link, an
 * invitation); the device codes are in test/device/device.test.ts, OpenID sign-ins in test/session/oidc.test.ts, new
 * organizations in test/account/signup-limit.test.ts. Last, two nodes on one PostgreSQL count the same budgets.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;

const asApi = async (res: Response): Promise<ApiResponse> => ({
  status: res.status,
  body: await res.json(),
  headers: res.headers,
});

/** A catalogued 429 that says when to come back, in details and in Retry-After, with the limit's settings. */
function expectLimited(res: ApiResponse, code: string, limit: number, windowSeconds: number) {
  expectError(res, 429, code);
  expect(res.body.details).toMatchObject({ limit, windowSeconds });
  expect(res.body.details.retryAfterSeconds).toBeGreaterThan(0);
  expect(res.body.details.retryAfterSeconds).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers.get("retry-after")).toBe(String(res.body.details.retryAfterSeconds));
}

let relay: MailRelay;
beforeAll(async () => {
  relay = await startMailRelay();
}, HOOK_TIMEOUT);
afterAll(() => relay?.stop(), HOOK_TIMEOUT);

describe("sign-in links per client address (ASSAY_SIGNIN_LINKS_PER_CLIENT)", () => {
  const LIMIT = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url, ASSAY_SIGNIN_LINKS_PER_CLIENT: String(LIMIT) });
  }, HOOK_TIMEOUT);
  afterAll(() => server?.stop(), HOOK_TIMEOUT);

  test("past the limit, a link for any email is 429 SIGNIN_RATE_LIMITED with Retry-After, on the API and the page; nothing more is written or sent", async () => {
    // A refused request counts nothing.
    expectError(
      await server.api("POST", "/api/session/email", { body: { email: "not-an-address" } }),
      400,
      "SIGNUP_INVALID_EMAIL",
    );
    for (let i = 0; i < LIMIT; i++)
      expect((await server.api("POST", "/api/session/email", { body: { email: uniqueEmail("many") } })).status).toBe(
        202,
      );
    const before = { events: eventCount(server), mail: relay.messages.length };
    for (let i = 0; i < 20; i++) {
      // A new recipient each time: the per-recipient limit never comes into it.
      const refused = await server.api("POST", "/api/session/email", { body: { email: uniqueEmail("many") } });
      expectLimited(refused, "SIGNIN_RATE_LIMITED", LIMIT, 900);
    }
    const onPage = await postForm(server, "/signin", { email: uniqueEmail("many-page") });
    expect(onPage.status).toBe(429);
    expect(Number(onPage.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(onPage.text).toContain("Too many sign-in links asked for from this client address");
    expect(onPage.text).toContain("No link was sent.");
    expect({ events: eventCount(server), mail: relay.messages.length }).toEqual(before);
  });
});

describe("sign-ins per client address (ASSAY_SIGNINS_PER_CLIENT)", () => {
  const LIMIT = 3;
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url, ASSAY_SIGNINS_PER_CLIENT: String(LIMIT) });
  }, HOOK_TIMEOUT);
  afterAll(() => server?.stop(), HOOK_TIMEOUT);

  test("past the limit, using a sign-in link or opening an invitation is 429 SESSION_START_RATE_LIMITED; the log stops growing and the link is not used up", async () => {
    const admin = await signIn(server, relay, uniqueEmail("limit-admin"));
    const invited = uniqueEmail("limit-invited");
    expect(
      (
        await server.api("POST", "/api/invitations", {
          headers: inSession(admin),
          body: { email: invited, role: "member" },
        })
      ).status,
    ).toBe(201);
    const invitation = await relay.invitationFor(invited);
    const emails = [uniqueEmail("limit-a"), uniqueEmail("limit-b"), uniqueEmail("limit-c")];
    for (const email of emails)
      expect((await server.api("POST", "/api/session/email", { body: { email } })).status).toBe(202);
    const links = await Promise.all(emails.map((e) => relay.linkFor(e)));
    // A link that is not valid starts nothing, so it counts nothing.
    expect((await openLink(`${server.baseUrl}/api/session/callback?token=not-a-token`)).status).toBe(400);
    for (const link of links.slice(0, LIMIT - 1)) expect((await openLink(link)).status).toBe(303);

    const before = eventCount(server);
    for (let i = 0; i < 3; i++) {
      const refusedLink = await openLink(links[LIMIT - 1]!);
      expect(refusedLink.headers.get("set-cookie")).toBeNull();
      // Refused again rather than SIGNIN_LINK_INVALID: the link was not used.
      expectLimited(await asApi(refusedLink), "SESSION_START_RATE_LIMITED", LIMIT, 3600);
      const refusedInvitation = await openLink(invitation);
      expect(refusedInvitation.headers.get("set-cookie")).toBeNull();
      expectLimited(await asApi(refusedInvitation), "SESSION_START_RATE_LIMITED", LIMIT, 3600);
    }
    expect(eventCount(server)).toBe(before);
  });
});

describe("on PostgreSQL, two nodes count each address once", () => {
  let postgres: TestPostgres;
  let a: TestServer;
  let b: TestServer;
  const dirs = scratchDirs();
  beforeAll(async () => {
    postgres = await startPostgres();
    const env = {
      ASSAY_DATABASE_URL: postgres.url,
      ASSAY_MAIL_RELAY_URL: relay.url,
      ASSAY_DEVICE_CODES_PER_ADDRESS: "2",
      ASSAY_SIGNUPS_PER_ADDRESS: "1",
    };
    a = await startServer({ ...env, DATA_DIR: dirs.next() });
    b = await startServer({ ...env, DATA_DIR: dirs.next() });
  }, HOOK_TIMEOUT);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await postgres?.stop();
    dirs.removeAll();
  }, HOOK_TIMEOUT);

  test("device codes asked of both nodes in turn stop at the one limit", async () => {
    expect((await a.api("POST", "/api/device/code", { body: {} })).status).toBe(200);
    expect((await b.api("POST", "/api/device/code", { body: {} })).status).toBe(200);
    for (const node of [a, b])
      expectLimited(await node.api("POST", "/api/device/code", { body: {} }), "DEVICE_CODE_RATE_LIMITED", 2, 600);
  });

  test("an organization opened by signup on one node leaves no budget for a new email's link on the other", async () => {
    expect((await a.api("POST", "/api/signup", { body: { email: uniqueEmail("pg-budget") } })).status).toBe(201);
    expectLimited(
      await b.api("POST", "/api/session/email", { body: { email: uniqueEmail("pg-link") } }),
      "SIGNUP_RATE_LIMITED",
      1,
      3600,
    );
    // b's copy of the log has caught up with a's signup by now (each request reads the log as it stands).
    const before = eventCount(b);
    expectLimited(
      await b.api("POST", "/api/session/email", { body: { email: uniqueEmail("pg-link") } }),
      "SIGNUP_RATE_LIMITED",
      1,
      3600,
    );
    expect(eventCount(b)).toBe(before);
    expect(eventsOf(b).some((e) => e.type === "SignInLinkIssued")).toBe(false);
  });
});
