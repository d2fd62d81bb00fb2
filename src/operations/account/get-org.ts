import { CustomerQuery } from "../../contracts/request-parts";
import { Organization } from "../../contracts/account";
import { defineOperation } from "../operation";
import { PLAN_RESOLUTION_ERRORS, READ } from "../words";

export const getOrg = defineOperation({
  operationId: "getOrg",
  tag: "account",
  summary: "Your organization",
  http: { method: "get", path: "/api/org", returns: "The organization." },
  mcp: {
    name: "get_org",
    title: "Get the organization",
    description:
      "Your organization: customerId, orgCode, email, plan, creation time, and the plan's credits a month. Same as GET /api/org.",
    annotations: { title: "Get the organization", ...READ },
    summary: (data) => `Organization ${data.customerId} (${data.orgCode}), ${data.plan} plan.`,
  },
  auth: { kind: "key", scope: "account:read" },
  input: { query: CustomerQuery },
  output: Organization,
  errors: [...PLAN_RESOLUTION_ERRORS],
  example: {},
  // The plan is the billing provider's answer (the log's plan under the local provider), with its credits a month.
  handle: (_input, { services, customerId }) => services.accounts.org(customerId),
});
