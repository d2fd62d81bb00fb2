import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventsOf, expectError, startServer, uniqueEmail, type ApiResponse, type TestServer } from "../support/harness";

/**
 * OpenID Connect sign-in against a real provider (oidc-provider) on loopback, driven by hand as a browser would:
 * each redirect followed, the provider's login and consent forms posted. The provider's accounts are their
 * emails: logging in as an address gives that email, verified unless it starts with "unverified".
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;
const CLIENT_ID = "assay-test";
const CLIENT_SECRET = "a-client-secret-long-enough-for-the-provider";
const INVITED = "invited.example";

let issuer: string;
let providerServer: Server;
let server: TestServer;
let strict: TestServer;
let plain: TestServer;
let unreachable: TestServer;
/** One organization and three sign-ins per client address. */
let limited: TestServer;
/** The email the limited server's one organization was opened for. */
let limitedEmail: string;

beforeAll(async () => {
  providerServer = createServer();
  await new Promise<void>((resolve) => providerServer.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  const oidcEnv = {
    ASSAY_OIDC_ISSUER: issuer,
    ASSAY_OIDC_CLIENT_ID: CLIENT_ID,
    ASSAY_OIDC_CLIENT_SECRET: CLIENT_SECRET,
  };
  server = await startServer(oidcEnv);
  strict = await startServer({ ...oidcEnv, ASSAY_SIGNIN_DOMAINS: INVITED });
  limited = await startServer({ ...oidcEnv, ASSAY_SIGNUPS_PER_ADDRESS: "1", ASSAY_SIGNINS_PER_CLIENT: "3" });
  plain = await startServer();
  // A provider that is not there: a port this test just closed.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  unreachable = await startServer({ ...oidcEnv, ASSAY_OIDC_ISSUER: `http://127.0.0.1:${closedPort}` });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [server, strict, limited].map((s) => `${s.baseUrl}/api/session/oidc/callback`),
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        claims: async () => ({ sub, email: sub, email_verified: !sub.startsWith("unverified") }),
      };
    },
  });
  providerServer.on("request", provider.callback());
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  await strict?.stop();
  await limited?.stop();
  await plain?.stop();
  await unreachable?.stop();
  providerServer?.close();
}, HOOK_TIMEOUT);

const eventCount = (s: TestServer) => eventsOf(s).length;

/** A browser's cookies for one host, as name=value pairs (paths ignored: each flow gets a jar of its own). */
class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const value = pair!.slice(eq + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.set(pair!.slice(0, eq), value);
      else this.cookies.delete(pair!.slice(0, eq));
    }
  }
  get(name: string) {
    return this.cookies.get(name);
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

interface Flow {
  /** The app's cookies (the OIDC state cookie). */
  app: Jar;
  /** Where the provider sent the browser back: the app's callback with its query. */
  callback: URL;
}

/**
 * From the app's start route to the provider's redirect back, not following that last one: logs in as `login`
 * and consents, or cancels at the login form when `abort` is set.
 */
async function throughProvider(
  app: TestServer,
  login: string,
  opts: { next?: string; abort?: boolean } = {},
): Promise<Flow> {
  const appJar = new Jar();
  const start = await fetch(
    `${app.baseUrl}/api/session/oidc/start${opts.next ? `?next=${encodeURIComponent(opts.next)}` : ""}`,
    { redirect: "manual" },
  );
  expect(start.status).toBe(303);
  appJar.take(start);
  const jar = new Jar();
  let url = new URL(start.headers.get("location")!);
  expect(url.origin).toBe(issuer);
  for (let step = 0; step < 20; step++) {
    if (url.href.startsWith(`${app.baseUrl}/api/session/oidc/callback`)) return { app: appJar, callback: url };
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get("location")!, url);
      continue;
    }
    const html = await res.text();
    expect(res.status).toBe(200);
    const action = new URL(/<form[^>]*action="([^"]+)"/.exec(html)![1]!, url);
    const prompt = /name="prompt" value="(\w+)"/.exec(html)![1];
    if (prompt === "login" && opts.abort) {
      url = new URL(/href="([^"]*\/abort)"/.exec(html)![1]!, url);
      continue;
    }
    const form: Record<string, string> = prompt === "login" ? { prompt, login, password: "any" } : { prompt: prompt! };
    const posted = await fetch(action, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    jar.take(posted);
    expect(posted.status).toBe(303);
    url = new URL(posted.headers.get("location")!, url);
  }
  throw new Error("the provider never sent the browser back");
}

/** The browser arriving back at the app's callback, with the app's cookies as they are or as given. */
const callback = (app: TestServer, url: URL, cookie: string) =>
  fetch(`${app.baseUrl}${url.pathname}${url.search}`, { redirect: "manual", headers: { cookie } });

async function asApi(res: Response): Promise<ApiResponse> {
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const sessionCookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("assay_session="))
    ?.split(";")[0];

describe("OpenID Connect sign-in", () => {
  test("a new email signs in: a free organization with the person as admin, a session, and the redirect to next", async () => {
    const email = uniqueEmail("oidc");
    const flow = await throughProvider(server, email, { next: "/jobs?page=2" });
    // The state cookie is short-lived, HttpOnly and scoped to the OIDC routes; the verifier and nonce never leave the server.
    const stateCookie = flow.app.get("assay_oidc");
    expect(flow.callback.searchParams.get("state")).toBe(stateCookie!);
    expect(flow.callback.searchParams.get("code")).toBeTruthy();
    const before = eventCount(server);
    const res = await callback(server, flow.callback, `assay_oidc=${stateCookie}; assay_session=an-old-session-secret`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/jobs?page=2");
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => /^assay_oidc=;.*Path=\/api\/session\/oidc;.*Max-Age=0/.test(c))).toBe(true);
    const cookie = sessionCookieOf(res)!;
    expect(cookie).not.toBe("assay_session=an-old-session-secret");
    const session = await server.api("GET", "/api/session", { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.email).toBe(email);
    expect(session.body.role).toBe("admin");
    expect(session.body.organizations).toEqual([
      { customerId: session.body.customerId, orgCode: expect.any(String), role: "admin" },
    ]);
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["PersonRegistered", "EmailClaimed", "AccountOpened", "MemberAdded", "CreditsGranted", "SessionStarted"]);
  });

  test("signing in with a signup email claims that organization; a second sign-in only starts a session", async () => {
    const account = await server.signup(uniqueEmail("oidc-claim"));
    const [local, domain] = account.email.split("@");
    const flow = await throughProvider(server, `${local}@${domain!.toUpperCase()}`);
    const before = eventCount(server);
    const res = await callback(server, flow.callback, flow.app.header());
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const session = await server.api("GET", "/api/session", { headers: { cookie: sessionCookieOf(res)! } });
    expect(session.body.customerId).toBe(account.customerId);
    expect(session.body.organizations).toEqual([
      { customerId: account.customerId, orgCode: account.orgCode, role: "admin" },
    ]);
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["PersonRegistered", "MemberAdded", "SessionStarted"]);

    const again = await throughProvider(server, account.email);
    const mark = eventCount(server);
    expect((await callback(server, again.callback, again.app.header())).status).toBe(303);
    expect(
      eventsOf(server)
        .slice(mark)
        .map((e) => e.type),
    ).toEqual(["SessionStarted"]);
  });

  test("outside ASSAY_SIGNIN_DOMAINS it is UNAUTHORIZED_DOMAIN and nothing is created; inside, it signs in", async () => {
    const refused = await throughProvider(strict, uniqueEmail("outsider"));
    const before = eventCount(strict);
    const res = await callback(strict, refused.callback, refused.app.header());
    expect(sessionCookieOf(res)).toBeUndefined();
    expectError(await asApi(res), 403, "UNAUTHORIZED_DOMAIN");
    expect(eventCount(strict)).toBe(before);

    const invited = await throughProvider(strict, `someone-${Date.now()}@${INVITED}`);
    expect((await callback(strict, invited.callback, invited.app.header())).status).toBe(303);
  });

  test("a first sign-in spends the address's budget of new organizations (the one signup spends): past it SIGNUP_RATE_LIMITED, nothing created", async () => {
    const account = await limited.signup(uniqueEmail("oidc-budget"));
    limitedEmail = account.email;
    expectError(
      await limited.api("POST", "/api/signup", { body: { email: uniqueEmail("oidc-budget") } }),
      429,
      "SIGNUP_RATE_LIMITED",
    );
    const fresh = await throughProvider(limited, uniqueEmail("oidc-new"));
    const before = eventCount(limited);
    const res = await callback(limited, fresh.callback, fresh.app.header());
    expect(sessionCookieOf(res)).toBeUndefined();
    const refused = await asApi(res);
    expectError(refused, 429, "SIGNUP_RATE_LIMITED");
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.retryAfterSeconds));
    expect(eventCount(limited)).toBe(before);
    // An email that opens nothing still signs in: it claims the organization its signup opened.
    const claim = await throughProvider(limited, account.email);
    expect((await callback(limited, claim.callback, claim.app.header())).status).toBe(303);
  });

  test("past ASSAY_SIGNINS_PER_CLIENT (3) sign-ins from one address: SESSION_START_RATE_LIMITED with Retry-After, and the log stops growing", async () => {
    // The test above signed in once (its refused sign-in counted nothing): two more, then each is refused.
    for (let i = 0; i < 2; i++) {
      const flow = await throughProvider(limited, limitedEmail);
      expect((await callback(limited, flow.callback, flow.app.header())).status).toBe(303);
    }
    const before = eventCount(limited);
    for (let i = 0; i < 3; i++) {
      const flow = await throughProvider(limited, limitedEmail);
      const res = await callback(limited, flow.callback, flow.app.header());
      expect(sessionCookieOf(res)).toBeUndefined();
      const refused = await asApi(res);
      expectError(refused, 429, "SESSION_START_RATE_LIMITED");
      expect(refused.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: 3, windowSeconds: 3600 });
      expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.retryAfterSeconds));
    }
    expect(eventCount(limited)).toBe(before);
  });

  test("a tampered or missing state is OIDC_STATE_INVALID, starts nothing, and leaves the genuine answer usable", async () => {
    const flow = await throughProvider(server, uniqueEmail("tamper"));
    const before = eventCount(server);
    const tampered = new URL(flow.callback);
    tampered.searchParams.set("state", `${flow.callback.searchParams.get("state")}x`);
    for (const [url, cookie] of [
      [tampered, flow.app.header()],
      [flow.callback, ""],
      [flow.callback, "assay_oidc=another-browsers-state"],
    ] as const) {
      const res = await callback(server, url, cookie);
      expect(sessionCookieOf(res)).toBeUndefined();
      const body = await asApi(res);
      expectError(body, 400, "OIDC_STATE_INVALID");
      expect(body.body.details).toEqual({ reason: "mismatch" });
    }
    // A state made to match in both places is still one this server never issued.
    const forged = new URL(tampered);
    const res = await asApi(await callback(server, forged, `assay_oidc=${forged.searchParams.get("state")}`));
    expectError(res, 400, "OIDC_STATE_INVALID");
    expect(res.body.details).toEqual({ reason: "not_pending" });
    expect(eventCount(server)).toBe(before);
    expect((await callback(server, flow.callback, flow.app.header())).status).toBe(303);
  });

  test("a used state is refused on replay, and a used code is refused by the provider: no session either way", async () => {
    const first = await throughProvider(server, uniqueEmail("replay"));
    expect((await callback(server, first.callback, first.app.header())).status).toBe(303);
    const before = eventCount(server);

    const replayed = await callback(server, first.callback, first.app.header());
    expect(sessionCookieOf(replayed)).toBeUndefined();
    const replay = await asApi(replayed);
    expectError(replay, 400, "OIDC_STATE_INVALID");
    expect(replay.body.details).toEqual({ reason: "not_pending" });

    // The first answer's code under a fresh sign-in's state: the state passes, the provider refuses the code.
    const second = await throughProvider(server, uniqueEmail("replay"));
    const reused = new URL(second.callback);
    reused.searchParams.set("code", first.callback.searchParams.get("code")!);
    const res = await callback(server, reused, second.app.header());
    expect(sessionCookieOf(res)).toBeUndefined();
    const refused = await asApi(res);
    expectError(refused, 400, "OIDC_SIGNIN_FAILED");
    expect(refused.body.details).toEqual({ reason: "provider", error: "invalid_grant" });
    expect(eventCount(server)).toBe(before);
  });

  test("a cancelled sign-in and an unverified email are OIDC_SIGNIN_FAILED and start nothing", async () => {
    const before = eventCount(server);
    const cancelled = await throughProvider(server, uniqueEmail("cancel"), { abort: true });
    expect(cancelled.callback.searchParams.get("error")).toBe("access_denied");
    const denied = await asApi(await callback(server, cancelled.callback, cancelled.app.header()));
    expectError(denied, 400, "OIDC_SIGNIN_FAILED");
    expect(denied.body.details).toEqual({ reason: "provider", error: "access_denied" });

    const unverified = await throughProvider(server, uniqueEmail("unverified"));
    const res = await asApi(await callback(server, unverified.callback, unverified.app.header()));
    expectError(res, 400, "OIDC_SIGNIN_FAILED");
    expect(res.body.details).toEqual({ reason: "email_unverified" });
    expect(eventCount(server)).toBe(before);
  });

  test("without a configured provider, or with one that cannot be reached, the start route is SERVICE_UNAVAILABLE", async () => {
    const res = await plain.api("GET", "/api/session/oidc/start");
    expectError(res, 503, "SERVICE_UNAVAILABLE");
    expect(res.body.details).toEqual({ dependency: "oidc" });
    const down = await unreachable.api("GET", "/api/session/oidc/start");
    expectError(down, 503, "SERVICE_UNAVAILABLE");
    expect(down.body.details).toEqual({ dependency: "oidc", reason: expect.any(String) });
  });
});

describe("OpenID Connect sign-in in a real browser", () => {
  test("Chromium: the sign-in page offers the provider; log in, consent, and land signed in on the page asked for", async () => {
    const browser = await chromium.launch({
      executablePath: findChromium(process.env.CHROMIUM_PATH)!,
      headless: true,
      args: BASE_CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const email = uniqueEmail("chromium");
      await page.goto(`${server.baseUrl}/dashboard/keys`);
      expect(page.url()).toBe(`${server.baseUrl}/signin?next=%2Fdashboard%2Fkeys`);
      await page.getByRole("link", { name: "sign in with your company account" }).click();
      expect(page.url().startsWith(issuer)).toBe(true);
      await page.fill('input[name="login"]', email);
      await page.fill('input[name="password"]', "any");
      await page.click('button[type="submit"]');
      await page.waitForSelector('input[name="prompt"][value="consent"]', { state: "attached" });
      await page.click('button[type="submit"]');
      await page.waitForURL(`${server.baseUrl}/dashboard/keys`);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("API keys");
      expect(await page.locator(".shell").textContent()).toContain(email);
      const session = await page.evaluate(async () => (await fetch("/api/session")).json());
      expect(session.email).toBe(email);
      expect(session.role).toBe("admin");
      // Cookies are per host, not port: the provider's share the jar. Of Assay's, the state cookie is gone.
      const cookies = (await page.context().cookies(server.baseUrl)).filter((c) => c.name.startsWith("assay_"));
      expect(cookies.map((c) => c.name)).toEqual(["assay_session"]);
      expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    } finally {
      await browser.close();
    }
  });
});
