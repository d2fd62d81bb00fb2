import { Type } from "@sinclair/typebox";
import { defineOperation } from "../operation";
import { signedInRedirect } from "../session-cookie";

const InvitationCallbackQuery = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: "The token of the invitation link." }) },
  { additionalProperties: false },
);

export const openInvitation = defineOperation({
  operationId: "openInvitation",
  tag: "account",
  summary: "Open an invitation link: joins the organization and signs in",
  description:
    "The link an invitation email carries. It works once, before it expires: the invited email joins the organization with the invited role (someone already a member keeps their role), and a fresh session starts for that email, acting for the organization (whatever cookie came with the request: the link proves the mailbox). It redirects to the dashboard (/dashboard). It counts as a sign-in from the client address (SESSION_START_RATE_LIMITED past ASSAY_SIGNINS_PER_CLIENT per window; the invitation is then not used).",
  http: {
    method: "get",
    path: "/api/invitations/callback",
    status: 303,
    returns: "A redirect to /dashboard setting the session cookie.",
  },
  auth: { kind: "public" },
  input: { query: InvitationCallbackQuery },
  errors: ["INVITATION_INVALID", "UNAUTHORIZED_DOMAIN", "SESSION_START_RATE_LIMITED"],
  example: { token: "a-token-from-the-email" },
  handle: async (input, { services, meta, clientAddress }) => {
    const { secret } = await services.members.signInThrough(input.token, meta, clientAddress);
    return signedInRedirect(secret, "/dashboard", services.config);
  },
});
