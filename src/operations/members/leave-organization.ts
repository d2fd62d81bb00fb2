import { Type } from "@sinclair/typebox";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { SessionView } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const LeftOrganization = Obj(
  {
    customerId: Str("The organization left."),
    revokedKeyIds: Type.Array(Str(), { description: "The keys you had minted for it, revoked." }),
    session: Nullable(SessionView),
  },
  "You left; the session now acts for your next organization (session), or, with none left, is over (null).",
);

export const leaveOrganization = defineOperation({
  operationId: "leaveOrganization",
  tag: "account",
  summary: "Leave the session's organization",
  description:
    "You stop being a member; the keys you minted for the organization are revoked. The session moves to your next organization, or ends when none is left (sign in again to start anew). The last admin cannot leave (LAST_ADMIN): make someone else admin first.",
  http: { method: "post", path: "/api/members/leave", returns: "What you left, and the session now." },
  auth: { kind: "session" },
  input: {},
  output: LeftOrganization,
  errors: ["LAST_ADMIN"],
  example: {},
  handle: (_input, call) => call.services.members.leave(sessionOf(call), call.meta),
});
