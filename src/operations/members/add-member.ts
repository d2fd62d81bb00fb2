import { Type } from "@sinclair/typebox";
import { Member, RoleField } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const AddMemberBody = Type.Object(
  {
    email: Type.String({
      description: "The person's email; they sign in with it.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
    role: RoleField,
  },
  { additionalProperties: false },
);

export const addMember = defineOperation({
  operationId: "addMember",
  tag: "account",
  summary: "Add a person to your organization (admin only)",
  description:
    "Adds the person with this email to the session's organization with a role; they sign in with that email as usual (POST /api/session/email) and find the organization among theirs. Adding a member again changes nothing. A member calling it is ADMIN_REQUIRED; outside ASSAY_SIGNIN_DOMAINS it is UNAUTHORIZED_DOMAIN.",
  http: { method: "post", path: "/api/members", status: 201, returns: "The membership." },
  auth: { kind: "session" },
  input: { body: AddMemberBody, form: true },
  output: Member,
  errors: ["ADMIN_REQUIRED", "SIGNUP_INVALID_EMAIL", "UNAUTHORIZED_DOMAIN", "INVALID_ENUM_VALUE"],
  example: { email: "colleague@example.com", role: "member" },
  handle: (input, call) => call.services.members.addMember(sessionOf(call), input.email, input.role, call.meta),
});
