import { AppError } from "../../errors/app-error";
import { defineOperation, type Operation } from "../operation";

/** Key management needs a signed-in dashboard session, which API keys never are. */
const sessionOnly = (method: "post" | "delete", path: string, operationId: string, summary: string): Operation =>
  defineOperation({
    operationId,
    tag: "account",
    summary,
    description: "Needs a signed-in dashboard session; an API key is always refused with AUTH_REQUIRED.",
    http: { method, path, returns: "Not available to API keys." },
    auth: { kind: "session" },
    input: {},
    errors: [],
    example: {},
    handle: () => {
      throw new AppError("AUTH_REQUIRED", "Minting, rotating and revoking keys needs a signed-in dashboard session, not an API key.", {
        requires: "session",
      });
    },
  });

export const mintKey = sessionOnly("post", "/api/keys", "mintKey", "Mint a key (session only)");
export const rotateKey = sessionOnly("post", "/api/keys/{keyId}/rotate", "rotateKey", "Rotate a key (session only)");
export const revokeKey = sessionOnly("post", "/api/keys/{keyId}/revoke", "revokeKey", "Revoke a key (session only)");
export const deleteKey = sessionOnly("delete", "/api/keys/{keyId}", "deleteKey", "Revoke a key (session only)");
