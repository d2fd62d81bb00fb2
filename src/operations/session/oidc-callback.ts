import { Type } from "@sinclair/typebox";
import { defineOperation } from "../operation";
import { clearedOidcStateCookie, oidcStateOf, sessionCookie } from "../session-cookie";

/** What the OpenID provider sends back (RFC 6749 §4.1.2, RFC 9207's iss); other parameters are ignored. */
const OidcCallbackQuery = Type.Object(
  {
    state: Type.Optional(Type.String({ maxLength: 200, description: "The state this server sent the provider." })),
    code: Type.Optional(Type.String({ maxLength: 2000, description: "The authorization code, on success." })),
    iss: Type.Optional(Type.String({ maxLength: 2000, description: "The provider's issuer identifier." })),
    error: Type.Optional(Type.String({ maxLength: 200, description: "The provider's error code, on failure." })),
    error_description: Type.Optional(
      Type.String({ maxLength: 2000, description: "The provider's words on the error." }),
    ),
  },
  { additionalProperties: false },
);

export const completeOidcSignIn = defineOperation({
  operationId: "completeOidcSignIn",
  tag: "session",
  summary: "The OpenID provider's redirect back: starts a session",
  description:
    "The provider sends the browser here. The answer must carry the state of a sign-in this browser started (once); the code is exchanged, the provider must vouch for the email (email_verified), and the person signs in as with an email link: a signup email claims its organization, a new email opens a free one, outside ASSAY_SIGNIN_DOMAINS it is UNAUTHORIZED_DOMAIN and nothing is created. As with a link, it counts as a sign-in from the client address (SESSION_START_RATE_LIMITED), and one that opens an organization against the address's budget of new organizations (SIGNUP_RATE_LIMITED). A fresh session, then a redirect to the `next` given at the start.",
  http: {
    method: "get",
    path: "/api/session/oidc/callback",
    status: 303,
    returns: "A redirect to next (or /dashboard) setting the session cookie.",
  },
  auth: { kind: "public" },
  input: { query: OidcCallbackQuery },
  errors: [
    "OIDC_STATE_INVALID",
    "OIDC_SIGNIN_FAILED",
    "UNAUTHORIZED_DOMAIN",
    "SIGNUP_INVALID_EMAIL",
    "SESSION_START_RATE_LIMITED",
    "SIGNUP_RATE_LIMITED",
    "SERVICE_UNAVAILABLE",
  ],
  example: { state: "the-state-sent", code: "the-providers-code" },
  handle: async (input, { services, meta, cookie, clientAddress }) => {
    const { secret, next } = await services.oidc.complete(input, oidcStateOf(cookie), meta, clientAddress);
    const headers = new Headers({ location: next, "cache-control": "no-store" });
    headers.append("set-cookie", sessionCookie(secret, services.config));
    headers.append("set-cookie", clearedOidcStateCookie(services.config));
    return new Response(null, { status: 303, headers });
  },
});
