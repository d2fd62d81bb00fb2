import { Type } from "@sinclair/typebox";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { defineOperation } from "../operation";

const SignupBody = Type.Object(
  {
    email: Type.String({
      description:
        "An address the user controls: signing in with it later claims the account. Ask the user; never invent one.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
  },
  { additionalProperties: false },
);

const BillingStanding = Obj(
  {
    provider: Str("Where the organization's plan comes from: local (this server's log) or stripe."),
    ready: Type.Boolean({
      description: "Whether plan-dependent calls (jobs, estimates, GET /api/credits, GET /api/org) are answered now.",
    }),
    plan: Nullable(Type.String({ description: "The plan they are answered under; null when not ready." })),
    code: Nullable(
      Type.String({
        description:
          "The error code they answer instead until billing is set up (BILLING_NOT_PROVISIONED: no customer or live subscription with the provider; PLAN_NOT_PUBLISHED, BILLING_PROVIDER_UNREACHABLE, SERVICE_UNAVAILABLE); null when ready.",
      }),
    ),
    message: Str("In words: the plan, or why not and what to do."),
  },
  "The organization's billing as its key will meet it.",
);

const NewAccount = Obj(
  { apiKey: Str(), keyId: Str(), customerId: Str(), orgCode: Str(), email: Str(), billing: BillingStanding },
  "The account; apiKey is shown only here. billing says whether the key's plan-dependent calls are answered yet.",
);

export const signup = defineOperation({
  operationId: "signup",
  tag: "account",
  summary: "Open a free account; returns its API key once",
  description:
    "Only for an email ASSAY_SIGNIN_DOMAINS allows (else UNAUTHORIZED_DOMAIN: it could never sign in to rotate or revoke its key). Each client address may open ASSAY_SIGNUPS_PER_ADDRESS organizations per ASSAY_SIGNUP_WINDOW_SECONDS, counting first sign-ins that open one; past it SIGNUP_RATE_LIMITED with Retry-After. Nothing refused is created.",
  http: {
    method: "post",
    path: "/api/signup",
    status: 201,
    returns:
      "The account. apiKey is shown only here: store it. billing.ready false: its jobs and estimates answer billing.code until the operator sets billing up.",
  },
  mcp: {
    name: "create_account",
    title: "Create an account",
    description:
      "Opens a free account for an email the user controls (signing in with it later claims the account) and returns its API key, shown only this once, with 1,000 free credits by default. Ask the user for the email; never invent one. An existing account is ACCOUNT_EXISTS; an email outside the server's sign-in domains is UNAUTHORIZED_DOMAIN; past the organizations one address may open is SIGNUP_RATE_LIMITED. billing.ready says whether the key's jobs and estimates are answered yet (false: billing.code is what they answer until the server's operator sets billing up; billing.message says what to do). Same as POST /api/signup.",
    annotations: {
      title: "Create an account",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    summary: (data) =>
      `Account ${data.customerId} opened for ${data.email}. Store apiKey now (it is not shown again) and send it as Authorization: Bearer <apiKey>.` +
      (data.billing.ready
        ? ""
        : ` Billing is not ready: its jobs and estimates answer ${data.billing.code} until the server's operator sets it up (billing.message says how).`),
  },
  auth: { kind: "public" },
  input: { body: SignupBody },
  output: NewAccount,
  errors: ["SIGNUP_INVALID_EMAIL", "UNAUTHORIZED_DOMAIN", "ACCOUNT_EXISTS", "SIGNUP_RATE_LIMITED"],
  example: { email: "someone@example.com" },
  handle: (input, { services, meta, clientAddress }) => services.accounts.signup(input.email, meta, clientAddress),
});
