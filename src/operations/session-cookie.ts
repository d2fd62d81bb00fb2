import type { Config } from "../config";

/** The session cookie: its secret is the session's only credential (stored server-side as a hash). */
const NAME = "assay_session";

const attributes = (config: Pick<Config, "publicBaseUrl">) =>
  `Path=/; HttpOnly; SameSite=Lax${config.publicBaseUrl.startsWith("https:") ? "; Secure" : ""}`;

/** Set-Cookie for a new session; it lasts as long as the session's absolute lifetime (the server ends it sooner when idle). */
export const sessionCookie = (secret: string, config: Pick<Config, "publicBaseUrl" | "sessionMaxSeconds">) =>
  `${NAME}=${secret}; ${attributes(config)}; Max-Age=${config.sessionMaxSeconds}`;

export const clearedSessionCookie = (config: Pick<Config, "publicBaseUrl">) => `${NAME}=; ${attributes(config)}; Max-Age=0`;

/** The session secret a Cookie header carries, if any. */
export function sessionSecretOf(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === NAME) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** The answer of a link that signs in (sign-in or invitation): a redirect setting the new session's cookie. */
export const signedInRedirect = (secret: string, location: string, config: Pick<Config, "publicBaseUrl" | "sessionMaxSeconds">) =>
  new Response(null, { status: 303, headers: { location, "set-cookie": sessionCookie(secret, config), "cache-control": "no-store" } });
