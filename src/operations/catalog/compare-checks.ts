import { Type } from "@sinclair/typebox";
import { Bool, Int, Obj, Str } from "../../contracts/schema-kit";
import { CaptureSize, catalogEntryFields } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ } from "../words";

const CompareChecksInput = Type.Object(
  {
    ids: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 2,
      maxItems: 10,
      description: "Two to ten validation ids or slugs to compare side by side.",
    }),
  },
  { additionalProperties: false },
);

const Comparison = Obj({
  validations: Type.Array(
    Obj({
      ...catalogEntryFields,
      judgment: Str(),
      validationSets: Type.Array(Str()),
      captureSizes: Type.Array(CaptureSize),
    }),
  ),
  differences: Type.Array(Str()),
  sharedSets: Type.Array(Str()),
  canRunTogether: Bool(),
  totalCredits: Int(),
});

export const compareChecks = defineOperation({
  operationId: "compareChecks",
  tag: "catalog",
  summary: "Two to ten validations side by side",
  mcp: {
    name: "compare_checks",
    title: "Compare checks",
    description:
      "Two to ten validations side by side: subject type, category, severity, kind, price, parameters, judgment and sets, with the fields that differ and whether they can run in one job.",
    annotations: { title: "Compare checks", ...READ },
    summary: (data) =>
      `${data.validations.map((v) => v.id).join(" vs ")}: ${data.differences.length ? `differ in ${data.differences.join(", ")}` : "same kind of check"}; ${data.canRunTogether ? "can" : "cannot"} run in one job.`,
  },
  auth: { kind: "public" },
  input: { body: CompareChecksInput },
  output: Comparison,
  errors: ["VALIDATION_NOT_FOUND"],
  example: { ids: ["page-title", "meta-description"] },
  handle: (input, { services }) => services.catalog.compare(input.ids),
});
