import { Type } from "@sinclair/typebox";
import { PersonRef } from "../../contracts/people";
import { Obj, Str } from "../../contracts/schema-kit";
import { defineOperation, sessionOf } from "../operation";

const RemovedMember = Obj(
  {
    customerId: Str(),
    personId: Str(),
    revokedKeyIds: Type.Array(Str(), {
      description: "The keys they had minted for the organization, revoked with them.",
    }),
  },
  "The member is gone.",
);

export const removeMember = defineOperation({
  operationId: "removeMember",
  tag: "account",
  summary: "Remove a member (admin only); their keys are revoked",
  description:
    "Removes a person from the session's organization. The keys they minted for it are revoked at once (their next request gets 401): a person gone keeps no access; the organization's own keys (signup, operator) stay. Their sessions acting for it stop working. The last admin cannot be removed (LAST_ADMIN). A member calling it is ADMIN_REQUIRED; a person of another organization is MEMBER_NOT_FOUND, as a missing one.",
  http: {
    method: "delete",
    path: "/api/members/{personId}",
    returns: "The member is gone; the keys revoked with them.",
  },
  auth: { kind: "session" },
  input: { path: PersonRef },
  output: RemovedMember,
  errors: ["ADMIN_REQUIRED", "MEMBER_NOT_FOUND", "LAST_ADMIN"],
  example: { personId: "per_0000000000000000000000" },
  handle: (input, call) => call.services.members.remove(sessionOf(call), input.personId, call.meta),
});
