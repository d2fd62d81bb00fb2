import { KeyRef, RevokedKey } from "../../contracts/account";
import { defineOperation } from "../operation";

export const deleteKey = defineOperation({
  operationId: "deleteKey",
  tag: "account",
  summary: "Revoke a key: from a session, or a key revoking itself",
  description:
    "As POST /api/keys/{keyId}/revoke from a session. With a Bearer key instead, it revokes that same key (a command-line logout); a key revoking another key is SELF_REVOKE_ONLY.",
  http: { method: "delete", path: "/api/keys/{keyId}", returns: "The key, revoked." },
  auth: { kind: "session", ownKey: true },
  input: { path: KeyRef },
  output: RevokedKey,
  errors: ["STORAGE_OBJECT_NOT_FOUND", "ADMIN_REQUIRED", "SELF_REVOKE_ONLY"],
  example: { keyId: "key_0000000000000000" },
  handle: (input, { services, session, key, meta }) =>
    session
      ? services.accounts.revokeKeyAs(session, input.keyId, meta)
      : services.accounts.revokeOwnKey(key!, input.keyId, meta),
});
