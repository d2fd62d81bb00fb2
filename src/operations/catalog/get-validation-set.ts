import { Type } from "@sinclair/typebox";
import { SetView } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const SetRef = Type.Object(
  { setId: Type.String({ minLength: 1, description: "A validation set id, e.g. web-essentials." }) },
  { additionalProperties: false },
);

export const getValidationSet = defineOperation({
  operationId: "getValidationSet",
  tag: "catalog",
  summary: "Get a validation set",
  http: { method: "get", path: "/api/validation-sets/{setId}", returns: "The set." },
  mcp: {
    name: "get_validation_set",
    title: "Get a validation set",
    description: "One validation set with its checks and their severities. Same as GET /api/validation-sets/{setId}.",
    annotations: { title: "Get a validation set", ...READ },
    summary: (data) =>
      `${data.id} (${data.subjectType}): ${plural(data.validationIds.length, "check")}. ${data.description}`,
  },
  auth: { kind: "public" },
  input: { path: SetRef },
  output: SetView,
  errors: ["VALIDATION_SET_NOT_FOUND"],
  example: { setId: "web-essentials" },
  handle: (input, { services }) => services.catalog.set(input.setId),
});
