import { displayPrefixOf } from "../../../src/domain/key-prefix";
import { defaultServer, readHosts, storedKey } from "./hosts";

export const LOCAL_SERVER = "http://localhost:8080";

/** How a base URL as given is compared and stored: without trailing slashes. */
export const normalBaseUrl = (url: string) => url.replace(/\/+$/, "");

/** The server a client command talks to and why: --base-url, else ASSAY_BASE_URL, else the default stored server, else a local one. */
export function serverOf(option?: string): { baseUrl: string; from: string } {
  if (option) return { baseUrl: normalBaseUrl(option), from: "--base-url" };
  if (process.env.ASSAY_BASE_URL) return { baseUrl: normalBaseUrl(process.env.ASSAY_BASE_URL), from: "ASSAY_BASE_URL" };
  const stored = defaultServer();
  if (stored) return { baseUrl: stored, from: "the default: the server logged in to last" };
  return { baseUrl: LOCAL_SERVER, from: "no --base-url, ASSAY_BASE_URL or stored server: a local one" };
}

export const baseUrlOf = (option?: string): string => serverOf(option).baseUrl;

/** The key in use and why: ASSAY_API_KEY wins over the key `assay login` stored for this server. */
export type KeyInUse =
  | { apiKey: string; source: "ASSAY_API_KEY"; keyId?: undefined }
  | { apiKey: string; source: "stored"; keyId?: string };

export function keyInUse(baseUrl: string): KeyInUse | null {
  if (process.env.ASSAY_API_KEY) return { apiKey: process.env.ASSAY_API_KEY, source: "ASSAY_API_KEY" };
  const stored = storedKey(baseUrl);
  return stored ? { apiKey: stored.apiKey, source: "stored", keyId: stored.keyId } : null;
}

/** A key as it may be shown: its display prefix (the server's own rule), never the secret. */
export const shownKey = (apiKey: string) => `${displayPrefixOf(apiKey)}…`;

/** Whether anything answers at the base URL (any HTTP status), or why not. */
export async function probe(baseUrl: string): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(10_000) });
    return { ok: true };
  } catch (e) {
    return { ok: false, why: describeFetchError(e) };
  }
}

/** A failed fetch in words: the cause's code and message where Node gives one (ECONNREFUSED, ENOTFOUND). */
function describeFetchError(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.message ?? (e as Error).message;
}

/**
 * The failure of a command that found no key for this server: a server that does not answer is UNREACHABLE (a
 * wrong address is not a missing key); one that answers is NO_KEY, naming the servers keys are stored for.
 */
export async function noKeyFailure(baseUrl: string): Promise<ApiFailure> {
  const reached = await probe(baseUrl);
  if (!reached.ok) return unreachable(baseUrl, reached.why);
  const others = Object.keys(readHosts()).filter((url) => url !== baseUrl);
  return new ApiFailure(
    0,
    "NO_KEY",
    `No key for ${baseUrl}: run \`assay login --base-url ${baseUrl}\` (or \`assay login --with-token\` with a key on standard input), or set ASSAY_API_KEY.${others.length ? ` Keys are stored for ${others.join(", ")}.` : ""}`,
    null,
  );
}

/** The key for this server (ASSAY_API_KEY, else the stored one), or the failure saying why there is none. */
export async function requireKey(baseUrl: string): Promise<KeyInUse> {
  const key = keyInUse(baseUrl);
  if (!key) throw await noKeyFailure(baseUrl);
  return key;
}

const unreachable = (baseUrl: string, why: string) =>
  new ApiFailure(0, "UNREACHABLE", `Could not reach ${baseUrl}: ${why}`, null);
/** A refusal or failure the server answered with its catalogued body, or a server that could not be reached. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /**
   * For the terminal: the code, the message and the request id (never the key); then, for an unknown id the
   * server answered the nearest of (details.suggestions), a line per id saying which.
   */
  describe(): string {
    const line = `${this.code}: ${this.message}${this.requestId ? ` (request ${this.requestId})` : ""}`;
    return [line, ...suggestionLines(this.details?.suggestions)].join("\n");
  }
}

/** `details.suggestions` of an unknown-id error, `{ "<id as given>": ["<nearest>", …] }`, as "did you mean" lines. */
function suggestionLines(suggestions: unknown): string[] {
  if (!suggestions || typeof suggestions !== "object") return [];
  return Object.entries(suggestions as Record<string, unknown>)
    .filter((entry): entry is [string, string[]] => Array.isArray(entry[1]) && entry[1].length > 0)
    .map(([given, nearest]) => `  ${given}: did you mean ${nearest.map((id) => `\`${id}\``).join(" or ")}?`);
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * One call of the HTTP API: JSON in and out. A non-2xx answer throws its catalogued error as ApiFailure, except an
 * OAuth refusal (`{ error, error_description }`), which is answered: the device flow polls on it.
 */
export async function callApi<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; form?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  let body: string | undefined;
  if (opts.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${path}`, { method, headers, body, signal: opts.signal });
  } catch (e) {
    throw unreachable(baseUrl, describeFetchError(e));
  }
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // A non-JSON body (a download) stays text.
  }
  if (!res.ok && !(parsed && typeof parsed === "object" && "error" in parsed && !("code" in parsed))) {
    const code =
      parsed && typeof parsed === "object" && typeof parsed.code === "string" ? parsed.code : `HTTP_${res.status}`;
    const message =
      parsed && typeof parsed === "object" && typeof parsed.message === "string" ? parsed.message : text.slice(0, 200);
    const details =
      parsed && typeof parsed === "object" && parsed.details && typeof parsed.details === "object"
        ? (parsed.details as Record<string, unknown>)
        : undefined;
    throw new ApiFailure(res.status, code, message, res.headers.get("x-request-id"), details);
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
