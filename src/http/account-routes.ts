import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { authorize, jsonBody, publicMeta } from "./request";

const sessionOnly = () => {
  throw new AppError("AUTH_REQUIRED", "Minting, rotating and revoking keys needs a signed-in dashboard session, not an API key.", {
    requires: "session",
  });
};

export function accountRoutes(assay: Assay) {
  return new Elysia()
    .post("/api/signup", ({ request, body, set }) => {
      const parsed = jsonBody(request, body);
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        throw new AppError("INVALID_REQUEST_BODY", "Send { \"email\": \"you@example.com\" }.");
      }
      const { email, ...rest } = parsed as Record<string, unknown>;
      const unknownFields = Object.keys(rest);
      if (unknownFields.length) throw new AppError("UNKNOWN_FIELD", `Unknown field(s): ${unknownFields.join(", ")}.`, { unknownFields });
      if (email === undefined) throw new AppError("MISSING_REQUIRED_FIELD", "email is required.", { field: "email" });
      set.status = 201;
      return assay.accounts.signup(email, { ...publicMeta(request), actor: { kind: "system" } });
    })
    .get("/api/org", ({ request, query }) => assay.accounts.org(authorize(assay, request, "account:read", query.customerId).customerId))
    .get("/api/keys", ({ request, query }) => ({ keys: assay.accounts.keys(authorize(assay, request, "account:read", query.customerId).customerId) }))
    .get("/api/credits", ({ request, query }) => {
      const { customerId } = authorize(assay, request, "account:read", query.customerId);
      const limit = query.limit === undefined ? 20 : Number(query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 200) {
        throw new AppError("INVALID_REQUEST_BODY", "limit must be a whole number from 1 to 200.", { field: "limit" });
      }
      return assay.accounts.credits(customerId, limit);
    })
    .post("/api/keys", sessionOnly)
    .post("/api/keys/:keyId/rotate", sessionOnly)
    .post("/api/keys/:keyId/revoke", sessionOnly)
    .delete("/api/keys/:keyId", sessionOnly);
}
