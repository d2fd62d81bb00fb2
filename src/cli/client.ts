import { storedKey } from "./hosts";

/** The server a client command talks to: --base-url, else ASSAY_BASE_URL, else a local server. */
export function baseUrlOf(option?: string): string {
  return (option || process.env.ASSAY_BASE_URL || "http://localhost:8080").replace(/\/+$/, "");
}

/** The key in use and why: ASSAY_API_KEY wins over the key `assay login` stored for this server. */
export type KeyInUse =
  | { apiKey: string; source: "ASSAY_API_KEY"; keyId?: undefined }
  | { apiKey: string; source: "stored"; keyId: string };

export function keyInUse(baseUrl: string): KeyInUse | null {
  if (process.env.ASSAY_API_KEY) return { apiKey: process.env.ASSAY_API_KEY, source: "ASSAY_API_KEY" };
  const stored = storedKey(baseUrl);
  return stored ? { apiKey: stored.apiKey, source: "stored", keyId: stored.keyId } : null;
}

/** A refusal or failure the server answered with its catalogued body, or a server that could not be reached. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
  ) {
    super(message);
  }

  /** One line for the terminal: the code, the message and the request id (never the key). */
  describe(): string {
    return `${this.code}: ${this.message}${this.requestId ? ` (request ${this.requestId})` : ""}`;
  }
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
    throw new ApiFailure(0, "UNREACHABLE", `Could not reach ${baseUrl}: ${(e as Error).message}`, null);
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
    throw new ApiFailure(res.status, code, message, res.headers.get("x-request-id"));
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}
