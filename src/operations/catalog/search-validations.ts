import { SearchValidationsInput } from "../../contracts/inputs";
import { SearchResult } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

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
