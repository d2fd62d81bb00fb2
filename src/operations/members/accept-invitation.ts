import { Type } from "@sinclair/typebox";
import { Member } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const InvitationTokenBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: "The token of the invitation link (its token query parameter).",
    }),
  },
  { additionalProperties: false },
);

export const acceptInvitation = defineOperation({
  operationId: "acceptInvitation",
  tag: "account",
  summary: "Accept an invitation while signed in",
  description:
    "Joins the invitation's organization with its role, in the current session (switch to it with POST /api/session/organization). The invitation must be for the signed-in person's email (else INVITATION_EMAIL_MISMATCH, and nothing changes); it works once, before it expires (else INVITATION_INVALID).",
  http: { method: "post", path: "/api/invitations/accept", returns: "The membership." },
  auth: { kind: "session" },
  input: { body: InvitationTokenBody, form: true },
  output: Member,
  errors: ["INVITATION_INVALID", "INVITATION_EMAIL_MISMATCH", "UNAUTHORIZED_DOMAIN"],
  example: { token: "a-token-from-the-email" },
  handle: (input, call) => call.services.members.acceptSignedIn(sessionOf(call), input.token, call.meta),
});
