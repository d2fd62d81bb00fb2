import type { Config } from "../config";

/** The session cookie: its secret is the session's only credential (stored server-side as a hash). */
const NAME = "assay_session";
/** The OpenID sign-in's cookie: it binds the provider's answer to the browser that started the sign-in. */
const OIDC_NAME = "assay_oidc";
const OIDC_PATH = "/api/session/oidc";
/** The anonymous playground session: a random id its run cap counts against, nothing more. */
const PLAYGROUND_NAME = "assay_playground";

const attributes = (config: Pick<Config, "publicBaseUrl">, path = "/") =>
  `Path=${path}; HttpOnly; SameSite=Lax${config.publicBaseUrl.startsWith("https:") ? "; Secure" : ""}`;

/** Set-Cookie for a new session; it lasts as long as the session's absolute lifetime (the server ends it sooner when idle). */
export const sessionCookie = (secret: string, config: Pick<Config, "publicBaseUrl" | "sessionMaxSeconds">) =>
  `${NAME}=${secret}; ${attributes(config)}; Max-Age=${config.sessionMaxSeconds}`;

export const clearedSessionCookie = (config: Pick<Config, "publicBaseUrl">) =>
  `${NAME}=; ${attributes(config)}; Max-Age=0`;

/** Set-Cookie for an OpenID sign-in under way: SameSite=Lax still sends it on the provider's top-level redirect back. */
export const oidcStateCookie = (state: string, maxAgeSeconds: number, config: Pick<Config, "publicBaseUrl">) =>
  `${OIDC_NAME}=${state}; ${attributes(config, OIDC_PATH)}; Max-Age=${maxAgeSeconds}`;

export const clearedOidcStateCookie = (config: Pick<Config, "publicBaseUrl">) =>
  `${OIDC_NAME}=; ${attributes(config, OIDC_PATH)}; Max-Age=0`;

function cookieValue(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null;
  }
  return null;
}

/** The session secret a Cookie header carries, if any. */
export const sessionSecretOf = (cookieHeader: string | null) => cookieValue(cookieHeader, NAME);

/** Set-Cookie for a new anonymous playground session, set with its first run. */
export const playgroundCookie = (sessionId: string, maxAgeSeconds: number, config: Pick<Config, "publicBaseUrl">) =>
  `${PLAYGROUND_NAME}=${sessionId}; ${attributes(config)}; Max-Age=${maxAgeSeconds}`;

/** The playground session a Cookie header carries, if any. */
export const playgroundSessionOf = (cookieHeader: string | null | undefined) =>
  cookieValue(cookieHeader, PLAYGROUND_NAME);

/** The OpenID sign-in state a Cookie header carries, if any. */
export const oidcStateOf = (cookieHeader: string | null | undefined) => cookieValue(cookieHeader, OIDC_NAME);
/** The answer of a link that signs in (sign-in or invitation): a redirect setting the new session's cookie. */
export const signedInRedirect = (
  secret: string,
  location: string,
  config: Pick<Config, "publicBaseUrl" | "sessionMaxSeconds">,
) =>
  new Response(null, {
    status: 303,
    headers: { location, "set-cookie": sessionCookie(secret, config), "cache-control": "no-store" },
  });
