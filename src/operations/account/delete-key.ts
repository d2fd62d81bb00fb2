import { sessionOnly } from "./session-only";

export const deleteKey = sessionOnly("delete", "/api/keys/{keyId}", "deleteKey", "Revoke a key (session only)");
