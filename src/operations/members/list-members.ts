import { Type } from "@sinclair/typebox";
import { Obj, Str } from "../../contracts/schema-kit";
import { Invitation, Role } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const MemberList = Obj({
  customerId: Str(),
  members: Type.Array(Obj({ personId: Str(), email: Str(), role: Role, joinedAt: Str() })),
  invitations: Type.Array(Invitation, { description: "Pending: neither accepted nor expired." }),
});

export const listMembers = defineOperation({
  operationId: "listMembers",
  tag: "account",
  summary: "Your organization's members and pending invitations",
  description:
    "Every member of the session's organization with their role, and the invitations neither accepted nor expired. Any member may read it.",
  http: { method: "get", path: "/api/members", returns: "The members and invitations." },
  auth: { kind: "session" },
  input: {},
  output: MemberList,
  errors: [],
  example: {},
  handle: (_input, call) => call.services.members.list(sessionOf(call)),
});
