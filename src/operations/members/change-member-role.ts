import { Type } from "@sinclair/typebox";
import { PersonRef, Member, RoleField } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const MemberRoleBody = Type.Object({ role: RoleField }, { additionalProperties: false });

export const changeMemberRole = defineOperation({
  operationId: "changeMemberRole",
  tag: "account",
  summary: "Change a member's role (admin only)",
  description:
    "Sets a member's role; the same role changes nothing. Demoting the organization's last admin is LAST_ADMIN. A member calling it is ADMIN_REQUIRED; a person of another organization is MEMBER_NOT_FOUND, as a missing one. The keys a demoted admin minted keep their scopes (a member may hold every scope today).",
  http: { method: "post", path: "/api/members/{personId}/role", returns: "The membership, with its role." },
  auth: { kind: "session" },
  input: { path: PersonRef, body: MemberRoleBody, form: true },
  output: Member,
  errors: ["ADMIN_REQUIRED", "MEMBER_NOT_FOUND", "LAST_ADMIN", "INVALID_ENUM_VALUE"],
  example: { personId: "per_0000000000000000000000", role: "admin" },
  handle: (input, call) => call.services.members.changeRole(sessionOf(call), input.personId, input.role, call.meta),
});
