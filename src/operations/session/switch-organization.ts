import { Type } from "@sinclair/typebox";
import { SessionView } from "../../contracts/people";
import { defineOperation, sessionOf } from "../operation";

const SwitchOrganizationBody = Type.Object(
  {
    customerId: Type.String({ minLength: 1, description: "One of your organizations (GET /api/session lists them)." }),
  },
  { additionalProperties: false },
);

export const switchOrganization = defineOperation({
  operationId: "switchOrganization",
  tag: "session",
  summary: "Act for another of your organizations",
  description:
    "Switches the organization the session acts for. One you are not a member of is CUSTOMER_NOT_FOUND, as for one that does not exist.",
  http: {
    method: "post",
    path: "/api/session/organization",
    returns: "The session, now acting for that organization.",
  },
  auth: { kind: "session" },
  input: { body: SwitchOrganizationBody, form: true },
  output: SessionView,
  errors: ["CUSTOMER_NOT_FOUND"],
  example: { customerId: "cus_0000000000000000000000" },
  handle: (input, call) => call.services.sessions.switchOrganization(sessionOf(call), input.customerId, call.meta),
});
