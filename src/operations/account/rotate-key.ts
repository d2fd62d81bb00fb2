import { KeyRef, keyFields } from "../../contracts/account";
import { Obj, Str } from "../../contracts/schema-kit";
import { defineOperation, sessionOf } from "../operation";

const RotatedKey = Obj(
  { apiKey: Str(), previousValidUntil: Str(), ...keyFields },
  "The key with its new secret, shown only here; the previous secret works until previousValidUntil.",
);

export const rotateKey = defineOperation({
  operationId: "rotateKey",
  tag: "account",
  summary: "Rotate a key (session only): a new secret, the old one valid for an overlap",
  description:
    "A new secret for the same key id, shown once. The previous secret keeps working until previousValidUntil (ASSAY_KEY_ROTATION_OVERLAP_SECONDS, 24 hours by default, may be 0), then gets 401. A member may rotate only keys they minted (else ADMIN_REQUIRED); another organization's key is STORAGE_OBJECT_NOT_FOUND, as a missing one.",
  http: { method: "post", path: "/api/keys/{keyId}/rotate", returns: "The key with its new secret." },
  auth: { kind: "session" },
  input: { path: KeyRef },
  output: RotatedKey,
  errors: ["STORAGE_OBJECT_NOT_FOUND", "ADMIN_REQUIRED"],
  example: { keyId: "key_0000000000000000" },
  handle: (input, call) => call.services.accounts.rotateKeyAs(sessionOf(call), input.keyId, call.meta),
});
