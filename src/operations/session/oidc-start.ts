import { Type } from "@sinclair/typebox";
import { sameOriginPath } from "../../contracts/request-parts";
import { OIDC_PENDING_SECONDS } from "../../services/oidc";
import { defineOperation } from "../operation";
import { oidcStateCookie } from "../session-cookie";

const OidcStartQuery = Type.Object(
  { next: sameOriginPath("Where to go once signed in: a path on this site (default /dashboard).") },
  { additionalProperties: false },
);

export const startOidcSignIn = defineOperation({
  operationId: "startOidcSignIn",
  tag: "session",
  summary: "Sign in with the OpenID provider",
  description:
    "Where a browser goes to sign in through the configured OpenID Connect provider (ASSAY_OIDC_ISSUER): it is redirected there (authorization code with PKCE) and comes back to GET /api/session/oidc/callback, within 10 minutes. Without a configured provider it is SERVICE_UNAVAILABLE: sign in by email link instead.",
  http: {
    method: "get",
    path: "/api/session/oidc/start",
    status: 303,
    returns: "A redirect to the provider, setting a short-lived cookie that ties its answer to this browser.",
  },
  auth: { kind: "public" },
  input: { query: OidcStartQuery },
  errors: ["SERVICE_UNAVAILABLE"],
  example: { next: "/" },
  handle: async (input, { services }) => {
    const { redirectTo, state } = await services.oidc.start(input.next);
    return new Response(null, {
      status: 303,
      headers: {
        location: redirectTo,
        "set-cookie": oidcStateCookie(state, OIDC_PENDING_SECONDS, services.config),
        "cache-control": "no-store",
      },
    });
  },
});
