import { Elysia } from "elysia";
import type { Assay } from "../app";
import { emailClientCatalogView } from "../catalog/email-clients";
import { authorize } from "./request";

/** GET /api/email-clients: the mail-client render catalog, keyed by form factor then client id (Bearer, jobs:read). */
export function emailClientRoutes(assay: Assay) {
  return new Elysia().get("/api/email-clients", ({ request, query }) => {
    authorize(assay, request, "jobs:read", query.customerId);
    return emailClientCatalogView();
  });
}
