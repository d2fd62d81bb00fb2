import { Type } from "@sinclair/typebox";
import { CustomerQuery } from "../../contracts/request-parts";
import { Bool, Int, Nullable, Obj, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";
import { PLAN_RESOLUTION_ERRORS } from "../words";

const PlanList = Obj(
  {
    current: Str(),
    billingProvider: Type.String({
      description:
        "Where the plan comes from (ASSAY_BILLING_PROVIDER): local, the plan the log records, or a billing provider such as stripe.",
    }),
    planChangeable: Type.Boolean({
      description:
        "Whether POST /api/org/plan may change the plan: false under a billing provider, whose subscription is the plan (PLAN_MANAGED_BY_BILLING).",
    }),
    plans: Type.Array(
      Obj({
        code: Str(),
        name: Str(),
        paid: Bool(),
        monthlyCredits: Nullable(Int()),
        features: Obj({
          website_checks: Bool(),
          email_checks: Bool(),
          custom_parameters: Bool(),
          extra_credit_clients: Bool(),
        }),
        mailClients: Type.Union([Type.Literal("all"), Type.Array(Str())]),
      }),
    ),
  },
  "The plan catalog, the plan the organization is on (current), and whether it can be changed here.",
);

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
