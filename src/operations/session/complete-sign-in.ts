import { Type } from "@sinclair/typebox";
import { sameOriginPath } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { signedInRedirect } from "../session-cookie";

const SignInCallbackQuery = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: "The token of the sign-in link." }),
    next: sameOriginPath("Where to go once signed in: a path on this site (default /dashboard)."),
  },
  { additionalProperties: false },
);

export const completeSignIn = defineOperation({
  operationId: "completeSignIn",
  tag: "session",
  summary: "Open a sign-in link: starts a session",
  description:
    "The link a sign-in email carries. It works once: it starts a fresh session (a new id whatever cookie came with the request) and redirects to `next`, a path on this site, or to the dashboard (/dashboard). Each is a sign-in from the client address (SESSION_START_RATE_LIMITED past ASSAY_SIGNINS_PER_CLIENT per window); one that opens an organization also spends this address's budget of new organizations (SIGNUP_RATE_LIMITED). Refused, the link is not used and works until it expires.",
  http: {
    method: "get",
    path: "/api/session/callback",
    status: 303,
    returns: "A redirect to next (or /dashboard) setting the session cookie.",
  },
  auth: { kind: "public" },
  input: { query: SignInCallbackQuery },
  errors: ["SIGNIN_LINK_INVALID", "UNAUTHORIZED_DOMAIN", "SESSION_START_RATE_LIMITED", "SIGNUP_RATE_LIMITED"],
  example: { token: "a-token-from-the-email" },
  handle: async (input, { services, meta, clientAddress }) => {
    const { secret } = await services.sessions.signIn(input.token, meta, clientAddress);
    return signedInRedirect(secret, input.next ?? "/dashboard", services.config);
  },
});
