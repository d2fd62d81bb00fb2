import { sessionOnly } from "./session-only";

export const mintKey = sessionOnly("post", "/api/keys", "mintKey", "Mint a key (session only)");
