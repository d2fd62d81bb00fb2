import { ErrorTable } from "../../contracts/errors";
import { defineOperation } from "../operation";

export const listErrors = defineOperation({
  operationId: "listErrors",
  tag: "catalog",
  summary: "Every error code with its HTTP status and guidance",
  http: { method: "get", path: "/api/errors", returns: "The error table." },
  auth: { kind: "public" },
  input: {},
  output: ErrorTable,
  errors: [],
  example: {},
  handle: (_input, { services }) => services.catalog.errors(),
});
