import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chromium, type Browser } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { eventCount, eventsOf, expectError, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, type MailRelay, startServerWithRelay } from "../support/mail-relay";
import { hidden, page, postForm } from "../support/pages";

/**
 * Signing in and out of the dashboard: the /signin page and its form, the per-address limit on sign-in links,
 * sign-out, the organization switcher; and in real Chromium, the emailed link (read from a local SMTP relay)
 * and the key lifecycle on the keys page: mint with the secret shown once and its copy button, rotate, revoke.
 */

setDefaultTimeout(120_000);
const LINKS_PER_ADDRESS = 2;
let relay: MailRelay;
let server: TestServer;
let stopServer: () => Promise<void>;
let browser: Browser;

beforeAll(async () => {
  ({
    relay,
    server,
    stop: stopServer,
  } = await startServerWithRelay({
    ASSAY_SIGNIN_LINKS_PER_ADDRESS: String(LINKS_PER_ADDRESS),
    ASSAY_KEY_ROTATION_OVERLAP_SECONDS: "3600",
  }));
  browser = await chromium.launch({
    executablePath: findChromium(process.env.CHROMIUM_PATH)!,
    headless: true,
    args: BASE_CHROMIUM_ARGS,
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stopServer?.();
}, 120_000);

describe("the sign-in page", () => {
  test("/ and /dashboard lead signed-out people to sign in", async () => {
    expect((await page(server, "/")).headers.get("location")).toBe("/signin");
    expect((await page(server, "/dashboard")).headers.get("location")).toBe("/dashboard/jobs");
    expect((await page(server, "/dashboard/keys?done=revoked")).headers.get("location")).toBe(
      "/signin?next=%2Fdashboard%2Fkeys%3Fdone%3Drevoked",
    );
  });

  test("the form sends a link that comes back to next; an address outside the site is never a next", async () => {
    const shown = await page(server, "/signin?next=%2Fdashboard%2Fkeys");
    expect(shown.status).toBe(200);
    expect(hidden(shown.text, "next")).toBe("/dashboard/keys");
    expect(hidden((await page(server, "/signin?next=https%3A%2F%2Fevil.example%2F")).text, "next")).toBe("/dashboard");
    expect(hidden((await page(server, "/signin?next=%2F%2Fevil.example")).text, "next")).toBe("/dashboard");
    const email = uniqueEmail("signin-form");
    const sent = await postForm(server, "/signin", { email, next: "/dashboard/keys" });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Check your mailbox");
    expect(await relay.linkFor(email)).toContain(`next=${encodeURIComponent("/dashboard/keys")}`);
  });

  test("a bad address is refused on the page with its status; nothing is sent or written", async () => {
    const before = eventCount(server);
    const refused = await postForm(server, "/signin", { email: "not-an-address" });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("No link was sent.");
    expect(eventCount(server)).toBe(before);
  });

  test(`past ${LINKS_PER_ADDRESS} links to one address in a link's lifetime: SIGNIN_RATE_LIMITED (429), nothing sent or written`, async () => {
    const email = uniqueEmail("signin-flood");
    for (let i = 0; i < LINKS_PER_ADDRESS; i++)
      expect((await server.api("POST", "/api/session/email", { body: { email } })).status).toBe(202);
    const before = eventCount(server);
    const sentBefore = relay.messages.length;
    const res = await server.api("POST", "/api/session/email", { body: { email: email.toUpperCase() } });
    expectError(res, 429, "SIGNIN_RATE_LIMITED");
    expect(res.body.details.retryAfterSeconds).toBeGreaterThan(0);
    const onPage = await postForm(server, "/signin", { email });
    expect(onPage.status).toBe(429);
    expect(onPage.text).toContain("Too many sign-in links");
    expect(eventCount(server)).toBe(before);
    expect(relay.messages.length).toBe(sentBefore);
    // Another address is not held back.
    expect(
      (await server.api("POST", "/api/session/email", { body: { email: uniqueEmail("signin-other") } })).status,
    ).toBe(202);
  });

  test("sign-out ends the session on the server and clears the cookie; without the CSRF token it ends nothing", async () => {
    const who = await signIn(server, relay, uniqueEmail("signout"));
    const forged = await postForm(server, "/signout", {}, { cookie: who.cookie });
    expect(forged.status).toBe(403);
    expect((await page(server, "/dashboard/keys", who.cookie)).status).toBe(200);
    const out = await postForm(server, "/signout", { _csrf: who.csrfToken }, { cookie: who.cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/signin?done=signed-out");
    expect(out.headers.get("set-cookie")).toMatch(/^assay_session=;.*Max-Age=0/);
    expect((await page(server, "/signin?done=signed-out")).text).toContain("You are signed out.");
    expect((await page(server, "/dashboard/keys", who.cookie)).status).toBe(303);
    expect(
      eventsOf(server)
        .filter((e) => e.type === "SessionEnded")
        .at(-1)?.metadata.channel,
    ).toBe("dashboard");
  });

  test("the organization switcher acts for another of the person's organizations; someone else's is refused as missing", async () => {
    const admin = await signIn(server, relay, uniqueEmail("switch-admin"));
    const memberEmail = uniqueEmail("switch-member");
    const member = await signIn(server, relay, memberEmail);
    const added = await server.api("POST", "/api/members", {
      headers: { cookie: admin.cookie, "x-csrf-token": admin.csrfToken },
      body: { email: memberEmail, role: "member" },
    });
    expect(added.status).toBe(201);
    const shown = await page(server, "/dashboard/keys", member.cookie);
    expect(shown.text).toContain(`<option value="${admin.customerId}"`);
    const switched = await postForm(
      server,
      "/dashboard/organization",
      { _csrf: member.csrfToken, customerId: admin.customerId, next: "/dashboard/keys" },
      { cookie: member.cookie },
    );
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/dashboard/keys");
    expect((await server.api("GET", "/api/session", { headers: { cookie: member.cookie } })).body.customerId).toBe(
      admin.customerId,
    );
    const stranger = await signIn(server, relay, uniqueEmail("switch-stranger"));
    const refused = await postForm(
      server,
      "/dashboard/organization",
      { _csrf: stranger.csrfToken, customerId: admin.customerId, next: "/dashboard/keys" },
      { cookie: stranger.cookie },
    );
    const missing = await postForm(
      server,
      "/dashboard/organization",
      { _csrf: stranger.csrfToken, customerId: "cus_doesnotexist0000000000", next: "/dashboard/keys" },
      { cookie: stranger.cookie },
    );
    expect(refused.status).toBe(404);
    expect(missing.status).toBe(refused.status);
    expect(refused.text).toContain("CUSTOMER_NOT_FOUND");
  });
});

test("without a mail relay, the check-your-mailbox page says the link is in the server's log and how to configure mail", async () => {
  const bare = await startServer();
  try {
    const sent = await postForm(bare, "/signin", { email: uniqueEmail("no-relay"), next: "/dashboard" });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("<h1>Check your mailbox</h1>");
    expect(sent.text).toContain("the link is written to the server's log instead");
    expect(sent.text).toContain("<code>[mail] no relay configured</code>");
    expect(sent.text).toContain("<code>ASSAY_MAIL_RELAY_URL</code>");
  } finally {
    await bare.stop();
  }
  // With a relay, the page says nothing of logs.
  const relayed = await postForm(server, "/signin", { email: uniqueEmail("relayed"), next: "/dashboard" });
  expect(relayed.text).not.toContain("ASSAY_MAIL_RELAY_URL");
});

test("llms.txt's way to a key for an existing account can be followed: its dashboard address leads to sign-in and back", async () => {
  const llms = await (await fetch(`${server.baseUrl}/llms.txt`)).text();
  const address = new RegExp(`${server.baseUrl}/dashboard/keys`).exec(llms)?.[0];
  expect(address).toBeDefined();
  const signedOut = await fetch(address!, { redirect: "manual" });
  expect(signedOut.headers.get("location")).toBe("/signin?next=%2Fdashboard%2Fkeys");
  const form = await page(server, signedOut.headers.get("location")!);
  expect(hidden(form.text, "next")).toBe("/dashboard/keys");
});

describe("in real Chromium", () => {
  test("sign in by the emailed link, mint a key (secret once, copy button), rotate it, revoke it: 401 next", async () => {
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl });
    const tab = await context.newPage();
    try {
      await tab.goto(`${server.baseUrl}/dashboard/keys`);
      const email = uniqueEmail("browser-keys");
      await tab.getByLabel("Email").fill(email);
      await tab.getByRole("button", { name: "Email me a sign-in link" }).click();
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Check your mailbox");
      await tab.goto(await relay.linkFor(email));
      expect(tab.url()).toBe(`${server.baseUrl}/dashboard/keys`);

      await tab.getByLabel("Name").fill("laptop");
      await tab.getByLabel("account:read", { exact: false }).check();
      await tab.getByRole("button", { name: "Mint key" }).click();
      const secret = (await tab.locator("#secret").textContent())!.trim();
      expect((await server.api("GET", "/api/org", { key: secret })).status).toBe(200);
      await tab.getByRole("button", { name: "Copy" }).click();
      await tab.getByRole("button", { name: "Copied" }).waitFor();
      expect(await tab.evaluate(() => navigator.clipboard.readText())).toBe(secret);

      // Seen again, the page has no secret (a reload would post the form again: go to the page instead).
      await tab.goto(`${server.baseUrl}/dashboard/keys`);
      expect(await tab.locator("#secret").count()).toBe(0);
      await tab.getByRole("button", { name: "Rotate laptop" }).click();
      const rotated = (await tab.locator("#secret").textContent())!.trim();
      expect(rotated).not.toBe(secret);
      expect((await server.api("GET", "/api/org", { key: secret })).status).toBe(200);
      expect((await server.api("GET", "/api/org", { key: rotated })).status).toBe(200);

      await tab.getByRole("button", { name: "Revoke laptop" }).click();
      expect(await tab.getByRole("status").textContent()).toContain("The key is revoked");
      expect((await server.api("GET", "/api/org", { key: rotated })).status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
