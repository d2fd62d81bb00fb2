import { CustomerQuery } from "../../contracts/request-parts";
import { PlanList } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { PLAN_RESOLUTION_ERRORS } from "../words";

export const listPlans = defineOperation({
  operationId: "listPlans",
  tag: "account",
  summary: "The plans this server offers, and the organization's",
  description:
    "The plan catalog (code, name, paid, monthly credits, features, mail clients) and the plan the organization is on. With a Bearer key (account:read), or a signed-in session for the organization it acts for. An admin changes the plan with POST /api/org/plan, unless a billing provider manages it (planChangeable false).",
  http: { method: "get", path: "/api/plans", returns: "The plans." },
  auth: { kind: "key", scope: "account:read", session: true },
  input: { query: CustomerQuery },
  output: PlanList,
  errors: [...PLAN_RESOLUTION_ERRORS],
  example: {},
  handle: (_input, { services, customerId }) => services.plans.list(customerId),
});
