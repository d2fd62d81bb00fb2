import type { Command } from "commander";
import { setTimeout as sleep } from "node:timers/promises";
import { action, EXIT, UsageError } from "../../../../src/cli/program";
import { ApiFailure, callApi, keyInUse, noKeyFailure, probe, serverOf, shownKey } from "../client";
import { defaultServer, forgetKey, hostsPath, readHosts, saveKey, storedKey, type StoredKey } from "../hosts";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const CLIENT_ID = "assay-cli";

/**
 * Runs a client command; a catalogued failure (or an unreachable server) prints its code, message and request id
 * and is undecided (exit 2). The key is never part of what is printed.
 */
export function reporting<A extends unknown[]>(run: (...args: A) => number | Promise<number>) {
  return action(async (...args: A) => {
    try {
      return await run(...args);
    } catch (e) {
      if (!(e instanceof ApiFailure)) throw e;
      console.error(e.describe());
      return EXIT.undecided;
    }
  });
}

export const BASE_URL_OPTION = [
  "--base-url <url>",
  "the Assay server (default: ASSAY_BASE_URL, else the server logged in to last, else http://localhost:8080)",
] as const;

/** Whether a browser can be opened for the person: a terminal, not CI, and a display (macOS and Windows always have one). */
function browserAvailable(): { ok: true } | { ok: false; why: string } {
  if (process.env.CI) return { ok: false, why: "CI is set" };
  if (!process.stdout.isTTY) return { ok: false, why: "not on a terminal" };
  if (process.platform === "linux" && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return { ok: false, why: "no DISPLAY" };
  return { ok: true };
}

/** A duration for people: "10 minutes", "1 second". */
const inWords = (seconds: number) =>
  seconds >= 120 ? `${Math.round(seconds / 60)} minutes` : `${seconds} second${seconds === 1 ? "" : "s"}`;

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}
type TokenAnswer =
  | {
      access_token: string;
      token_type: "Bearer";
      scope: string;
      keyId: string;
      customerId: string;
      orgCode: string;
      email: string;
      error?: undefined;
    }
  | { error: string; error_description: string };

/** Stores the key for the server (which becomes the default), saying which key it replaces when that one stays active. */
function store(baseUrl: string, key: StoredKey): void {
  const replaced = storedKey(baseUrl);
  if (replaced?.keyId && replaced.keyId !== key.keyId && replaced.via !== "token") {
    console.log(
      `Replacing the stored key ${replaced.keyId}, which stays active: revoke it at ${baseUrl}/dashboard/keys.`,
    );
  }
  saveKey(baseUrl, key);
}

/** What every login says last: where the key is, that this server is now the default, and when ASSAY_API_KEY wins. */
function afterLogin(baseUrl: string, others: string[]): void {
  if (others.length)
    console.log(`${baseUrl} is now the default server; the others stored stay as they were: ${others.join(", ")}.`);
  if (process.env.ASSAY_API_KEY)
    console.log("Note: ASSAY_API_KEY is set in this environment and wins over the stored key.");
}

/** RFC 8628: ask for a code, show it, poll at the interval (5 s slower after each slow_down) until a key or a refusal. */
async function deviceLogin(baseUrl: string, openBrowser: boolean): Promise<number> {
  const code = await callApi<DeviceAuthorization & { error?: string; error_description?: string }>(
    baseUrl,
    "POST",
    "/api/device/code",
    { form: { client_id: CLIENT_ID } },
  );
  if (code.body.error) {
    console.error(`The server refused a device code: ${code.body.error}: ${code.body.error_description}`);
    return EXIT.undecided;
  }
  const auth = code.body;
  console.log(`To approve this device, open ${auth.verification_uri} and enter the code ${auth.user_code}`);
  console.log(`(or open ${auth.verification_uri_complete}); the code expires in ${inWords(auth.expires_in)}.`);
  const browser = browserAvailable();
  if (!openBrowser) console.log("Not opening a browser (--no-browser).");
  else if (!browser.ok) console.log(`Not opening a browser (${browser.why}): open the address yourself.`);
  else {
    try {
      const { default: open } = await import("open");
      await open(auth.verification_uri_complete);
      console.log("Opened your browser.");
    } catch (e) {
      console.log(`Could not open a browser (${(e as Error).message}): open the address yourself.`);
    }
  }
  console.log("Waiting for approval...");

  let interval = auth.interval;
  const deadline = Date.now() + auth.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const answer = await callApi<TokenAnswer>(baseUrl, "POST", "/api/device/token", {
      form: { grant_type: DEVICE_GRANT, device_code: auth.device_code, client_id: CLIENT_ID },
    });
    const token = answer.body;
    if (token.error === undefined) {
      const others = Object.keys(readHosts()).filter((url) => url !== baseUrl);
      store(baseUrl, {
        apiKey: token.access_token,
        via: "device",
        keyId: token.keyId,
        customerId: token.customerId,
        orgCode: token.orgCode,
        email: token.email,
        scope: token.scope,
        savedAt: new Date().toISOString(),
      });
      console.log(`Logged in to ${baseUrl} as ${token.email}, organization ${token.orgCode} (${token.customerId}).`);
      console.log(`Key ${token.keyId} (scopes: ${token.scope}) stored in ${hostsPath()}.`);
      afterLogin(baseUrl, others);
      return EXIT.pass;
    }
    if (token.error === "authorization_pending") continue;
    if (token.error === "slow_down") {
      interval += 5;
      continue;
    }
    if (token.error === "access_denied") console.error("The request was denied on the device page; no key was stored.");
    else if (token.error === "expired_token")
      console.error("The code expired before it was approved; run assay login again.");
    else console.error(`The server refused the device code: ${token.error}: ${token.error_description}`);
    return EXIT.undecided;
  }
  console.error("The code expired before it was approved; run assay login again.");
  return EXIT.undecided;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

interface KeyRecord {
  keyId: string;
  displayPrefix: string;
  scopes: string[];
  status: string;
}

/**
 * `login --with-token`, as gh's: the key on standard input, checked on the server before it is stored. A key the
 * server refuses (401) is not stored; one without account:read is stored without its organization and id.
 */
async function tokenLogin(baseUrl: string): Promise<number> {
  if (process.stdin.isTTY)
    throw new UsageError(
      "--with-token reads the key from standard input: `assay login --with-token < key.txt`, or `printenv KEY | assay login --with-token`",
    );
  const apiKey = (await readStdin()).trim();
  if (!apiKey) throw new UsageError("--with-token: standard input held no key");
  if (/\s/.test(apiKey)) throw new UsageError("--with-token: standard input must hold one key and nothing else");
  const entry: StoredKey = { apiKey, via: "token", savedAt: new Date().toISOString() };
  try {
    const org = await callApi<{ customerId: string; orgCode: string; email: string }>(baseUrl, "GET", "/api/org", {
      key: apiKey,
    });
    Object.assign(entry, { customerId: org.body.customerId, orgCode: org.body.orgCode, email: org.body.email });
    const { keys } = (await callApi<{ keys: KeyRecord[] }>(baseUrl, "GET", "/api/keys", { key: apiKey })).body;
    const mine = keys.filter((k) => k.status === "active" && apiKey.startsWith(k.displayPrefix));
    if (mine.length === 1) Object.assign(entry, { keyId: mine[0]!.keyId, scope: mine[0]!.scopes.join(" ") });
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    if (e.status === 401) {
      console.error(`${baseUrl} refuses this key (${e.describe()}); nothing was stored.`);
      return EXIT.undecided;
    }
    // Any other refusal means the key was accepted (a key without account:read is INSUFFICIENT_SCOPE).
    if (e.code !== "INSUFFICIENT_SCOPE") throw e;
  }
  const others = Object.keys(readHosts()).filter((url) => url !== baseUrl);
  store(baseUrl, entry);
  const who = entry.orgCode
    ? `, organization ${entry.orgCode} (${entry.customerId}), account ${entry.email}`
    : " (the key lacks account:read, so its organization is not shown)";
  console.log(
    `Logged in to ${baseUrl} with the key ${shownKey(apiKey)}${entry.keyId ? ` (${entry.keyId})` : ""}${who}.`,
  );
  console.log(
    `Stored in ${hostsPath()}. assay logout forgets it without revoking it: a key given with --with-token may be in use elsewhere.`,
  );
  afterLogin(baseUrl, others);
  return EXIT.pass;
}

/** Every stored server, one line each: its key's prefix, whose it is, and which one is the default. */
function storedServers(current: string): string[] {
  const hosts = readHosts();
  const fallback = defaultServer(hosts);
  return Object.entries(hosts).map(([url, k]) => {
    const marks = [url === fallback ? "default" : "", url === current ? "this one" : ""].filter(Boolean).join(", ");
    const owner = [k.orgCode, k.email].filter(Boolean).join(" ");
    return `${url === fallback ? "*" : " "} ${url}  ${k.apiKey ? shownKey(k.apiKey) : "(no key)"}${owner ? `  ${owner}` : ""}${marks ? `  (${marks})` : ""}`;
  });
}

/** Says which server and why, which key and why, whom it belongs to and the balance; then every stored server. */
async function status(opts: { baseUrl?: string }): Promise<number> {
  const { baseUrl, from } = serverOf(opts.baseUrl);
  console.log(`Server: ${baseUrl} (${from})`);
  const servers = storedServers(baseUrl);
  const listServers = () => {
    if (servers.length)
      console.log(`\nServers with a stored key (${hostsPath()}; * the default):\n${servers.join("\n")}`);
  };
  const key = keyInUse(baseUrl);
  const stored = storedKey(baseUrl);
  if (!key) {
    const reached = await probe(baseUrl);
    if (!reached.ok) console.error(`UNREACHABLE: Could not reach ${baseUrl}: ${reached.why}`);
    else
      console.error(
        `Not logged in to ${baseUrl}: no key stored in ${hostsPath()} and ASSAY_API_KEY is not set. Run assay login --base-url ${baseUrl} (or assay login --with-token).`,
      );
    listServers();
    return EXIT.undecided;
  }
  if (key.source === "ASSAY_API_KEY") {
    console.log(
      `Key: from ASSAY_API_KEY (${shownKey(key.apiKey)}), which wins over any stored key${stored ? ` (${stored.keyId ? `key ${stored.keyId}` : shownKey(stored.apiKey)} is stored for this server but not used)` : ""}.`,
    );
  } else {
    const how = stored!.via === "token" ? "given to assay login --with-token" : "stored by assay login";
    console.log(
      `Key: ${stored!.keyId ?? "id unknown"} (${shownKey(key.apiKey)}), ${how} in ${hostsPath()}${stored!.scope ? ` (scopes: ${stored!.scope})` : ""}.`,
    );
    if (stored!.via !== "token" && stored!.email) console.log(`Approved by: ${stored!.email}`);
  }
  try {
    const org = await callApi<{ customerId: string; orgCode: string; email: string; plan: string }>(
      baseUrl,
      "GET",
      "/api/org",
      { key: key.apiKey },
    );
    console.log(
      `Organization: ${org.body.orgCode} (${org.body.customerId}), ${org.body.plan} plan, account email ${org.body.email}`,
    );
    const credits = await callApi<{ balance: number }>(baseUrl, "GET", "/api/credits", { key: key.apiKey });
    console.log(`Balance: ${credits.body.balance} credits`);
  } catch (e) {
    if (!(e instanceof ApiFailure) || e.code !== "INSUFFICIENT_SCOPE") throw e;
    if (stored?.orgCode && key.source === "stored")
      console.log(`Organization: ${stored.orgCode} (${stored.customerId}), as stored at login`);
    console.log("Balance: not shown, the key lacks the account:read scope.");
  }
  listServers();
  return EXIT.pass;
}

/**
 * Forgets the stored key; one `assay login` minted for this machine is first revoked on the server with the key
 * itself. A key given with --with-token is only forgotten: it may be in use elsewhere.
 */
async function logout(opts: { baseUrl?: string }): Promise<number> {
  const { baseUrl } = serverOf(opts.baseUrl);
  const stored = storedKey(baseUrl);
  if (!stored) {
    if (process.env.ASSAY_API_KEY) {
      console.error(
        `No key is stored for ${baseUrl}: the key in use comes from ASSAY_API_KEY, which assay logout does not revoke. Unset the variable, or revoke that key in the dashboard (${baseUrl}/dashboard/keys).`,
      );
    } else console.error(`Not logged in to ${baseUrl}: no key is stored in ${hostsPath()}.`);
    return EXIT.undecided;
  }
  if (stored.via === "token" || !stored.keyId) {
    forgetKey(baseUrl);
    console.log(
      `Removed the key ${shownKey(stored.apiKey)} for ${baseUrl} from ${hostsPath()}. It was given with --with-token, so it stays active on the server: revoke it at ${baseUrl}/dashboard/keys if nothing else uses it.`,
    );
    return EXIT.pass;
  }
  try {
    await callApi(baseUrl, "DELETE", `/api/keys/${encodeURIComponent(stored.keyId)}`, { key: stored.apiKey });
  } catch (e) {
    if (!(e instanceof ApiFailure)) throw e;
    console.error(`Could not revoke key ${stored.keyId} on ${baseUrl}: ${e.describe()}`);
    console.error(`Revoke key ${stored.keyId} in the dashboard: ${baseUrl}/dashboard/keys`);
    if (e.status === 401) {
      // The server no longer accepts the key (revoked, or unknown): keeping it would only fail again.
      forgetKey(baseUrl);
      console.error(`The server refuses this key, so it was removed from ${hostsPath()}.`);
    } else console.error(`The key stays in ${hostsPath()}; run assay logout again once the server answers.`);
    return EXIT.blocked;
  }
  forgetKey(baseUrl);
  console.log(`Revoked key ${stored.keyId} on ${baseUrl} and removed it from ${hostsPath()}.`);
  if (process.env.ASSAY_API_KEY)
    console.log("Note: ASSAY_API_KEY is still set in this environment; that key was not revoked.");
  return EXIT.pass;
}

/** The key in use, alone on stdout (for `export ASSAY_API_KEY=$(assay print-key)`). */
async function printKey(opts: { baseUrl?: string }): Promise<number> {
  const { baseUrl } = serverOf(opts.baseUrl);
  const key = keyInUse(baseUrl);
  if (!key) throw await noKeyFailure(baseUrl);
  process.stdout.write(`${key.apiKey}\n`);
  return EXIT.pass;
}

/** login, status, print-key, logout: the client's keys, one per server. */
export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .description(
      "sign this machine in to an Assay server (RFC 8628 device flow): prints a code and an address to approve it at, opens a browser when there is one, and stores the key in $XDG_CONFIG_HOME/assay/hosts.json (0600), one per server; the server becomes the default. --with-token stores a key read from standard input instead. Exit 0 logged in, 2 denied, expired, refused or unreachable",
    )
    .option(...BASE_URL_OPTION)
    .option("--no-browser", "do not open a browser, only print the address")
    .option("--with-token", "read a key from standard input (checked on the server) instead of the device flow")
    .action(
      reporting((opts: { baseUrl?: string; browser: boolean; withToken?: boolean }) => {
        const { baseUrl } = serverOf(opts.baseUrl);
        return opts.withToken ? tokenLogin(baseUrl) : deviceLogin(baseUrl, opts.browser);
      }),
    );

  program
    .command("status")
    .description(
      "which server and why, which key is in use and why (ASSAY_API_KEY wins over the stored key), the organization and the balance; then every server with a stored key, its key's prefix and which is the default. Exit 2 when there is no key or the server cannot be reached",
    )
    .option(...BASE_URL_OPTION)
    .action(reporting((opts: { baseUrl?: string }) => status(opts)));

  program
    .command("print-key")
    .description(
      "print the key in use (ASSAY_API_KEY, else the stored one) to stdout and nothing else; exit 2 when there is none",
    )
    .option(...BASE_URL_OPTION)
    .action(reporting((opts: { baseUrl?: string }) => printKey(opts)));

  program
    .command("logout")
    .description(
      "forget the server's stored key; a key assay login minted is first revoked on the server (with the key itself), one given with --with-token is only forgotten. Exit 1 when the server did not revoke it (it names the key id to revoke at /dashboard/keys), 2 when no key is stored",
    )
    .option(...BASE_URL_OPTION)
    .action(reporting((opts: { baseUrl?: string }) => logout(opts)));
}
