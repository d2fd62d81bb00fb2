import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { BASE_CHROMIUM_ARGS, findChromium } from "../../src/capture/chromium-launch";
import { runClient, startClient, startServer, uniqueEmail, type TestServer } from "../support/harness";
import { signIn, startMailRelay, type MailRelay } from "../support/mail-relay";
import { decideDevice, postForm } from "../support/pages";

/**
 * The command-line client's sign-in and agent set-up, run as a subprocess (HOME and XDG_CONFIG_HOME in temporary
 * folders) against a real server: login through the /device page (its form posted, and once in real Chromium),
 * status, print-key, logout with revocation on the server, install and update on temporary project folders.
 */

setDefaultTimeout(90_000);
const HOOK_TIMEOUT = 120_000;

let relay: MailRelay;
let server: TestServer;

beforeAll(async () => {
  relay = await startMailRelay();
  server = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url });
}, HOOK_TIMEOUT);
afterAll(async () => {
  await server?.stop();
  await relay?.stop();
}, HOOK_TIMEOUT);

/** A user of the CLI: their own home and config folder, no key in the environment, this server. */
function newUser(extra: Record<string, string> = {}) {
  const home = mkdtempSync(join(tmpdir(), "assay-cli-home-"));
  const config = join(home, ".config");
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: config,
    ASSAY_BASE_URL: server.baseUrl,
    ASSAY_API_KEY: "",
    CI: "",
    ...extra,
  };
  return { home, config, env, hostsFile: join(config, "assay", "hosts.json") };
}

/** A key by the device flow's endpoints, approved by a new person on the page's form (no CLI involved). */
async function deviceKey(scope = "jobs:read jobs:write account:read feedback:write") {
  const code = (await postForm(server, "/api/device/code", { client_id: "assay-cli", scope })).json();
  const person = await signIn(server, relay, uniqueEmail("cli-key"));
  expect((await decideDevice(server, person, code.user_code, "approve")).status).toBe(200);
  const token = (
    await postForm(server, "/api/device/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: code.device_code,
    })
  ).json();
  expect(typeof token.access_token).toBe("string");
  return token as {
    access_token: string;
    keyId: string;
    customerId: string;
    orgCode: string;
    email: string;
    scope: string;
  };
}

/** Runs `assay login`, approves its code on the /device page as a new person (or denies it), and returns its end. */
async function loginThroughForm(user: ReturnType<typeof newUser>, decision: "approve" | "deny") {
  const running = startClient(["login"], user.env);
  const [, userCode] = await running.waitFor(/enter the code ([A-Z]{4}-[A-Z]{4})/);
  const email = uniqueEmail("cli-login");
  const person = await signIn(server, relay, email);
  expect((await decideDevice(server, person, userCode!, decision)).status).toBe(200);
  return { ...(await running.done()), email, person, userCode: userCode! };
}

describe("login, status, print-key, logout", () => {
  test("login: the code and address printed, approved on the page, the key stored 0600 in a 0700 folder and never printed", async () => {
    const user = newUser({ DISPLAY: ":0" });
    const login = await loginThroughForm(user, "approve");
    expect(login.stderr).toBe("");
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`open ${server.baseUrl}/device and enter the code ${login.userCode}`);
    expect(login.stdout).toContain(
      `(or open ${server.baseUrl}/device?user_code=${login.userCode}); the code expires in 10 minutes.`,
    );
    // A subprocess's stdout is a pipe: no browser is opened, and it says why.
    expect(login.stdout).toContain("Not opening a browser (not on a terminal)");
    expect(login.stdout).toContain(`Logged in to ${server.baseUrl} as ${login.email}`);

    expect(statSync(user.hostsFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(user.config, "assay")).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(user.config, "assay"))).toEqual(["hosts.json"]);
    const stored = JSON.parse(readFileSync(user.hostsFile, "utf8"))[server.baseUrl];
    expect(stored).toMatchObject({
      customerId: login.person.customerId,
      email: login.email,
      scope: "jobs:read jobs:write account:read feedback:write webhooks:write",
    });
    expect(stored.apiKey).toStartWith("assay_sk_");
    expect(login.stdout).toContain(`Key ${stored.keyId}`);
    expect(login.stdout).not.toContain(stored.apiKey);

    // The stored key works on the server.
    expect((await server.api("GET", "/api/org", { key: stored.apiKey })).body.customerId).toBe(login.person.customerId);

    const printed = await runClient(["print-key"], user.env);
    expect(printed).toEqual({ code: 0, stdout: `${stored.apiKey}\n`, stderr: "" });

    const status = await runClient(["status"], user.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`Server: ${server.baseUrl}`);
    expect(status.stdout).toContain(
      `Key: ${stored.keyId} (${stored.apiKey.slice(0, 13)}…), stored by assay login in ${user.hostsFile}`,
    );
    expect(status.stdout).toContain(`Approved by: ${login.email}`);
    expect(status.stdout).toContain(`Organization: ${stored.orgCode} (${stored.customerId})`);
    expect(status.stdout).toMatch(/Balance: \d+ credits/);
    expect(status.stdout + status.stderr).not.toContain(stored.apiKey);

    // ASSAY_API_KEY wins over the stored key, and status says so.
    const other = await server.signup();
    const withEnv = { ...user.env, ASSAY_API_KEY: other.apiKey };
    const envStatus = await runClient(["status"], withEnv);
    expect(envStatus.code).toBe(0);
    expect(envStatus.stdout).toContain(
      `Key: from ASSAY_API_KEY (${other.apiKey.slice(0, 13)}…), which wins over any stored key (key ${stored.keyId} is stored for this server but not used)`,
    );
    expect(envStatus.stdout).toContain(`Organization: ${other.orgCode} (${other.customerId})`);
    expect(envStatus.stdout).not.toContain(other.apiKey);
    expect((await runClient(["print-key"], withEnv)).stdout).toBe(`${other.apiKey}\n`);

    // logout revokes the stored key on the server (the key then gets 401), forgets it, and leaves ASSAY_API_KEY alone.
    const logout = await runClient(["logout"], withEnv);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toContain(`Revoked key ${stored.keyId} on ${server.baseUrl}`);
    expect(logout.stdout).toContain("ASSAY_API_KEY is still set");
    expect((await server.api("GET", "/api/org", { key: stored.apiKey })).status).toBe(401);
    expect((await server.api("GET", "/api/org", { key: other.apiKey })).status).toBe(200);
    expect(JSON.parse(readFileSync(user.hostsFile, "utf8"))).toEqual({});
    expect(statSync(user.hostsFile).mode & 0o777).toBe(0o600);

    // Only ASSAY_API_KEY now: logout explains and exits 2; without it nothing is in use.
    const envOnly = await runClient(["logout"], withEnv);
    expect(envOnly.code).toBe(2);
    expect(envOnly.stderr).toContain("the key in use comes from ASSAY_API_KEY, which assay logout does not revoke");
    expect(envOnly.stderr).toContain(`${server.baseUrl}/dashboard/keys`);
    expect((await server.api("GET", "/api/org", { key: other.apiKey })).status).toBe(200);
    const none = await runClient(["print-key"], user.env);
    expect([none.code, none.stdout]).toEqual([2, ""]);
    expect(none.stderr).toContain(
      `NO_KEY: No key for ${server.baseUrl}: run \`assay login --base-url ${server.baseUrl}\``,
    );
  });

  test("login denied on the page: exit 2, nothing stored", async () => {
    const user = newUser();
    const login = await loginThroughForm(user, "deny");
    expect(login.code).toBe(2);
    expect(login.stderr).toContain("The request was denied on the device page; no key was stored.");
    expect(existsSync(user.hostsFile)).toBe(false);
  });

  test("login honours slow_down: 5 seconds more between polls, and the server's next answer is the key", async () => {
    // A proxy in front of the real server sends the CLI's first poll twice: the server answers the second with a
    // real slow_down, which the proxy hands back to the CLI. It records when each of the CLI's polls arrives.
    const polls: number[] = [];
    const proxy = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        const body = req.method === "GET" ? undefined : await req.text();
        const forward = () =>
          fetch(`${server.baseUrl}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body });
        let res = await forward();
        if (url.pathname === "/api/device/token") {
          polls.push(Date.now());
          if (polls.length === 1) res = await forward();
        }
        return new Response(await res.text(), {
          status: res.status,
          headers: { "content-type": res.headers.get("content-type") ?? "application/json" },
        });
      },
    });
    try {
      const user = newUser({ ASSAY_BASE_URL: `http://127.0.0.1:${proxy.port}` });
      const running = startClient(["login"], user.env);
      const [, userCode] = await running.waitFor(/enter the code ([A-Z]{4}-[A-Z]{4})/);
      while (polls.length === 0) await Bun.sleep(100);
      const person = await signIn(server, relay, uniqueEmail("cli-slow"));
      expect((await decideDevice(server, person, userCode!, "approve")).status).toBe(200);
      const login = await running.done();
      expect(login.code).toBe(0);
      expect(polls).toHaveLength(2);
      expect(polls[1]! - polls[0]!).toBeGreaterThanOrEqual(10_000);
      expect(polls[1]! - polls[0]!).toBeLessThan(12_000);
    } finally {
      proxy.stop(true);
    }
  });

  test("login whose code expires before approval: exit 2, nothing stored", async () => {
    const shortLived = await startServer({ ASSAY_MAIL_RELAY_URL: relay.url, ASSAY_DEVICE_CODE_TTL_SECONDS: "1" });
    try {
      const user = newUser({ ASSAY_BASE_URL: shortLived.baseUrl });
      const login = await runClient(["login"], user.env);
      expect(login.stdout).toContain("the code expires in 1 second.");
      expect(login.code).toBe(2);
      expect(login.stderr).toContain("The code expired before it was approved; run assay login again.");
      expect(existsSync(user.hostsFile)).toBe(false);
    } finally {
      await shortLived.stop();
    }
  });

  test("logout of a key the server already revoked: exit 1, naming the key id to revoke in the dashboard", async () => {
    const user = newUser();
    const token = await deviceKey();
    mkdirSync(join(user.config, "assay"), { recursive: true, mode: 0o700 });
    const entry = {
      apiKey: token.access_token,
      keyId: token.keyId,
      customerId: token.customerId,
      orgCode: token.orgCode,
      email: token.email,
      scope: token.scope,
      savedAt: new Date().toISOString(),
    };
    writeFileSync(user.hostsFile, JSON.stringify({ [server.baseUrl]: entry }), { mode: 0o600 });
    expect((await server.api("DELETE", `/api/keys/${token.keyId}`, { key: token.access_token })).status).toBe(200);

    const logout = await runClient(["logout"], user.env);
    expect(logout.code).toBe(1);
    expect(logout.stderr).toContain(`Could not revoke key ${token.keyId} on ${server.baseUrl}: AUTH_REQUIRED: `);
    expect(logout.stderr).toMatch(/\(request [^)]+\)/);
    expect(logout.stderr).toContain(`Revoke key ${token.keyId} in the dashboard: ${server.baseUrl}/dashboard/keys`);
    expect(logout.stdout + logout.stderr).not.toContain(token.access_token);
    // The server no longer accepts it, so it is forgotten.
    expect(JSON.parse(readFileSync(user.hostsFile, "utf8"))).toEqual({});
  });

  test("status: no key is exit 2; a key without account:read shows no balance; a revoked key prints its catalogued refusal", async () => {
    const user = newUser();
    const noKey = await runClient(["status"], user.env);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(
      `Not logged in to ${server.baseUrl}: no key stored in ${user.hostsFile} and ASSAY_API_KEY is not set. Run assay login --base-url ${server.baseUrl} (or assay login --with-token).`,
    );
    const noLogout = await runClient(["logout"], user.env);
    expect([noLogout.code, noLogout.stderr.includes(`Not logged in to ${server.baseUrl}`)]).toEqual([2, true]);

    const readOnly = await deviceKey("jobs:read");
    const scoped = await runClient(["status"], { ...user.env, ASSAY_API_KEY: readOnly.access_token });
    expect(scoped.code).toBe(0);
    expect(scoped.stdout).toContain("Key: from ASSAY_API_KEY");
    expect(scoped.stdout).toContain("Balance: not shown, the key lacks the account:read scope.");

    await server.api("DELETE", `/api/keys/${readOnly.keyId}`, { key: readOnly.access_token });
    const revoked = await runClient(["status"], { ...user.env, ASSAY_API_KEY: readOnly.access_token });
    expect(revoked.code).toBe(2);
    expect(revoked.stderr).toMatch(/^AUTH_REQUIRED: .+ \(request [^)]+\)\n$/);
    expect(revoked.stdout + revoked.stderr).not.toContain(readOnly.access_token);

    const unreachable = await runClient(["status", "--base-url", "http://127.0.0.1:9"], {
      ...user.env,
      ASSAY_API_KEY: "sk_x",
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain("UNREACHABLE: Could not reach http://127.0.0.1:9");
  });

  test("in real Chromium: login's address opened, signed in by the emailed link, approved; the CLI stores a working key", async () => {
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    if (!executablePath) throw new Error("no Chromium found (set CHROMIUM_PATH)");
    const user = newUser({ CI: "true" });
    // A key stored before: login replaces it and names it, since it stays active on the server.
    const earlier = await deviceKey("jobs:read");
    mkdirSync(join(user.config, "assay"), { recursive: true, mode: 0o700 });
    writeFileSync(
      user.hostsFile,
      JSON.stringify({
        [server.baseUrl]: { apiKey: earlier.access_token, keyId: earlier.keyId },
        "http://other.example": { keyId: "key_kept" },
      }),
      { mode: 0o600 },
    );
    const running = startClient(["login"], user.env);
    const [, address] = await running.waitFor(/\(or open (\S+)\)/);
    expect(await running.waitFor(/Not opening a browser \(CI is set\)/)).toBeTruthy();
    const browser = await chromium.launch({ executablePath, headless: true, args: BASE_CHROMIUM_ARGS });
    const email = uniqueEmail("cli-browser");
    try {
      const tab = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
      await tab.goto(address!);
      await tab.getByLabel("Email").fill(email);
      await tab.getByRole("button", { name: "Email me a sign-in link" }).click();
      await tab.goto(await relay.linkFor(email));
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Approve this device?");
      await tab.getByRole("button", { name: "Approve" }).click();
      expect(await tab.getByRole("heading", { level: 1 }).textContent()).toBe("Device approved");
    } finally {
      await browser.close();
    }
    const login = await running.done();
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`as ${email}`);
    expect(login.stdout).toContain(
      `Replacing the stored key ${earlier.keyId}, which stays active: revoke it at ${server.baseUrl}/dashboard/keys.`,
    );
    const hosts = JSON.parse(readFileSync(user.hostsFile, "utf8"));
    expect(hosts["http://other.example"]).toEqual({ keyId: "key_kept" });
    const stored = hosts[server.baseUrl];
    expect(stored.keyId).not.toBe(earlier.keyId);
    expect((await server.api("GET", "/api/credits", { key: stored.apiKey })).status).toBe(200);
  });
});

describe("like gh: login --with-token, several servers, a server with no key, an unreachable one", () => {
  /** A user of the CLI with no server named by the environment: the default is what hosts.json says. */
  const bare = () => newUser({ ASSAY_BASE_URL: "" });
  const prefix = (key: string) => `${key.slice(0, 13)}…`;

  test("--with-token checks the key and stores it; each server keeps its own key, the last logged in to is the default; status lists them", async () => {
    const other = await startServer();
    try {
      const user = bare();
      const a = await server.signup();
      const b = await other.signup();

      const first = await runClient(
        ["login", "--with-token", "--base-url", server.baseUrl],
        user.env,
        undefined,
        `${a.apiKey}\n`,
      );
      expect([first.code, first.stderr]).toEqual([0, ""]);
      expect(first.stdout).toContain(`Logged in to ${server.baseUrl} with the key ${prefix(a.apiKey)} (${a.keyId})`);
      expect(first.stdout).toContain(`organization ${a.orgCode} (${a.customerId})`);
      expect(first.stdout).not.toContain(a.apiKey);
      const second = await runClient(
        ["login", "--with-token", "--base-url", other.baseUrl],
        user.env,
        undefined,
        b.apiKey,
      );
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(
        `${other.baseUrl} is now the default server; the others stored stay as they were: ${server.baseUrl}.`,
      );

      const hosts = JSON.parse(readFileSync(user.hostsFile, "utf8"));
      expect(hosts[server.baseUrl]).toMatchObject({
        apiKey: a.apiKey,
        via: "token",
        keyId: a.keyId,
        customerId: a.customerId,
      });
      expect(hosts[other.baseUrl]).toMatchObject({
        apiKey: b.apiKey,
        via: "token",
        keyId: b.keyId,
        customerId: b.customerId,
      });
      expect(statSync(user.hostsFile).mode & 0o777).toBe(0o600);

      // No --base-url and no ASSAY_BASE_URL: the server logged in to last, with its own key.
      expect((await runClient(["print-key"], user.env)).stdout).toBe(`${b.apiKey}\n`);
      expect((await runClient(["print-key", "--base-url", server.baseUrl], user.env)).stdout).toBe(`${a.apiKey}\n`);
      const status = await runClient(["status"], user.env);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`Server: ${other.baseUrl} (the default: the server logged in to last)`);
      expect(status.stdout).toContain(
        `Key: ${b.keyId} (${prefix(b.apiKey)}), given to assay login --with-token in ${user.hostsFile}`,
      );
      expect(status.stdout).toContain(`Organization: ${b.orgCode} (${b.customerId})`);
      expect(status.stdout).toContain(`* ${other.baseUrl}  ${prefix(b.apiKey)}  ${b.orgCode}`);
      expect(status.stdout).toContain(`  ${server.baseUrl}  ${prefix(a.apiKey)}  ${a.orgCode}`);
      expect(status.stdout).toMatch(/\(default, this one\)/);
      expect(status.stdout + status.stderr).not.toContain(a.apiKey);
      expect(status.stdout + status.stderr).not.toContain(b.apiKey);
      const statusA = await runClient(["status", "--base-url", server.baseUrl], user.env);
      expect(statusA.stdout).toContain(`Server: ${server.baseUrl} (--base-url)`);
      expect(statusA.stdout).toContain(`Organization: ${a.orgCode} (${a.customerId})`);

      // logout forgets a key given with --with-token without revoking it (it may be in use elsewhere).
      const logout = await runClient(["logout"], user.env);
      expect(logout.code).toBe(0);
      expect(logout.stdout).toContain(`Removed the key ${prefix(b.apiKey)} for ${other.baseUrl}`);
      expect(logout.stdout).toContain("stays active on the server");
      expect((await other.api("GET", "/api/org", { key: b.apiKey })).status).toBe(200);
      // The one left is the default now.
      expect((await runClient(["print-key"], user.env)).stdout).toBe(`${a.apiKey}\n`);
    } finally {
      await other.stop();
    }
  });

  test("--with-token: a key the server refuses, no key, a terminal, and a key without account:read", async () => {
    const user = bare();
    const refused = await runClient(
      ["login", "--with-token", "--base-url", server.baseUrl],
      user.env,
      undefined,
      "assay_sk_notAKeyAtAll",
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${server.baseUrl} refuses this key (AUTH_REQUIRED: `);
    expect(refused.stderr).toContain("nothing was stored");
    expect(existsSync(user.hostsFile)).toBe(false);
    const empty = await runClient(["login", "--with-token", "--base-url", server.baseUrl], user.env, undefined, "\n");
    expect([empty.code, empty.stderr]).toEqual([2, "--with-token: standard input held no key\n"]);

    const readOnly = await deviceKey("jobs:read");
    const scoped = await runClient(
      ["login", "--with-token", "--base-url", server.baseUrl],
      user.env,
      undefined,
      readOnly.access_token,
    );
    expect(scoped.code).toBe(0);
    expect(scoped.stdout).toContain("(the key lacks account:read, so its organization is not shown)");
    const status = await runClient(["status"], user.env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      `Key: id unknown (${prefix(readOnly.access_token)}), given to assay login --with-token`,
    );
    expect(status.stdout).toContain("Balance: not shown, the key lacks the account:read scope.");
  });

  test("--base-url naming a server with no stored key says so; one that does not answer is unreachable, not a missing key", async () => {
    const user = bare();
    const a = await server.signup();
    await runClient(["login", "--with-token", "--base-url", server.baseUrl], user.env, undefined, a.apiKey);
    // The same server under another address is another server to the client: no key is stored for it.
    const elsewhere = `${server.baseUrl}/elsewhere`;
    const noKey = await runClient(["run", "--url", "https://example.com/", "--base-url", elsewhere], user.env);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain(
      `assay: NO_KEY: No key for ${elsewhere}: run \`assay login --base-url ${elsewhere}\` (or \`assay login --with-token\` with a key on standard input), or set ASSAY_API_KEY. Keys are stored for ${server.baseUrl}.`,
    );
    const statusNoKey = await runClient(["status", "--base-url", elsewhere], user.env);
    expect(statusNoKey.code).toBe(2);
    expect(statusNoKey.stderr).toContain(`Not logged in to ${elsewhere}`);
    expect(statusNoKey.stdout).toContain(`* ${server.baseUrl}  ${prefix(a.apiKey)}`);

    for (const args of [["run", "--url", "https://example.com/"], ["print-key"], ["status"], ["mcp"]]) {
      const down = await runClient([...args, "--base-url", "http://127.0.0.1:9"], user.env);
      expect([args[0], down.code]).toEqual([args[0], 2]);
      expect(down.stderr).toContain("UNREACHABLE: Could not reach http://127.0.0.1:9");
      expect(down.stderr).not.toContain("NO_KEY");
      expect(down.stderr).not.toContain("Not logged in");
    }
  });
});

test("--help names each command's exit codes", async () => {
  for (const [command, words] of [
    ["login", "Exit 0 logged in, 2 denied"],
    ["logout", "Exit 1 when the server did not"],
    ["install", "Exit 1 when no client is found"],
  ] as const) {
    const help = await runClient([command, "--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(words);
  }
});
