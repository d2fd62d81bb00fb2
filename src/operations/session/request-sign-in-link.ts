import { Type } from "@sinclair/typebox";
import { Obj, Str } from "../../contracts/schema-kit";
import { sameOriginPath } from "../../contracts/request-parts";
import { defineOperation } from "../operation";

const SignInLinkBody = Type.Object(
  {
    email: Type.String({
      description: "The address to send the sign-in link to. The answer is the same whether or not it has an account.",
      "x-invalid-code": "SIGNUP_INVALID_EMAIL",
    }),
    next: sameOriginPath("Where the link lands once signed in: a path on this site (default /dashboard)."),
  },
  { additionalProperties: false },
);

const SignInLinkSent = Obj(
  { status: Type.Literal("sent"), message: Str() },
  "The same answer whether or not the email has an account.",
);

export const requestSignInLink = defineOperation({
  operationId: "requestSignInLink",
  tag: "session",
  summary: "Email a single-use sign-in link",
  description:
    "Sends a link that signs in once, within 15 minutes, through the configured mail relay (without one, the server writes it to its log). The answer is the same whether or not the email has an account: the first sign-in with a new email opens a free organization, and signing in with an organization's signup email claims it (its person becomes admin). Outside ASSAY_SIGNIN_DOMAINS it is UNAUTHORIZED_DOMAIN and nothing is sent; past ASSAY_SIGNIN_LINKS_PER_ADDRESS links to one email, or ASSAY_SIGNIN_LINKS_PER_CLIENT from one client address, within a link lifetime it is SIGNIN_RATE_LIMITED (with Retry-After). A link that would open an organization is SIGNUP_RATE_LIMITED while the client address has opened all it may (the budget POST /api/signup spends; the link's first use spends it).",
  http: {
    method: "post",
    path: "/api/session/email",
    status: 202,
    returns: "Accepted: a link is on its way if the address can sign in.",
  },
  auth: { kind: "public" },
  input: { body: SignInLinkBody, form: true },
  output: SignInLinkSent,
  errors: [
    "SIGNUP_INVALID_EMAIL",
    "UNAUTHORIZED_DOMAIN",
    "SIGNIN_RATE_LIMITED",
    "SIGNUP_RATE_LIMITED",
    "SERVICE_UNAVAILABLE",
  ],
  example: { email: "someone@example.com" },
  handle: async (input, { services, meta, clientAddress }) => {
    await services.sessions.requestLink(input.email, input.next, meta, clientAddress);
    return { status: "sent" as const, message: "Check your mailbox: the link signs you in once, within 15 minutes." };
  },
});
