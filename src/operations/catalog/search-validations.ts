import { Type } from "@sinclair/typebox";
import { Obj, Str } from "../../contracts/schema-kit";
import { catalogEntryFields, subjectTypeFilter } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const SearchValidationsInput = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 500,
      description: "Words to look for in ids, names, categories, summaries and judgments.",
    }),
    subjectType: subjectTypeFilter(),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, default: 10, description: "Most matches to return (default 10)." }),
    ),
  },
  { additionalProperties: false },
);

const SearchResult = Obj({
  query: Str(),
  matches: Type.Array(Obj({ ...catalogEntryFields, score: Type.Number(), matchedOn: Type.Array(Str()) })),
});

export const searchValidations = defineOperation({
  operationId: "searchValidations",
  tag: "catalog",
  summary: "Search validations by words, best first",
  mcp: {
    name: "search_validations",
    title: "Search validations",
    description:
      "Finds validations (checks) whose id, name, category, summary or judgment match your words, best first. Use it to find the exact check ids to put in a job.",
    annotations: { title: "Search validations", ...READ },
    summary: (data, args) =>
      `${plural(data.matches.length, "validation")} match ${JSON.stringify(args.query)}${data.matches.length ? `: ${data.matches.map((m) => m.id).join(", ")}` : ""}.`,
  },
  auth: { kind: "public" },
  input: { body: SearchValidationsInput },
  output: SearchResult,
  errors: [],
  example: { query: "title" },
  handle: (input, { services }) => services.catalog.search(input),
});
