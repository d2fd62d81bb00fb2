import { Type } from "@sinclair/typebox";
import { Obj } from "../../contracts/schema-kit";
import { SetView, subjectTypeFilter } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const SetListQuery = Type.Object({ subjectType: subjectTypeFilter() }, { additionalProperties: false });

const SetList = Obj({ validationSets: Type.Array(SetView) });

export const listValidationSets = defineOperation({
  operationId: "listValidationSets",
  tag: "catalog",
  summary: "List validation sets",
  http: { method: "get", path: "/api/validation-sets", returns: "The sets." },
  mcp: {
    name: "list_validation_sets",
    title: "List validation sets",
    description:
      "Published validation sets: id, name, description, subject type, the job types they apply to, and their checks with severities. Same as GET /api/validation-sets.",
    annotations: { title: "List validation sets", ...READ },
    summary: (data) =>
      `${plural(data.validationSets.length, "set")}: ${data.validationSets.map((s) => s.id).join(", ") || "none"}.`,
  },
  auth: { kind: "public" },
  input: { query: SetListQuery },
  output: SetList,
  errors: [],
  example: { subjectType: "url" },
  handle: (input, { services }) => services.catalog.sets(input),
});
