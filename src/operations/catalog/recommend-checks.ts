import { RecommendChecksInput } from "../../contracts/inputs";
import { Recommendation } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

export const recommendChecks = defineOperation({
  operationId: "recommendChecks",
  tag: "catalog",
  summary: "The set and checks for a plain-language goal",
  mcp: {
    name: "recommend_checks",
    title: "Recommend checks",
    description:
      "From a plain-language goal and a job type, the validation set and checks to run, each with why, the parameters to ask the user for, and a job body to start from. Deterministic keyword and category matching over the catalog.",
    annotations: { title: "Recommend checks", ...READ },
    summary: (data) =>
      `${data.validationSet ? `Set ${data.validationSet.id}` : "No set"} with ${plural(data.checks.length, "check")} (${data.estimatedCredits} credits). ${data.notes[0]}`,
  },
  auth: { kind: "public" },
  input: { body: RecommendChecksInput },
  output: Recommendation,
  errors: [],
  example: { goal: "check the page title", subjectType: "url" },
  handle: (input, { services }) => services.catalog.recommend(input),
});
