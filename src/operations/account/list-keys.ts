import { Type } from "@sinclair/typebox";
import { CustomerQuery } from "../../contracts/request-parts";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { keyFields } from "../../contracts/account";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const KeyList = Obj({
  keys: Type.Array(Obj({ ...keyFields, lastUsedAt: Nullable(Str("Updated at most once a minute.")) })),
});

export const listKeys = defineOperation({
  operationId: "listKeys",
  tag: "account",
  summary: "Your API keys (never a secret)",
  description:
    "With a Bearer key (account:read): the organization's keys. With a signed-in session instead: an admin sees the organization's keys, a member only the keys they minted. Never a secret.",
  http: { method: "get", path: "/api/keys", returns: "The keys." },
  mcp: {
    name: "list_keys",
    title: "List API keys",
    description:
      "Your organization's API keys: id, name, display prefix, scopes, status, and created, last used, rotated and revoked times. Never a secret. Minting, rotating and revoking need a signed-in session (POST /api/session/email mails a sign-in link). Same as GET /api/keys.",
    annotations: { title: "List API keys", ...READ },
    summary: ({ keys }) => `${plural(keys.length, "key")}, ${keys.filter((k) => k.status === "active").length} active.`,
  },
  auth: { kind: "key", scope: "account:read", session: true },
  input: { query: CustomerQuery },
  output: KeyList,
  errors: [],
  example: {},
  handle: (input, { services, customerId, session }) => ({
    keys: session ? services.accounts.keysOf(session, input.customerId) : services.accounts.keys(customerId),
  }),
});
