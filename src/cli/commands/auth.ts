import type { Command } from "commander";
import { join } from "node:path";
import { ApiFailure, baseUrlOf, callApi, keyInUse } from "../client";
import { configDir, forgetKey, saveKey, storedKey } from "../hosts";
import { action, EXIT } from "../program";

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

const baseUrlOption = [
  "--base-url <url>",
  "the Assay server (also ASSAY_BASE_URL; default http://localhost:8080)",
] as const;
const hostsFile = () => join(configDir(), "hosts.json");

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

/** RFC 8628: ask for a code, show it, poll at the interval (5 s slower after each slow_down) until a key or a refusal. */
async function login(opts: { baseUrl?: string; browser: boolean }): Promise<number> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const code = await callApi<DeviceAuthorization & { error?: string; error_description?: string }>(
    baseUrl,
    "POST",
    "/api/device/code",
    {
      form: { client_id: CLIENT_ID },
    },
  );
  if (code.body.error) {
    console.error(`The server refused a device code: ${code.body.error}: ${code.body.error_description}`);
    return EXIT.undecided;
  }
  const auth = code.body;
  console.log(`To approve this device, open ${auth.verification_uri} and enter the code ${auth.user_code}`);
  console.log(`(or open ${auth.verification_uri_complete}); the code expires in ${inWords(auth.expires_in)}.`);
  const browser = browserAvailable();
  if (!opts.browser) console.log("Not opening a browser (--no-browser).");
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
    await Bun.sleep(interval * 1000);
    const answer = await callApi<TokenAnswer>(baseUrl, "POST", "/api/device/token", {
      form: { grant_type: DEVICE_GRANT, device_code: auth.device_code, client_id: CLIENT_ID },
    });
    const token = answer.body;
    if (token.error === undefined) {
      const replaced = storedKey(baseUrl);
      if (replaced && replaced.keyId !== token.keyId) {
        console.log(
          `Replacing the stored key ${replaced.keyId}, which stays active: revoke it at ${baseUrl}/dashboard/keys.`,
        );
      }
      saveKey(baseUrl, {
        apiKey: token.access_token,
        keyId: token.keyId,
        customerId: token.customerId,
        orgCode: token.orgCode,
        email: token.email,
        scope: token.scope,
        savedAt: new Date().toISOString(),
      });
      console.log(`Logged in to ${baseUrl} as ${token.email}, organization ${token.orgCode} (${token.customerId}).`);
      console.log(`Key ${token.keyId} (scopes: ${token.scope}) stored in ${hostsFile()}.`);
      if (process.env.ASSAY_API_KEY)
        console.log("Note: ASSAY_API_KEY is set in this environment and wins over the stored key.");
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

/** Says which server, which key and why, whom it belongs to and the balance. */
async function status(opts: { baseUrl?: string }): Promise<number> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  console.log(`Server: ${baseUrl}`);
  const key = keyInUse(baseUrl);
  const stored = storedKey(baseUrl);
  if (!key) {
    console.error(
      `Not logged in to ${baseUrl}: no key stored in ${hostsFile()} and ASSAY_API_KEY is not set. Run assay login.`,
    );
    return EXIT.undecided;
  }
  if (key.source === "ASSAY_API_KEY") {
    console.log(
      `Key: from ASSAY_API_KEY, which wins over any stored key${stored ? ` (key ${stored.keyId} is stored for this server but not used)` : ""}.`,
    );
  } else {
    console.log(`Key: ${key.keyId}, stored by assay login in ${hostsFile()} (scopes: ${stored!.scope}).`);
    console.log(`Approved by: ${stored!.email}`);
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
    if (stored && key.source === "stored")
      console.log(`Organization: ${stored.orgCode} (${stored.customerId}), as stored at login`);
    console.log("Balance: not shown, the key lacks the account:read scope.");
  }
  return EXIT.pass;
}

/** Revokes the stored key on the server with the key itself, then forgets it. */
async function logout(opts: { baseUrl?: string }): Promise<number> {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const stored = storedKey(baseUrl);
  if (!stored) {
    if (process.env.ASSAY_API_KEY) {
      console.error(
        `No key is stored for ${baseUrl}: the key in use comes from ASSAY_API_KEY, which assay logout does not revoke. Unset the variable, or revoke that key in the dashboard (${baseUrl}/dashboard/keys).`,
      );
    } else console.error(`Not logged in to ${baseUrl}: no key is stored in ${hostsFile()}.`);
    return EXIT.undecided;
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
      console.error(`The server refuses this key, so it was removed from ${hostsFile()}.`);
    } else console.error(`The key stays in ${hostsFile()}; run assay logout again once the server answers.`);
    return EXIT.blocked;
  }
  forgetKey(baseUrl);
  console.log(`Revoked key ${stored.keyId} on ${baseUrl} and removed it from ${hostsFile()}.`);
  if (process.env.ASSAY_API_KEY)
    console.log("Note: ASSAY_API_KEY is still set in this environment; that key was not revoked.");
  return EXIT.pass;
}

/** The key in use, alone on stdout (for `export ASSAY_API_KEY=$(assay print-key)`). */
function printKey(opts: { baseUrl?: string }): number {
  const baseUrl = baseUrlOf(opts.baseUrl);
  const key = keyInUse(baseUrl);
  if (!key) {
    console.error(`No key for ${baseUrl}: run assay login, or set ASSAY_API_KEY.`);
    return EXIT.undecided;
  }
  process.stdout.write(`${key.apiKey}\n`);
  return EXIT.pass;
}

/** login, status, print-key, logout: the client's key for one server. */
export function registerAuthCommands(program: Command): void {
  program
    .command("login")
    .description(
      "sign this machine in to an Assay server (RFC 8628 device flow): prints a code and an address to approve it at, opens a browser when there is one, and stores the key in $XDG_CONFIG_HOME/assay/hosts.json (0600). Exit 0 logged in, 2 denied, expired or unreachable",
    )
    .option(...baseUrlOption)
    .option("--no-browser", "do not open a browser, only print the address")
    .action(reporting((opts: { baseUrl?: string; browser: boolean }) => login(opts)));

  program
    .command("status")
    .description(
      "which server, which key is in use and why (ASSAY_API_KEY wins over the stored key), the organization and the balance. Exit 2 when there is no key",
    )
    .option(...baseUrlOption)
    .action(reporting((opts: { baseUrl?: string }) => status(opts)));

  program
    .command("print-key")
    .description(
      "print the key in use (ASSAY_API_KEY, else the stored one) to stdout and nothing else; exit 2 when there is none",
    )
    .option(...baseUrlOption)
    .action(action((opts: { baseUrl?: string }) => printKey(opts)));

  program
    .command("logout")
    .description(
      "revoke the stored key on the server (with the key itself), then forget it. Exit 1 when the server did not revoke it (it names the key id to revoke at /dashboard/keys), 2 when no key is stored",
    )
    .option(...baseUrlOption)
    .action(reporting((opts: { baseUrl?: string }) => logout(opts)));
}
