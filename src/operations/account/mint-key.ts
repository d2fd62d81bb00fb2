import { MintKeyBody } from "../../contracts/inputs";
import { NewKey } from "../../contracts/outputs";
import { defineOperation, sessionOf } from "../operation";

export const mintKey = defineOperation({
  operationId: "mintKey",
  tag: "account",
  summary: "Mint a key (session only); the secret is shown once",
  description:
    "Mints a key for the session's organization with a name and scopes fixed for its life, never beyond the role's: an admin any scope; a member jobs:read, jobs:write, feedback:write and account:read.",
  http: { method: "post", path: "/api/keys", status: 201, returns: "The key. apiKey is shown only here: store it." },
  auth: { kind: "session" },
  input: { body: MintKeyBody, form: true },
  output: NewKey,
  errors: ["INSUFFICIENT_SCOPE", "INVALID_ENUM_VALUE"],
  example: { name: "ci", scopes: ["jobs:read", "jobs:write"] },
  handle: (input, call) => call.services.accounts.mintKeyAs(sessionOf(call), input.name, input.scopes, call.meta),
});
