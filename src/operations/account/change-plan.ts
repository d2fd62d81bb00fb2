import { Type } from "@sinclair/typebox";
import { Organization } from "../../contracts/account";
import { defineOperation, sessionOf } from "../operation";
import { PLAN_RESOLUTION_ERRORS } from "../words";

const ChangePlanBody = Type.Object(
  {
    planCode: Type.String({
      minLength: 1,
      maxLength: 40,
      description: "A plan code of this server's plan catalog (the built-in one: free, web, email, team).",
    }),
  },
  { additionalProperties: false },
);

export const changePlan = defineOperation({
  operationId: "changePlan",
  tag: "account",
  summary: "Change the organization's plan (session, admin only)",
  description:
    "Moves the organization the session acts for to another plan of the plan catalog (recorded as PlanChanged). A member gets ADMIN_REQUIRED; under a billing provider (ASSAY_BILLING_PROVIDER other than local) the plan is the provider's subscription and the change is PLAN_MANAGED_BY_BILLING; a code the catalog lacks is PLAN_UNKNOWN. The new plan's monthly credits for the current month are granted with the next plan-dependent request.",
  http: { method: "post", path: "/api/org/plan", returns: "The organization, on its new plan." },
  auth: { kind: "session" },
  input: { body: ChangePlanBody, form: true },
  output: Organization,
  errors: ["ADMIN_REQUIRED", "PLAN_MANAGED_BY_BILLING", "PLAN_UNKNOWN", ...PLAN_RESOLUTION_ERRORS],
  example: { planCode: "team" },
  handle: async (input, call) => {
    const session = sessionOf(call);
    await call.services.plans.changePlanAs(session, input.planCode, call.meta);
    return call.services.accounts.org(session.customerId);
  },
});
