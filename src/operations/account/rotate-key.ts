import { sessionOnly } from "./session-only";

export const rotateKey = sessionOnly("post", "/api/keys/{keyId}/rotate", "rotateKey", "Rotate a key (session only)");
