import { KeyRef, RevokedKey } from "../../contracts/account";
import { defineOperation, sessionOf } from "../operation";

export const revokeKey = defineOperation({
  operationId: "revokeKey",
  tag: "account",
  summary: "Revoke a key (session only)",
  description:
    "Revokes a key at once: its next request gets 401. A member may revoke only keys they minted (else ADMIN_REQUIRED); another organization's key is STORAGE_OBJECT_NOT_FOUND, as a missing one.",
  http: { method: "post", path: "/api/keys/{keyId}/revoke", returns: "The key, revoked." },
  auth: { kind: "session" },
  input: { path: KeyRef },
  output: RevokedKey,
  errors: ["STORAGE_OBJECT_NOT_FOUND", "ADMIN_REQUIRED"],
  example: { keyId: "key_0000000000000000" },
  handle: (input, call) => call.services.accounts.revokeKeyAs(sessionOf(call), input.keyId, call.meta),
});
