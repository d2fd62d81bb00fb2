import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { CreditsQuery, CustomerQuery, SignupBody, readInput } from "../contracts/inputs";
import { authenticate, jsonBody, publicMeta } from "./request";

const sessionOnly = () => {
  throw new AppError("AUTH_REQUIRED", "Minting, rotating and revoking keys needs a signed-in dashboard session, not an API key.", {
    requires: "session",
  });
};

export function accountRoutes(assay: Assay) {
  return new Elysia()
    .post("/api/signup", ({ request, body, set }) => {
      const { email } = readInput(SignupBody, jsonBody(request, body));
      set.status = 201;
      return assay.accounts.signup(email, publicMeta(request));
    })
    .get("/api/org", ({ request, query }) => {
      const auth = authenticate(assay, request, "account:read");
      return assay.accounts.org(auth.customer(readInput(CustomerQuery, query, { query: true }).customerId));
    })
    .get("/api/keys", ({ request, query }) => {
      const auth = authenticate(assay, request, "account:read");
      return { keys: assay.accounts.keys(auth.customer(readInput(CustomerQuery, query, { query: true }).customerId)) };
    })
    .get("/api/credits", ({ request, query }) => {
      const auth = authenticate(assay, request, "account:read");
      const q = readInput(CreditsQuery, query, { query: true });
      return assay.accounts.credits(auth.customer(q.customerId), q.limit ?? 20);
    })
    .post("/api/keys", sessionOnly)
    .post("/api/keys/:keyId/rotate", sessionOnly)
    .post("/api/keys/:keyId/revoke", sessionOnly)
    .delete("/api/keys/:keyId", sessionOnly);
}
