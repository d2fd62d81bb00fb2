import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * What `assay login` keeps for one server: the key and whom it belongs to (the key is never printed but by
 * print-key). A key minted by the device flow (`via` "device", or absent in files written before --with-token)
 * is this machine's, so logout revokes it; a key given with --with-token ("token") may be used elsewhere too, so
 * logout only forgets it. What the key may not read (without account:read) stays unknown.
 */
export interface StoredKey {
  apiKey: string;
  via?: "device" | "token";
  keyId?: string;
  customerId?: string;
  orgCode?: string;
  email?: string;
  scope?: string;
  savedAt: string;
}

/** The user's config directory for Assay: $XDG_CONFIG_HOME/assay, else ~/.config/assay. */
export const configDir = () => join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "assay");
export const hostsPath = () => join(configDir(), "hosts.json");

/** Every stored key, by server base URL. */
export function readHosts(): Record<string, StoredKey> {
  const path = hostsPath();
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, StoredKey>;
}

/** Writes the file whole, atomically (a temporary file renamed over it), readable by the user alone (0600 in a 0700 directory). */
function writeHosts(hosts: Record<string, StoredKey>): void {
  const dir = configDir();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const tmp = join(dir, `.hosts.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(hosts, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, hostsPath());
}

export const storedKey = (baseUrl: string): StoredKey | null => readHosts()[baseUrl] ?? null;

/**
 * The default server, for commands given neither --base-url nor ASSAY_BASE_URL: the one logged in to last (of
 * those still stored), as a person who just logged in means to use it.
 */
export function defaultServer(hosts = readHosts()): string | null {
  const latest = Object.entries(hosts).sort(([, a], [, b]) => (b.savedAt ?? "").localeCompare(a.savedAt ?? ""))[0];
  return latest ? latest[0] : null;
}

export function saveKey(baseUrl: string, key: StoredKey): void {
  const { [baseUrl]: _replaced, ...others } = readHosts();
  writeHosts({ ...others, [baseUrl]: key });
}

export function forgetKey(baseUrl: string): void {
  const { [baseUrl]: _gone, ...rest } = readHosts();
  writeHosts(rest);
}
