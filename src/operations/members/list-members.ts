import { MemberList } from "../../contracts/outputs";
import { defineOperation, sessionOf } from "../operation";

export const listMembers = defineOperation({
  operationId: "listMembers",
  tag: "account",
  summary: "Your organization's members and pending invitations",
  description: "Every member of the session's organization with their role, and the invitations neither accepted nor expired. Any member may read it.",
  http: { method: "get", path: "/api/members", returns: "The members and invitations." },
  auth: { kind: "session" },
  input: {},
  output: MemberList,
  errors: [],
  example: {},
  handle: (_input, call) => call.services.members.list(sessionOf(call)),
});
