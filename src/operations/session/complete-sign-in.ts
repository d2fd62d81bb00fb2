import { SignInCallbackQuery } from "../../contracts/inputs";
import { defineOperation } from "../operation";
import { signedInRedirect } from "../session-cookie";

export const completeSignIn = defineOperation({
  operationId: "completeSignIn",
  tag: "session",
  summary: "Open a sign-in link: starts a session",
  description:
    "The link a sign-in email carries. It works once: it starts a fresh session (a new id whatever cookie came with the request) and redirects to `next`, a path on this site, or to the dashboard (/dashboard).",
  http: { method: "get", path: "/api/session/callback", status: 303, returns: "A redirect to next (or /dashboard) setting the session cookie." },
  auth: { kind: "public" },
  input: { query: SignInCallbackQuery },
  errors: ["SIGNIN_LINK_INVALID", "UNAUTHORIZED_DOMAIN"],
  example: { token: "a-token-from-the-email" },
  handle: async (input, { services, meta }) => {
    const { secret } = await services.sessions.signIn(input.token, meta);
    return signedInRedirect(secret, input.next ?? "/dashboard", services.config);
  },
});
