import { Type } from "@sinclair/typebox";
import { Int, Obj, Opt, Str } from "../../contracts/schema-kit";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { PLAN_RESOLUTION_ERRORS, READ } from "../words";

/** The dashboard's credits page pages by the same limit (its default and maximum). */
export const CreditsQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 200,
        default: 20,
        description: "Most recent ledger entries to include (1-200, default 20).",
      }),
    ),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const Credits = Obj({
  customerId: Str(),
  balance: Int(),
  plan: Str(),
  planName: Str(),
  monthlyGrant: Int(),
  ledger: Type.Array(
    Obj({
      position: Int(),
      type: Str(),
      amount: Int(),
      jobId: Opt(Str()),
      reason: Opt(Str()),
      balanceAfter: Int(),
      recordedAt: Str(),
    }),
  ),
});

export const getCredits = defineOperation({
  operationId: "getCredits",
  tag: "account",
  summary: "Balance, plan, monthly grant and recent ledger entries",
  description:
    "With a Bearer key (account:read): the organization's credits. With a signed-in session instead: the credits of the organization the session acts for.",
  http: { method: "get", path: "/api/credits", returns: "The credits." },
  mcp: {
    name: "get_credits",
    title: "Get credits",
    description:
      "Your credit balance, plan, monthly grant and recent ledger entries (charges, refunds, grants). Same as GET /api/credits.",
    annotations: { title: "Get credits", ...READ },
    summary: (data) => `Balance ${data.balance} credits on the ${data.plan} plan.`,
  },
  auth: { kind: "key", scope: "account:read", session: true },
  input: { query: CreditsQuery },
  output: Credits,
  errors: [...PLAN_RESOLUTION_ERRORS],
  example: { limit: 5 },
  handle: (input, { services, customerId }) => services.accounts.credits(customerId, input.limit ?? 20),
});
