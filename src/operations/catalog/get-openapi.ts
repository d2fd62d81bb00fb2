import { Type } from "@sinclair/typebox";
import { AnyJson, Dict, Obj, Str } from "../../contracts/schema-kit";
import { openApiDocument } from "../openapi";
import { defineOperation } from "../operation";

const OpenApiDocument = Obj(
  {
    openapi: Type.Literal("3.1.0"),
    info: Obj({ title: Str(), version: Str(), summary: Str(), description: Str() }),
    servers: Type.Array(Obj({ url: Str() })),
    externalDocs: Obj({ description: Str(), url: Str() }),
    tags: Type.Array(Obj({ name: Str(), description: Str() })),
    paths: Dict(Dict(AnyJson())),
    components: Obj({ schemas: Dict(AnyJson()), securitySchemes: Dict(AnyJson()) }),
  },
  "An OpenAPI 3.1 document.",
);

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
