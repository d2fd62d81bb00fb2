import { OpenApiDocument } from "../../contracts/outputs";
import { openApiDocument } from "../openapi";
import { defineOperation } from "../operation";

export const getOpenApi = defineOperation({
  operationId: "getOpenApi",
  tag: "catalog",
  summary: "This document",
  http: { method: "get", path: "/api/openapi.json", returns: "OpenAPI 3.1." },
  auth: { kind: "public" },
  input: {},
  output: OpenApiDocument,
  errors: [],
  example: {},
  handle: (_input, { services, operations }) => openApiDocument(operations, services.config.publicBaseUrl),
});
