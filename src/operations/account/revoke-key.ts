import { sessionOnly } from "./session-only";

export const revokeKey = sessionOnly("post", "/api/keys/{keyId}/revoke", "revokeKey", "Revoke a key (session only)");
