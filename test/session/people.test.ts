import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { rmSync } from "node:fs";
import {
  ROOT,
  eventCount,
  eventsOf,
  expectError,
  startServer,
  tempDataDir,
  uniqueEmail,
  type TestServer,
} from "../support/harness";
import { clearedSessionCookie, sessionCookie } from "../../src/operations/session-cookie";
import {
  cookieOf,
  inSession,
  openLink,
  signIn,
  startMailRelay,
  type MailRelay,
  type SignedIn,
} from "../support/mail-relay";

/**
 * People through the real interface: sign-in by an emailed link (a real SMTP server stands in for the relay),
 * sessions, CSRF, members, and the key lifecycle. Two servers: one as configured by default (with a short
 * rotation overlap), one restricted to an invited domain, with one-second links and no rotation overlap.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;
const OVERLAP_SECONDS = 1;
const INVITED = "invited.example";

let relay: MailRelay;
let server: TestServer;
let strict: TestServer;

beforeAll(async () => {
  relay = await startMailRelay();
  server = await startServer({
    ASSAY_MAIL_RELAY_URL: relay.url,
    ASSAY_KEY_ROTATION_OVERLAP_SECONDS: String(OVERLAP_SECONDS),
  });
  strict = await startServer({
    ASSAY_MAIL_RELAY_URL: relay.url,
    ASSAY_SIGNIN_DOMAINS: `other.example, ${INVITED.toUpperCase()}`,
    ASSAY_SIGNIN_LINK_TTL_SECONDS: "1",
    ASSAY_KEY_ROTATION_OVERLAP_SECONDS: "0",
  });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  await strict?.stop();
  await relay?.stop();
}, HOOK_TIMEOUT);

const sessionOf = (s: TestServer, who: SignedIn) => s.api("GET", "/api/session", { headers: inSession(who, null) });
const asKey = (s: TestServer, apiKey: string) => s.api("GET", "/api/org", { key: apiKey });

describe("sign-in by email link", () => {
  test("asking for a link answers 202 with the same body whether or not the email has an account", async () => {
    const known = (await server.signup()).email;
    const a = await server.api("POST", "/api/session/email", { body: { email: known } });
    const b = await server.api("POST", "/api/session/email", { body: { email: uniqueEmail("nobody") } });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(a.body).toEqual(b.body);
  });

  test("a new email's first sign-in opens a free organization with the person as admin, and no key", async () => {
    const email = uniqueEmail("first");
    const before = eventCount(server);
    const who = await signIn(server, relay, email);
    const session = await sessionOf(server, who);
    expect(session.status).toBe(200);
    expect(session.body.email).toBe(email);
    expect(session.body.role).toBe("admin");
    expect(session.body.organizations).toEqual([
      { customerId: who.customerId, orgCode: expect.any(String), role: "admin" },
    ]);
    const types = eventsOf(server)
      .slice(before)
      .map((e) => e.type);
    expect(types).toEqual([
      "SignInLinkIssued",
      "SignInLinkUsed",
      "PersonRegistered",
      "EmailClaimed",
      "AccountOpened",
      "MemberAdded",
      "CreditsGranted",
      "SessionStarted",
    ]);
    expect((await server.assay.accounts.credits(who.customerId)).balance).toBe(server.assay.config.signupCredits);
    // The link's mail went through the relay, to that address.
    expect(relay.messages.findLast((m) => m.to === email)?.subject).toBe("Your Assay sign-in link");
  });

  test("signing in with a signup email claims that organization: the person becomes its admin, nothing new is opened", async () => {
    const account = await server.signup(uniqueEmail("claim"));
    const [local, domain] = account.email.split("@");
    const who = await signIn(server, relay, `${local}@${domain!.toUpperCase()}`);
    expect(who.customerId).toBe(account.customerId);
    const session = await sessionOf(server, who);
    expect(session.body.organizations).toEqual([
      { customerId: account.customerId, orgCode: account.orgCode, role: "admin" },
    ]);
    // Signing in again claims nothing twice.
    const before = eventCount(server);
    const again = await signIn(server, relay, account.email);
    expect(again.customerId).toBe(account.customerId);
    expect(
      eventsOf(server)
        .slice(before)
        .map((e) => e.type),
    ).toEqual(["SignInLinkIssued", "SignInLinkUsed", "SessionStarted"]);
  });

  test("a link works once; a used or unknown token is SIGNIN_LINK_INVALID and starts nothing", async () => {
    const email = uniqueEmail("once");
    await server.api("POST", "/api/session/email", { body: { email } });
    const link = await relay.linkFor(email);
    expect((await openLink(link)).status).toBe(303);
    const before = eventCount(server);
    const reused = await openLink(link);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as any).details).toEqual({ reason: "used" });
    const unknown = await server.api("GET", "/api/session/callback?token=nope");
    expectError(unknown, 400, "SIGNIN_LINK_INVALID");
    expect(unknown.body.details).toEqual({ reason: "unknown" });
    expect(eventCount(server)).toBe(before);
  });

  test("an expired link is SIGNIN_LINK_INVALID and starts nothing", async () => {
    const email = `late-${Date.now()}@${INVITED}`;
    expect((await strict.api("POST", "/api/session/email", { body: { email } })).status).toBe(202);
    const link = (await relay.linkFor(email)).replace(/^http:\/\/[^/]+/, strict.baseUrl);
    await Bun.sleep(1100);
    const before = eventCount(strict);
    const res = await openLink(link);
    expect(res.status).toBe(400);
    expect((await res.json()) as any).toMatchObject({ code: "SIGNIN_LINK_INVALID", details: { reason: "expired" } });
    expect(eventCount(strict)).toBe(before);
  });

  test("outside ASSAY_SIGNIN_DOMAINS sign-in is UNAUTHORIZED_DOMAIN: no event, no mail; an invited domain signs in", async () => {
    const before = { events: eventCount(strict), mail: relay.messages.length };
    const refused = await strict.api("POST", "/api/session/email", { body: { email: uniqueEmail("outsider") } });
    expectError(refused, 403, "UNAUTHORIZED_DOMAIN");
    expect({ events: eventCount(strict), mail: relay.messages.length }).toEqual(before);
    const who = await signIn(strict, relay, `Insider-${Date.now()}@${INVITED}`);
    expect((await sessionOf(strict, who)).status).toBe(200);
  });

  test("the link lands on `next` when it is a path on this site; another origin is refused", async () => {
    const email = uniqueEmail("next");
    expect((await server.api("POST", "/api/session/email", { body: { email, next: "/keys?tab=1" } })).status).toBe(202);
    const res = await openLink(await relay.linkFor(email));
    expect([res.status, res.headers.get("location")]).toEqual([303, "/keys?tab=1"]);
    for (const next of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      expectError(
        await server.api("POST", "/api/session/email", { body: { email, next } }),
        400,
        "INVALID_REQUEST_BODY",
      );
    }
  });
});

describe("sessions", () => {
  test("the cookie is HttpOnly, SameSite=Lax, Path=/, not Secure on http, and its id is fresh: a cookie set before sign-in is never adopted", async () => {
    const email = uniqueEmail("fixation");
    await server.api("POST", "/api/session/email", { body: { email } });
    const planted = "assay_session=attacker-chosen-value-0123456789";
    const res = await openLink(await relay.linkFor(email), planted);
    expect(res.status).toBe(303);
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^assay_session=[0-9A-Za-z]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(cookieOf(res)).not.toBe(planted);
    expectError(await server.api("GET", "/api/session", { headers: { cookie: planted } }), 401, "AUTH_REQUIRED");
    expect((await server.api("GET", "/api/session", { headers: { cookie: cookieOf(res) } })).status).toBe(200);
  });

  test("behind https (PUBLIC_BASE_URL) the cookie is also Secure, when set and when cleared", () => {
    const config = { publicBaseUrl: "https://assay.example", sessionMaxSeconds: 60 };
    expect(sessionCookie("s3cret", config)).toBe(
      "assay_session=s3cret; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=60",
    );
    expect(clearedSessionCookie(config)).toBe("assay_session=; Path=/; HttpOnly; SameSite=Lax; Secure; Max-Age=0");
  });

  test("a session slides while used (a SessionRenewed event, not one per request) and ends at its absolute lifetime all the same", async () => {
    const config = strict.assay.config;
    const saved = { idle: config.sessionIdleSeconds, max: config.sessionMaxSeconds };
    // Two seconds idle (so renewed when a second old), three at most; the server reads its settings live.
    Object.assign(config, { sessionIdleSeconds: 2, sessionMaxSeconds: 3 });
    try {
      const who = await signIn(strict, relay, `slider-${Date.now()}@${INVITED}`);
      const started = eventsOf(strict).findLast((e) => e.type === "SessionStarted")!;
      if (started.type !== "SessionStarted") throw new Error("no session");
      await Bun.sleep(Math.max(0, Date.parse(started.recordedAt) + 1100 - Date.now()));
      const renewed = await sessionOf(strict, who);
      expect(renewed.status).toBe(200);
      expect(renewed.body.expiresAt).toBe(started.data.endsBy);
      expect(eventsOf(strict).at(-1)).toMatchObject({
        type: "SessionRenewed",
        data: { sessionId: started.data.sessionId, expiresAt: started.data.endsBy },
      });
      const count = eventCount(strict);
      expect((await sessionOf(strict, who)).status).toBe(200);
      expect(eventCount(strict)).toBe(count);
      // Past the idle end it started with: alive, because it was used.
      await Bun.sleep(Math.max(0, Date.parse(started.data.expiresAt) + 100 - Date.now()));
      expect((await sessionOf(strict, who)).status).toBe(200);
      await Bun.sleep(Math.max(0, Date.parse(started.data.endsBy) + 50 - Date.now()));
      expectError(await sessionOf(strict, who), 401, "AUTH_REQUIRED");
    } finally {
      Object.assign(config, { sessionIdleSeconds: saved.idle, sessionMaxSeconds: saved.max });
    }
  });

  test("without a session, GET /api/session is AUTH_REQUIRED", async () => {
    expectError(await server.api("GET", "/api/session"), 401, "AUTH_REQUIRED");
  });

  test("a state-changing request without the CSRF token, or with a wrong one, is CSRF_TOKEN_INVALID and changes nothing", async () => {
    const who = await signIn(server, relay, uniqueEmail("csrf"));
    const before = eventCount(server);
    for (const csrf of [null, "0".repeat(64), who.csrfToken.slice(1)]) {
      const res = await server.api("POST", "/api/keys", {
        headers: inSession(who, csrf),
        body: { name: "x", scopes: ["jobs:read"] },
      });
      expectError(res, 403, "CSRF_TOKEN_INVALID");
      expectError(
        await server.api("POST", "/api/session/signout", { headers: inSession(who, csrf) }),
        403,
        "CSRF_TOKEN_INVALID",
      );
    }
    expect(eventCount(server)).toBe(before);
    expect((await sessionOf(server, who)).status).toBe(200);
  });

  test("sign-out ends the session on the server (a _csrf form field carries the token): the same cookie then gets 401", async () => {
    const who = await signIn(server, relay, uniqueEmail("signout"));
    const res = await server.api("POST", "/api/session/signout", {
      headers: { cookie: who.cookie, "content-type": "application/x-www-form-urlencoded" },
      rawBody: `_csrf=${who.csrfToken}`,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/^assay_session=; .*Max-Age=0/);
    expectError(await sessionOf(server, who), 401, "AUTH_REQUIRED");
    expect(eventsOf(server).at(-1)).toMatchObject({
      type: "SessionEnded",
      data: { reason: "signout" },
      metadata: { actor: { kind: "session", id: who.personId } },
    });
  });

  test("switching organization: to one of the person's works; another's or an unknown one is the same CUSTOMER_NOT_FOUND", async () => {
    const admin = await signIn(server, relay, uniqueEmail("switch-admin"));
    const own = await server.signup(uniqueEmail("switch-own"));
    const added = await server.api("POST", "/api/members", {
      headers: inSession(admin),
      body: { email: own.email, role: "member" },
    });
    expect(added.status).toBe(201);
    // Signing in claims the person's own signup organization; the other is a membership.
    const who = await signIn(server, relay, own.email);
    expect(who.customerId).toBe(own.customerId);
    const switched = await server.api("POST", "/api/session/organization", {
      headers: inSession(who),
      body: { customerId: admin.customerId },
    });
    expect(switched.status).toBe(200);
    expect([switched.body.customerId, switched.body.role]).toEqual([admin.customerId, "member"]);
    expect(switched.body.organizations.map((o: { role: string }) => o.role).sort()).toEqual(["admin", "member"]);
    expect((await sessionOf(server, who)).body.customerId).toBe(admin.customerId);

    const stranger = await server.signup(uniqueEmail("switch-stranger"));
    const before = eventCount(server);
    const other = await server.api("POST", "/api/session/organization", {
      headers: inSession(who),
      body: { customerId: stranger.customerId },
    });
    const missing = await server.api("POST", "/api/session/organization", {
      headers: inSession(who),
      body: { customerId: "cus_0000000000000000000000" },
    });
    expectError(other, 404, "CUSTOMER_NOT_FOUND");
    expectError(missing, 404, "CUSTOMER_NOT_FOUND");
    expect(other.body.message.replace(stranger.customerId, "X")).toBe(
      missing.body.message.replace("cus_0000000000000000000000", "X"),
    );
    expect(eventCount(server)).toBe(before);
  });
});

describe("keys from a session", () => {
  let admin: SignedIn;
  let member: SignedIn;
  beforeAll(async () => {
    admin = await signIn(server, relay, uniqueEmail("keys-admin"));
    const email = uniqueEmail("keys-member");
    expect(
      (await server.api("POST", "/api/members", { headers: inSession(admin), body: { email, role: "member" } })).status,
    ).toBe(201);
    member = await signIn(server, relay, email);
    expect(member.customerId).toBe(admin.customerId);
  }, HOOK_TIMEOUT);

  const mint = (who: SignedIn, body: unknown) => server.api("POST", "/api/keys", { headers: inSession(who), body });

  test("mint shows the secret once; the key works, is listed with its times and last use, and the event names actor and channel", async () => {
    const res = await mint(admin, { name: "ci", scopes: ["account:read", "jobs:read"] });
    expect(res.status).toBe(201);
    expect(res.body.apiKey).toMatch(/^assay_sk_[0-9A-Za-z]{43}$/);
    expect(res.body).toMatchObject({
      name: "ci",
      scopes: ["account:read", "jobs:read"],
      status: "active",
      rotatedAt: null,
      revokedAt: null,
    });
    expect((await asKey(server, res.body.apiKey)).body.customerId).toBe(admin.customerId);
    const list = await server.api("GET", "/api/keys", { key: res.body.apiKey });
    const listed = list.body.keys.find((k: { keyId: string }) => k.keyId === res.body.keyId);
    expect(typeof listed.lastUsedAt).toBe("string");
    expect(JSON.stringify(list.body)).not.toContain(res.body.apiKey);
    const event = eventsOf(server).find((e) => e.type === "KeyMinted" && e.data.keyId === res.body.keyId)!;
    expect(event.metadata).toMatchObject({ actor: { kind: "session", id: admin.personId }, channel: "api" });
  });

  test("an unknown scope is INVALID_ENUM_VALUE, and nothing is minted", async () => {
    const before = eventCount(server);
    const res = await mint(member, { name: "x", scopes: ["jobs:read", "org:admin"] });
    expectError(res, 400, "INVALID_ENUM_VALUE");
    expect(res.body.details.allowedValues).toEqual([
      "jobs:read",
      "jobs:write",
      "account:read",
      "feedback:write",
      "webhooks:write",
    ]);
    expect(eventCount(server)).toBe(before);
  });

  test("rotate: a new secret for the same id; the old one works for the overlap, then 401", async () => {
    const key = (await mint(admin, { name: "rotating", scopes: ["account:read"] })).body;
    const res = await server.api("POST", `/api/keys/${key.keyId}/rotate`, { headers: inSession(admin) });
    expect(res.status).toBe(200);
    expect(res.body.keyId).toBe(key.keyId);
    expect(res.body.apiKey).not.toBe(key.apiKey);
    expect(typeof res.body.rotatedAt).toBe("string");
    expect(Date.parse(res.body.previousValidUntil) - Date.parse(res.body.rotatedAt)).toBeGreaterThanOrEqual(
      OVERLAP_SECONDS * 1000 - 5,
    );
    expect((await asKey(server, res.body.apiKey)).status).toBe(200);
    expect((await asKey(server, key.apiKey)).status).toBe(200);
    await Bun.sleep(Math.max(0, Date.parse(res.body.previousValidUntil) - Date.now()) + 50);
    expectError(await asKey(server, key.apiKey), 401, "AUTH_REQUIRED");
    expect((await asKey(server, res.body.apiKey)).status).toBe(200);
  });

  test("rotate with no overlap (ASSAY_KEY_ROTATION_OVERLAP_SECONDS=0): the old secret is refused at once", async () => {
    const who = await signIn(strict, relay, `rotor-${Date.now()}@${INVITED}`);
    const key = (
      await strict.api("POST", "/api/keys", { headers: inSession(who), body: { name: "r", scopes: ["account:read"] } })
    ).body;
    const res = await strict.api("POST", `/api/keys/${key.keyId}/rotate`, { headers: inSession(who) });
    expect(res.status).toBe(200);
    expectError(await asKey(strict, key.apiKey), 401, "AUTH_REQUIRED");
    expect((await asKey(strict, res.body.apiKey)).status).toBe(200);
  });

  test("revoke: the next request with the key is 401", async () => {
    const key = (await mint(member, { name: "doomed", scopes: ["account:read"] })).body;
    expect((await asKey(server, key.apiKey)).status).toBe(200);
    const res = await server.api("POST", `/api/keys/${key.keyId}/revoke`, { headers: inSession(member) });
    expect(res.status).toBe(200);
    expect(typeof res.body.revokedAt).toBe("string");
    expectError(await asKey(server, key.apiKey), 401, "AUTH_REQUIRED");
    // Revoked already: the same 404 as a missing key.
    expectError(
      await server.api("POST", `/api/keys/${key.keyId}/revoke`, { headers: inSession(member) }),
      404,
      "STORAGE_OBJECT_NOT_FOUND",
    );
  });

  test("a key revokes itself with its own Bearer credential (a CLI logout); revoking another key with a key is SELF_REVOKE_ONLY", async () => {
    const mine = (await mint(admin, { name: "laptop", scopes: ["account:read"] })).body;
    const other = (await mint(admin, { name: "other", scopes: ["account:read"] })).body;
    const before = eventCount(server);
    const refused = await server.api("DELETE", `/api/keys/${other.keyId}`, { key: mine.apiKey });
    expectError(refused, 403, "SELF_REVOKE_ONLY");
    expect(eventCount(server)).toBe(before);
    expect((await asKey(server, other.apiKey)).status).toBe(200);
    const res = await server.api("DELETE", `/api/keys/${mine.keyId}`, { key: mine.apiKey });
    expect(res.status).toBe(200);
    expectError(await asKey(server, mine.apiKey), 401, "AUTH_REQUIRED");
    expect(eventsOf(server).at(-1)).toMatchObject({
      type: "KeyRevoked",
      metadata: { actor: { kind: "key", id: mine.keyId }, channel: "api" },
    });
    // From a session, DELETE revokes like POST .../revoke.
    expect((await server.api("DELETE", `/api/keys/${other.keyId}`, { headers: inSession(admin) })).status).toBe(200);
    expectError(await asKey(server, other.apiKey), 401, "AUTH_REQUIRED");
  });

  test("a member rotating or revoking a key they did not mint, or adding a member, is ADMIN_REQUIRED and changes nothing", async () => {
    const adminKey = (await mint(admin, { name: "admin's", scopes: ["account:read"] })).body;
    const before = eventCount(server);
    for (const [method, path] of [
      ["POST", `/api/keys/${adminKey.keyId}/rotate`],
      ["POST", `/api/keys/${adminKey.keyId}/revoke`],
      ["DELETE", `/api/keys/${adminKey.keyId}`],
    ] as const) {
      expectError(await server.api(method, path, { headers: inSession(member) }), 403, "ADMIN_REQUIRED");
    }
    expectError(
      await server.api("POST", "/api/members", {
        headers: inSession(member),
        body: { email: uniqueEmail("x"), role: "member" },
      }),
      403,
      "ADMIN_REQUIRED",
    );
    expect(eventCount(server)).toBe(before);
    expect((await asKey(server, adminKey.apiKey)).status).toBe(200);
    // The member's own key is theirs to rotate.
    const own = (
      await mint(member, {
        name: "mine",
        scopes: ["jobs:read", "jobs:write", "feedback:write", "account:read", "webhooks:write"],
      })
    ).body;
    expect((await server.api("POST", `/api/keys/${own.keyId}/rotate`, { headers: inSession(member) })).status).toBe(
      200,
    );
  });

  test("another organization's key id is the same 404 as a missing one, for rotate, revoke and delete, and nothing changes", async () => {
    const stranger = await server.signup(uniqueEmail("key-stranger"));
    const before = eventCount(server);
    for (const keyId of [stranger.keyId, "key_0000000000000000"]) {
      for (const [method, path] of [
        ["POST", `/api/keys/${keyId}/rotate`],
        ["POST", `/api/keys/${keyId}/revoke`],
        ["DELETE", `/api/keys/${keyId}`],
      ] as const) {
        const res = await server.api(method, path, { headers: inSession(admin) });
        expectError(res, 404, "STORAGE_OBJECT_NOT_FOUND");
        expect(res.body.details).toEqual({ keyId });
      }
    }
    expect(eventCount(server)).toBe(before);
    expect((await asKey(server, stranger.apiKey)).status).toBe(200);
  });
});

test("no secret is stored: not API keys (current or rotated), session cookies, CSRF tokens nor sign-in link tokens", async () => {
  const email = uniqueEmail("secrets");
  await server.api("POST", "/api/session/email", { body: { email } });
  const link = await relay.linkFor(email);
  const linkToken = new URL(link).searchParams.get("token")!;
  const res = await openLink(link);
  const cookie = cookieOf(res);
  const who = {
    cookie,
    csrfToken: (await server.api("GET", "/api/session", { headers: { cookie } })).body.csrfToken,
  } as SignedIn;
  const minted = (
    await server.api("POST", "/api/keys", { headers: inSession(who), body: { name: "s", scopes: ["jobs:read"] } })
  ).body;
  const rotated = (await server.api("POST", `/api/keys/${minted.keyId}/rotate`, { headers: inSession(who) })).body;
  const secrets = [linkToken, cookie.split("=")[1]!, who.csrfToken, minted.apiKey, rotated.apiKey].map((s) =>
    s.replace(/^assay_sk_/, ""),
  );
  for (const s of secrets) expect(s.length).toBeGreaterThanOrEqual(40);
  const db = new Database(join(server.dataDir, "assay.sqlite"), { readonly: true });
  try {
    const tables = db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((t) => t.name);
    for (const table of ["people", "memberships", "sessions", "signin_links", "api_keys", "key_usage"])
      expect(tables).toContain(table);
    for (const table of tables) {
      for (const row of db.query(`SELECT * FROM ${table}`).all()) {
        const text = JSON.stringify(row);
        for (const s of secrets) expect(text).not.toContain(s);
      }
    }
  } finally {
    db.close();
  }
});

test("with no relay configured, `assay serve` says so at start and writes the sign-in link to its log, where it works", async () => {
  const dataDir = tempDataDir();
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "serve"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: "0",
      SMTP_PORT: "0",
      ASSAY_BROWSER_POOL_SIZE: "1",
      ASSAY_MAIL_RELAY_URL: "",
    },
    stdout: "pipe",
    stderr: "inherit",
  });
  let log = "";
  const reader = proc.stdout.getReader();
  const waitFor = async (pattern: RegExp) => {
    for (let match = pattern.exec(log); !match; match = pattern.exec(log)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server stopped; its log:\n${log}`);
      log += new TextDecoder().decode(value);
    }
    return pattern.exec(log)!;
  };
  try {
    const port = (await waitFor(/\(http (\d+),/))[1];
    expect(log).toContain("No mail relay configured (ASSAY_MAIL_RELAY_URL): sign-in links are written to this log.");
    const email = uniqueEmail("one-machine");
    const asked = await fetch(`http://127.0.0.1:${port}/api/session/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(asked.status).toBe(202);
    const link = (await waitFor(/https?:\/\/\S+\/api\/session\/callback\?token=\S+/))[0];
    expect(log).toContain(`to ${email}`);
    const opened = await openLink(link.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`));
    expect(opened.status).toBe(303);
    const session = await fetch(`http://127.0.0.1:${port}/api/session`, { headers: { cookie: cookieOf(opened) } });
    expect(((await session.json()) as { email: string }).email).toBe(email);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
