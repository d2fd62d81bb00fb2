import { CustomerQuery } from "../../contracts/inputs";
import { KeyList } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

export const listKeys = defineOperation({
  operationId: "listKeys",
  tag: "account",
  summary: "Your API keys (never a secret)",
  http: { method: "get", path: "/api/keys", returns: "The keys." },
  mcp: {
    name: "list_keys",
    title: "List API keys",
    description:
      "Your organization's API keys: id, name, display prefix, scopes, status, and created, last used, rotated and revoked times. Never a secret. Minting, rotating and revoking need a signed-in session (POST /api/session/email mails a sign-in link). Same as GET /api/keys.",
    annotations: { title: "List API keys", ...READ },
    summary: ({ keys }) => `${plural(keys.length, "key")}, ${keys.filter((k) => k.status === "active").length} active.`,
  },
  auth: { kind: "key", scope: "account:read" },
  input: { query: CustomerQuery },
  output: KeyList,
  errors: [],
  example: {},
  handle: (_input, { services, customerId }) => ({ keys: services.accounts.keys(customerId) }),
});
