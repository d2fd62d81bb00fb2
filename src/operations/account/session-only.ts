import { AppError } from "../../errors/app-error";
import { defineOperation, type Operation } from "../operation";

/** A key-management operation: it needs a signed-in dashboard session, which an API key never is. */
export const sessionOnly = (method: "post" | "delete", path: string, operationId: string, summary: string): Operation =>
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
