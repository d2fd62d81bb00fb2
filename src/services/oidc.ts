import * as client from "openid-client";
import { AppError } from "../errors/app-error";
import { normaliseEmail } from "../domain/accounts";
import { sha256Hex } from "../store/canonical";
import type { Config } from "../config";
import type { RequestMeta } from "./context";
import type { SessionPrincipal, SessionService } from "./sessions";

/** How long a sign-in started at the provider may take to come back. */
export const OIDC_PENDING_SECONDS = 600;
/** Anyone may start a sign-in, so the sign-ins under way are bounded: past this many, the oldest is forgotten. */
const MAX_PENDING = 10_000;

/** A sign-in sent to the provider, kept until it comes back: the PKCE verifier and nonce never leave the server. */
interface Pending {
  verifier: string;
  nonce: string;
  next: string;
  expiresAt: number;
}

/** What the provider's redirect back carries (the callback's query). */
export interface OidcAnswer {
  state?: string;
  code?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

const notPending = () =>
  new AppError("OIDC_STATE_INVALID", "This sign-in was completed already, or is too old: sign in again.", {
    reason: "not_pending",
  });

/**
 * Sign-in with an OpenID provider: authorization code with PKCE (openid-client), then the same sign-in as an
 * email link's with the provider's verified email.
 *
 * A sign-in under way lives in this process's memory, keyed by the SHA-256 of its state, and the state itself
 * goes to the browser in a short-lived cookie. In memory rather than on the log, because the verifier and nonce
 * are secrets of ten minutes that a replay has no use for (a restart only means pressing sign-in again); the
 * record is taken on first use, so a used state never works twice. The cookie binds the provider's answer to
 * the browser that started the sign-in (no login CSRF); unlike a signed cookie alone, it needs no signing key.
 */
export class OidcSignIn {
  private readonly pending = new Map<string, Pending>();
  private provider: Promise<client.Configuration> | null = null;

  constructor(
    private readonly config: Config,
    private readonly sessions: SessionService,
  ) {}

  private settings() {
    const { oidc } = this.config;
    if (!oidc) {
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "OpenID Connect sign-in is not configured here; sign in by email link (POST /api/session/email).",
        {
          dependency: "oidc",
        },
      );
    }
    return oidc;
  }

  private get redirectUri() {
    return `${this.config.publicBaseUrl}/api/session/oidc/callback`;
  }

  /** The provider's metadata, discovered once; a failed discovery is tried again on the next sign-in. */
  private discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings();
    const url = new URL(issuer);
    this.provider ??= client
      .discovery(url, clientId, undefined, client.ClientSecretBasic(clientSecret), {
        // An http issuer is the operator's explicit choice (a provider on the same host or network).
        execute: url.protocol === "http:" ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.provider = null;
        throw unreachable(error);
      });
    return this.provider;
  }

  /** Starts a sign-in: where to send the browser, and the state its cookie keeps. */
  async start(next: string | undefined): Promise<{ redirectTo: string; state: string }> {
    const provider = await this.discover();
    const now = Date.now();
    for (const [key, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(key);
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    this.pending.set(sha256Hex(state), {
      verifier,
      nonce,
      next: next ?? "/dashboard",
      expiresAt: now + OIDC_PENDING_SECONDS * 1000,
    });
    const redirectTo = client.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: "openid email",
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    });
    return { redirectTo: redirectTo.href, state };
  }

  /**
   * Completes a sign-in from the provider's answer and the state the browser's cookie kept: the code is
   * exchanged, the email must be verified, and the person signs in as with a link (a fresh session).
   */
  async complete(
    answer: OidcAnswer,
    cookieState: string | null,
    meta: RequestMeta,
    clientAddress?: string,
  ): Promise<{ secret: string; session: SessionPrincipal; next: string }> {
    const provider = await this.discover();
    if (!answer.state || !cookieState || answer.state !== cookieState) {
      throw new AppError("OIDC_STATE_INVALID", "This answer does not belong to a sign-in this browser started.", {
        reason: "mismatch",
      });
    }
    const key = sha256Hex(answer.state);
    const pending = this.pending.get(key);
    this.pending.delete(key);
    if (!pending || pending.expiresAt <= Date.now()) throw notPending();

    const callback = new URL(this.redirectUri);
    for (const [name, value] of Object.entries(answer)) if (value !== undefined) callback.searchParams.set(name, value);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(provider, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: answer.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      // Providers may keep the email out of the ID token and give it at the userinfo endpoint.
      if (typeof claims.email !== "string")
        claims = { ...claims, ...(await client.fetchUserInfo(provider, tokens.access_token, String(claims.sub))) };
    } catch (error) {
      throw providerRefusal(error);
    }
    if (typeof claims.email !== "string" || claims.email_verified !== true) {
      throw new AppError("OIDC_SIGNIN_FAILED", "The provider did not vouch for an email address.", {
        reason: "email_unverified",
      });
    }
    return { ...(await this.sessions.signInAs(normaliseEmail(claims.email), meta, clientAddress)), next: pending.next };
  }
}

/** The provider's refusal (its error code when it gave one), or SERVICE_UNAVAILABLE when it could not be reached. */
function providerRefusal(error: unknown): AppError {
  if (error instanceof client.AuthorizationResponseError || error instanceof client.ResponseBodyError) {
    return new AppError("OIDC_SIGNIN_FAILED", `The provider refused the sign-in: ${error.error}.`, {
      reason: "provider",
      error: error.error,
    });
  }
  if (error instanceof client.ClientError) {
    return new AppError("OIDC_SIGNIN_FAILED", `The provider's answer was not valid: ${error.message}`, {
      reason: "provider",
      error: error.code ?? "invalid_response",
    });
  }
  return unreachable(error);
}

const unreachable = (error: unknown) =>
  new AppError("SERVICE_UNAVAILABLE", "The OpenID provider could not be reached; try again shortly.", {
    dependency: "oidc",
    reason: error instanceof Error ? error.message : String(error),
  });
