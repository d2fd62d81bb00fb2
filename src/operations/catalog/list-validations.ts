import { Type } from "@sinclair/typebox";
import { Obj } from "../../contracts/schema-kit";
import { enumOf } from "../../contracts/job-request";
import { CatalogEntry, subjectTypeFilter } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const ValidationListQuery = Type.Object(
  {
    include: Type.Optional(
      enumOf(["parameters"] as const, "parameters: add each validation's parameters (name, format, schema, example)."),
    ),
    subjectType: subjectTypeFilter(),
  },
  { additionalProperties: false },
);

const ValidationList = Obj({ validations: Type.Array(CatalogEntry) });

export const listValidations = defineOperation({
  operationId: "listValidations",
  tag: "catalog",
  summary: "List validations",
  http: { method: "get", path: "/api/validations", returns: "The catalog." },
  mcp: {
    name: "list_validations",
    title: "List validations",
    description:
      "The whole validation catalog: id, name, subject type, category, severity, execution kind (functional or visual), price in credits, and whether it needs parameters. include=parameters adds each check's parameters. Same as GET /api/validations.",
    annotations: { title: "List validations", ...READ },
    summary: (data, args) =>
      `${plural(data.validations.length, "validation")}${args.subjectType ? ` for ${args.subjectType} subjects` : ""}.`,
  },
  auth: { kind: "public" },
  input: { query: ValidationListQuery },
  output: ValidationList,
  errors: [],
  example: { include: "parameters" },
  handle: (input, { services }) => services.catalog.list(input),
});
