import { Elysia } from "elysia";
import type { Assay } from "../app";
import { SetListQuery, ValidationListQuery, readInput } from "../contracts/inputs";

/** The public catalog (CatalogService; the MCP discovery tools read the same service). */
export function catalogRoutes(assay: Assay) {
  return new Elysia()
    .get("/api/validations", ({ query }) => assay.catalog.list(readInput(ValidationListQuery, query, { query: true })))
    .get("/api/validations/:idOrSlug", ({ params }) => assay.catalog.get(params.idOrSlug))
    .get("/api/validation-sets", ({ query }) => assay.catalog.sets(readInput(SetListQuery, query, { query: true })))
    .get("/api/validation-sets/:setId", ({ params }) => assay.catalog.set(params.setId));
}
