import { Type } from "@sinclair/typebox";
import { Obj, Str } from "../../contracts/schema-kit";
import { enumOf } from "../../contracts/job-request";
import { keyFields } from "../../contracts/account";
import { Scope } from "../../../events/account";
import { defineOperation, sessionOf } from "../operation";

const MintKeyBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "A name to tell the key apart, e.g. ci or laptop.",
    }),
    scopes: Type.Array(
      enumOf(
        Scope.anyOf.map((s) => s.const),
        "A scope: jobs:read, jobs:write, account:read, feedback:write or webhooks:write.",
      ),
      {
        minItems: 1,
        uniqueItems: true,
        description:
          "The key's scopes, fixed for its life; never beyond your role's (a member's: jobs:read, jobs:write, feedback:write, account:read, webhooks:write).",
      },
    ),
  },
  { additionalProperties: false },
);

const NewKey = Obj({ apiKey: Str(), ...keyFields }, "The key; apiKey is shown only here.");

export const mintKey = defineOperation({
  operationId: "mintKey",
  tag: "account",
  summary: "Mint a key (session only); the secret is shown once",
  description:
    "Mints a key for the session's organization with a name and scopes fixed for its life, never beyond the role's: an admin any scope; a member jobs:read, jobs:write, feedback:write, account:read and webhooks:write.",
  http: { method: "post", path: "/api/keys", status: 201, returns: "The key. apiKey is shown only here: store it." },
  auth: { kind: "session" },
  input: { body: MintKeyBody, form: true },
  output: NewKey,
  errors: ["INSUFFICIENT_SCOPE", "INVALID_ENUM_VALUE"],
  example: { name: "ci", scopes: ["jobs:read", "jobs:write"] },
  handle: (input, call) => call.services.accounts.mintKeyAs(sessionOf(call), input.name, input.scopes, call.meta),
});
