import { Type } from "@sinclair/typebox";
import { Invitation, RoleField } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const InviteMemberBody = Type.Object(
  {
    email: Type.String({
      description: "The email to invite; the invitation link goes there.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
    role: RoleField,
  },
  { additionalProperties: false },
);

export const inviteMember = defineOperation({
  operationId: "inviteMember",
  tag: "account",
  summary: "Invite someone by email into your organization (admin only)",
  description:
    "Emails a single-use invitation link (7 days by default, ASSAY_INVITATION_TTL_SECONDS) through the mail relay, as a sign-in link is sent (without a relay, the server writes it to its log). Opening the link signs in with the invited email and joins with the role; a signed-in person with that email may instead accept it with POST /api/invitations/accept. A member calling it is ADMIN_REQUIRED; outside ASSAY_SIGNIN_DOMAINS it is UNAUTHORIZED_DOMAIN and nothing is sent.",
  http: {
    method: "post",
    path: "/api/invitations",
    status: 201,
    returns: "The invitation (never its token: that is in the mail alone).",
  },
  auth: { kind: "session" },
  input: { body: InviteMemberBody, form: true },
  output: Invitation,
  errors: [
    "ADMIN_REQUIRED",
    "SIGNUP_INVALID_EMAIL",
    "UNAUTHORIZED_DOMAIN",
    "INVALID_ENUM_VALUE",
    "SERVICE_UNAVAILABLE",
  ],
  example: { email: "colleague@example.com", role: "member" },
  handle: (input, call) => call.services.members.invite(sessionOf(call), input.email, input.role, call.meta),
});
