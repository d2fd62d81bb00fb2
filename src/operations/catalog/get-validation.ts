import { Type } from "@sinclair/typebox";
import { Obj, Opt, Str } from "../../contracts/schema-kit";
import { CaptureSize, catalogEntryFields, JobBody, Reference } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ } from "../words";

const ValidationRef = Type.Object(
  { idOrSlug: Type.String({ minLength: 1, description: "A validation id or slug, e.g. page-title." }) },
  { additionalProperties: false },
);

const ValidationDetail = Obj(
  {
    ...catalogEntryFields,
    judgment: Str(),
    validationSets: Type.Array(Str()),
    references: Type.Array(Reference),
    capture: Obj({
      offered: Type.Array(CaptureSize),
      standard: Type.Array(CaptureSize),
      engines: Opt(
        Type.Array(Str(), {
          description:
            "The browser engines a job may render this check in (a validation entry's engines); absent: Chromium only.",
        }),
      ),
    }),
    agentJobSnippet: JobBody,
    links: Obj({ self: Str(), standard: Str(), custom: Opt(Str()) }),
  },
  "A validation's detail record.",
);

export const getValidation = defineOperation({
  operationId: "getValidation",
  tag: "catalog",
  summary: "Get a validation (judgment, parameters, sets, references, job snippet)",
  http: { method: "get", path: "/api/validations/{idOrSlug}", returns: "The validation's detail record." },
  mcp: {
    name: "get_validation",
    title: "Get a validation",
    description:
      "One validation's full record: what pass and fail mean (judgment), parameters with formats and examples, sets it belongs to, references, capture sizes, price and a job snippet. Same as GET /api/validations/{idOrSlug}.",
    annotations: { title: "Get a validation", ...READ },
    summary: (data) =>
      `${data.id}: ${data.summary}${data.requiresConfiguration ? " Needs parameters (ask the user for their values)." : ""}`,
  },
  auth: { kind: "public" },
  input: { path: ValidationRef },
  output: ValidationDetail,
  errors: ["VALIDATION_NOT_FOUND"],
  example: { idOrSlug: "page-title" },
  handle: (input, { services }) => services.catalog.get(input.idOrSlug),
});
