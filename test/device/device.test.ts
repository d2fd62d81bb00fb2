import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chromium } from "playwright-core";
import { errorEntry } from "../../src/errors/catalog";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  eventCount,
  eventsOf,
  expectError,
  runClient,
  startServer,
  uniqueEmail,
  type TestServer,
} from "../support/harness";
import { decideDevice, hidden, page, postForm } from "../support/pages";
import { inSession, signIn, startMailRelay, type MailRelay } from "../support/mail-relay";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";

/**
 * Device authorization (RFC 8628) through the real interface: the code and token endpoints as a command-line
 * client calls them (forms, as OAuth clients send), the /device page as a browser without JavaScript posts its
 * forms (session cookie and CSRF token), and once in real Chromium. A second server has one-second codes.
 */

setDefaultTimeout(120_000);
const HOOK_TIMEOUT = 120_000;
const GRANT = "urn:ietf:params:oauth:grant-type:device_code";

let relay: MailRelay;
let server: TestServer;
let shortLived: TestServer;

beforeAll(async () => {
  relay = await startMailRelay();
  server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url });
  shortLived = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url, ASSAY_DEVICE_CODE_TTL_SECONDS: "1" });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  await shortLived?.stop();
  await relay?.stop();
}, HOOK_TIMEOUT);

const requestCode = async (s: TestServer, fields: Record<string, string> = {}) => {
  const res = await postForm(s, "/api/device/code", fields);
  expect(res.status).toBe(200);
  return res.json() as {
    device_code: string;
    user_code: string;
    verification_uri: string;
    verification_uri_complete: string;
    expires_in: number;
    interval: number;
  };
};
const poll = (s: TestServer, deviceCode: string) =>
  postForm(s, "/api/device/token", { grant_type: GRANT, device_code: deviceCode, client_id: "assay-cli" });

function expectOAuthError(res: { status: number; text: string }, error: string) {
  expect(res.status).toBe(400);
  const body = JSON.parse(res.text);
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
}

const eventsOfType = (s: TestServer, type: string) => eventsOf(s).filter((e) => e.type === type);

describe("device codes per client address", () => {
  const LIMIT = 3;
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ ASSAY_DEVICE_CODES_PER_ADDRESS: String(LIMIT) });
  }, HOOK_TIMEOUT);
  afterAll(() => limited?.stop(), HOOK_TIMEOUT);

  test(`past ASSAY_DEVICE_CODES_PER_ADDRESS (${LIMIT}) codes: 429 DEVICE_CODE_RATE_LIMITED with Retry-After, and the log stops growing`, async () => {
    // A refused request (an unknown scope) counts nothing.
    expectOAuthError(await postForm(limited, "/api/device/code", { scope: "admin" }), "invalid_scope");
    for (let i = 0; i < LIMIT; i++) await requestCode(limited, { client_id: "assay-cli" });
    const before = eventCount(limited);
    const refused = await limited.api("POST", "/api/device/code", { body: { client_id: "assay-cli" } });
    expectError(refused, 429, "DEVICE_CODE_RATE_LIMITED");
    expect(refused.body.details).toEqual({ retryAfterSeconds: expect.any(Number), limit: LIMIT, windowSeconds: 600 });
    expect(refused.body.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.body.details.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect(refused.headers.get("retry-after")).toBe(String(refused.body.details.retryAfterSeconds));
    // As a form, as OAuth clients send it: the same catalogued refusal (OAuth has no error code for a rate limit).
    for (let i = 0; i < 20; i++) {
      const form = await postForm(limited, "/api/device/code", { client_id: "assay-cli" });
      expect([form.status, form.json().code, Number(form.headers.get("retry-after")) > 0]).toEqual([
        429,
        "DEVICE_CODE_RATE_LIMITED",
        true,
      ]);
    }
    expect(eventCount(limited)).toBe(before);
    // The command line says why and stops undecided (exit 2), storing nothing.
    const home = mkdtempSync(join(tmpdir(), "assay-cli-home-"));
    try {
      const login = await runClient(["login"], {
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        ASSAY_BASE_URL: limited.baseUrl,
        ASSAY_API_KEY: "",
        CI: "1",
      });
      expect(login.code).toBe(2);
      expect(login.stderr).toStartWith("DEVICE_CODE_RATE_LIMITED: Too many device sign-ins");
      expect(existsSync(join(home, ".config", "assay", "hosts.json"))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
    expect(eventCount(limited)).toBe(before);
  });
});

describe("the device flow", () => {
  test("code, pending, slow_down, approval on the page, a key that works, and the code used once", async () => {
    const code = await requestCode(server, { client_id: "assay-cli", scope: "jobs:read account:read" });
    expect(code.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(code.verification_uri).toBe(`${server.baseUrl}/device`);
    expect(code.verification_uri_complete).toBe(`${server.baseUrl}/device?user_code=${code.user_code}`);
    expect([code.expires_in, code.interval]).toEqual([600, 5]);
    expect(code.device_code.length).toBeGreaterThanOrEqual(40);
    // The log keeps only the device code's hash.
    expect(JSON.stringify(eventsOf(server))).not.toContain(code.device_code);

    expectOAuthError(await poll(server, code.device_code), "authorization_pending");
    const tooSoon = await poll(server, code.device_code);
    expectOAuthError(tooSoon, "slow_down");
    expect(JSON.parse(tooSoon.text).error_description).toContain("10 seconds");

    const owner = await signIn(server, relay, uniqueEmail("device-owner"));
    const shown = await page(server, code.verification_uri_complete.replace(server.baseUrl, ""), owner.cookie);
    expect([shown.status, shown.type]).toEqual([200, "text/html; charset=utf-8"]);
    expect(shown.text).toStartWith("<!doctype html>");
    expect(shown.text).toContain(code.user_code);
    expect(shown.text).toContain("jobs:read");
    expect(shown.text).toContain("account:read");
    expect(shown.text).not.toContain("jobs:write");
    expect(shown.text).toContain(`value="${owner.customerId}" selected`);

    // Without the session's CSRF token the form approves nothing.
    const forged = await postForm(
      server,
      "/device",
      { user_code: code.user_code, customerId: owner.customerId, decision: "approve" },
      { cookie: owner.cookie },
    );
    expect(forged.status).toBe(403);
    expect(eventsOfType(server, "DeviceCodeApproved")).toHaveLength(0);

    const approved = await decideDevice(server, owner, code.user_code, "approve");
    expect(approved.status).toBe(200);
    expect(approved.text).toContain("<h1>Device approved</h1>");
    expect(eventsOfType(server, "DeviceCodeApproved").at(-1)).toMatchObject({
      metadata: { actor: { kind: "session", id: owner.personId }, channel: "dashboard" },
    });

    const granted = await poll(server, code.device_code);
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
    const token = granted.json();
    const session = await server.api("GET", "/api/session", { headers: inSession(owner, null) });
    expect(token).toMatchObject({
      token_type: "Bearer",
      scope: "jobs:read account:read",
      customerId: owner.customerId,
      email: session.body.email,
    });
    expect(token.orgCode).toBe(session.body.organizations[0].orgCode);
    expect(eventsOfType(server, "KeyMinted").at(-1)).toMatchObject({
      data: {
        keyId: token.keyId,
        customerId: owner.customerId,
        personId: owner.personId,
        name: "assay-cli",
        scopes: ["jobs:read", "account:read"],
      },
      metadata: { actor: { kind: "session", id: owner.personId }, channel: "cli" },
    });

    const credits = await server.api("GET", "/api/credits", { key: token.access_token });
    expect([credits.status, credits.body.customerId]).toEqual([200, owner.customerId]);
    expect((await server.api("POST", "/api/jobs", { key: token.access_token, body: {} })).body.code).toBe(
      "INSUFFICIENT_SCOPE",
    );

    expectOAuthError(await poll(server, code.device_code), "invalid_grant");
    expect(eventsOfType(server, "DeviceCodeRedeemed")).toHaveLength(1);
    // Answered, the code is no longer found on the page.
    expect((await page(server, `/device?user_code=${code.user_code}`, owner.cookie)).text).toContain(
      "No pending request has this code",
    );
  });

  test("polling too fast appends nothing: 100 fast polls leave the log as it was, and the interval asked for stops at 60 seconds", async () => {
    const code = await requestCode(server);
    const before = eventCount(server);
    expectOAuthError(await poll(server, code.device_code), "authorization_pending");
    const asked: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await poll(server, code.device_code);
      expectOAuthError(res, "slow_down");
      asked.push(Number(/wait (\d+) seconds/.exec(JSON.parse(res.text).error_description)![1]));
    }
    expect(eventCount(server)).toBe(before);
    // RFC 8628 §3.5: 5 seconds more each time, from the code's 5; capped at a minute.
    expect(asked.slice(0, 4)).toEqual([10, 15, 20, 25]);
    expect(asked.slice(10)).toEqual(Array(90).fill(60));
    // The code still works: approved, the very next poll gets the key.
    const person = await signIn(server, relay, uniqueEmail("device-impatient"));
    expect((await decideDevice(server, person, code.user_code, "approve")).status).toBe(200);
    expect((await poll(server, code.device_code)).status).toBe(200);
  });

  test("denied: access_denied, and no key", async () => {
    const code = await requestCode(server);
    const person = await signIn(server, relay, uniqueEmail("device-denier"));
    const keysBefore = eventsOfType(server, "KeyMinted").length;
    const denied = await decideDevice(server, person, code.user_code, "deny");
    expect([denied.status, denied.text.includes("<h1>Device denied</h1>")]).toEqual([200, true]);
    expectOAuthError(await poll(server, code.device_code), "access_denied");
    expectOAuthError(await poll(server, code.device_code), "access_denied");
    expect(eventsOfType(server, "KeyMinted")).toHaveLength(keysBefore);
  });

  test("an unknown user code is DEVICE_CODE_INVALID (400) on the page, and nothing is approved", async () => {
    const code = await requestCode(server);
    const person = await signIn(server, relay, uniqueEmail("device-typo"));
    const form = await page(server, `/device?user_code=${code.user_code}`, person.cookie);
    const approvedBefore = eventsOfType(server, "DeviceCodeApproved").length;
    const refused = await postForm(
      server,
      "/device",
      {
        _csrf: hidden(form.text, "_csrf")!,
        user_code: "BBBB-BBBB",
        customerId: person.customerId,
        decision: "approve",
      },
      { cookie: person.cookie },
    );
    expect(refused.status).toBe(errorEntry("DEVICE_CODE_INVALID").status);
    expect(refused.text).toContain("No pending request has this code");
    expect(eventsOfType(server, "DeviceCodeApproved")).toHaveLength(approvedBefore);
    expectOAuthError(await poll(server, code.device_code), "authorization_pending");
  });

  test("approving for an organization that is not yours is refused as a missing one, and approves nothing", async () => {
    const code = await requestCode(server, { scope: "jobs:read" });
    const person = await signIn(server, relay, uniqueEmail("device-stranger"));
    const other = await server.signup();
    const refused = await decideDevice(server, person, code.user_code, "approve", { customerId: other.customerId });
    expect(refused.status).toBe(404);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain("No organization has customerId");
    expectOAuthError(await poll(server, code.device_code), "authorization_pending");
  });

  test("the code request takes JSON too, defaults to every scope, and refuses an unknown scope the OAuth way", async () => {
    const res = await server.api("POST", "/api/device/code", { body: {} });
    expect(res.status).toBe(200);
    const person = await signIn(server, relay, uniqueEmail("device-json"));
    const shown = await page(server, `/device?user_code=${res.body.user_code.toLowerCase()}`, person.cookie);
    for (const scope of ["jobs:read", "jobs:write", "account:read", "feedback:write", "webhooks:write"])
      expect(shown.text).toContain(scope);
    expectOAuthError(await postForm(server, "/api/device/code", { scope: "jobs:read admin" }), "invalid_scope");
  });

  test("the token endpoint's other refusals: unknown code, another grant type, a missing code", async () => {
    expectOAuthError(await poll(server, "not-a-device-code"), "invalid_grant");
    expectOAuthError(
      await postForm(server, "/api/device/token", { grant_type: "client_credentials" }),
      "unsupported_grant_type",
    );
    expectOAuthError(await postForm(server, "/api/device/token", { grant_type: GRANT }), "invalid_request");
    expectOAuthError(await postForm(server, "/api/device/token", {}), "invalid_request");
  });

  test("an expired code: expired_token, and the page no longer knows it", async () => {
    const code = await requestCode(shortLived);
    expect(code.expires_in).toBe(1);
    const person = await signIn(shortLived, relay, uniqueEmail("device-late"));
    const form = await page(shortLived, `/device?user_code=${code.user_code}`, person.cookie);
    await Bun.sleep(1100);
    expectOAuthError(await poll(shortLived, code.device_code), "expired_token");
    const late = await postForm(
      shortLived,
      "/device",
      {
        _csrf: hidden(form.text, "_csrf")!,
        user_code: code.user_code,
        customerId: person.customerId,
        decision: "approve",
      },
      { cookie: person.cookie },
    );
    expect(late.status).toBe(400);
    expect(late.text).toContain("No pending request has this code");
    expect(eventsOfType(shortLived, "DeviceCodeApproved")).toHaveLength(0);
  });
});

test("OpenAPI describes the token endpoint's OAuth refusals beside its catalogued errors", async () => {
  const doc = (await server.api("GET", "/api/openapi.json")).body;
  const refusal = doc.paths["/api/device/token"].post.responses["400"];
  expect(refusal.description).toContain("authorization_pending");
  const [oauth, catalogued] = refusal.content["application/json"].schema.oneOf;
  expect(oauth.required.sort()).toEqual(["error", "error_description"]);
  expect(oauth.properties.error.anyOf.map((s: { const: string }) => s.const)).toContain("slow_down");
  expect(catalogued.allOf[0].$ref).toBe("#/components/schemas/Error");
});

test("OpenAPI offers the device endpoints' bodies as forms beside JSON", async () => {
  const doc = (await server.api("GET", "/api/openapi.json")).body;
  for (const path of ["/api/device/code", "/api/device/token"]) {
    expect(Object.keys(doc.paths[path].post.requestBody.content)).toEqual([
      "application/json",
      "application/x-www-form-urlencoded",
    ]);
  }
});

describe("the /device page", () => {
  test("signed out, it offers the sign-in link form, which comes back to the page", async () => {
    const shown = await page(server, "/device?user_code=BCDF-GHJK");
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<html lang="en">');
    expect(shown.text).toContain('action="/signin"');
    expect(shown.text).toContain('<label for="email">');
    // The code being approved shows before sign-in, so the person can compare it with the device's.
    expect(shown.text).toContain('<p class="code">BCDF-GHJK</p>');
    expect((await page(server, "/device?user_code=bcdfghjk")).text).toContain('<p class="code">BCDF-GHJK</p>');
    expect((await page(server, "/device?user_code=%3Cb%3E")).text).not.toContain('class="code"');
    const next = hidden(shown.text, "next")!;
    expect(next).toBe("/device?user_code=BCDF-GHJK");
    const email = uniqueEmail("device-signin");
    const sent = await postForm(server, "/signin", { email, next });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Check your mailbox");
    expect(await relay.linkFor(email)).toContain(`next=${encodeURIComponent(next)}`);
  });

  test("text from the device is escaped", async () => {
    const code = await requestCode(server, { client_id: "<script>alert(1)</script>" });
    const person = await signIn(server, relay, uniqueEmail("device-escape"));
    const shown = await page(server, `/device?user_code=${code.user_code}`, person.cookie);
    expect(shown.text).not.toContain("<script>");
    expect(shown.text).toContain("&lt;script&gt;");
  });

  test("in real Chromium: sign in by the emailed link, land back on the page, approve; the device gets its key", async () => {
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
    const code = await requestCode(server, { client_id: "assay-cli" });
    const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
    try {
      const tab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await tab.goto(code.verification_uri_complete);
      expect(await tab.title()).toBe("Sign in to connect a device · Assay");
      expect(await tab.locator(".code").textContent()).toBe(code.user_code);
      const email = uniqueEmail("device-browser");
      await tab.getByLabel("Email").fill(email);
      await tab.getByRole("button", { name: "Email me a sign-in link" }).click();
      await tab.goto(await relay.linkFor(email));
      expect(tab.url()).toBe(code.verification_uri_complete);
      expect(await tab.getAttribute("html", "lang")).toBe("en");
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Approve this device?");
      expect(await tab.locator(".code").textContent()).toBe(code.user_code);
      // Signed in, the page never offers to sign in: its header names the person.
      expect(await tab.getByText("Sign in", { exact: true }).count()).toBe(0);
      expect(await tab.locator("header").textContent()).toContain(email);
      expect(await tab.getByLabel("For the organization").locator("option").count()).toBe(1);
      await tab.getByRole("button", { name: "Approve" }).click();
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Device approved");
    } finally {
      await browser.close();
    }
    const granted = await poll(server, code.device_code);
    expect(granted.status).toBe(200);
    expect((await server.api("GET", "/api/org", { key: granted.json().access_token })).status).toBe(200);
  });
});
