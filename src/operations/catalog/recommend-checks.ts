import { Type } from "@sinclair/typebox";
import { Bool, Int, Nullable, Obj, Opt, Str } from "../../contracts/schema-kit";
import { enumOf, JOB_TYPES } from "../../contracts/job-request";
import { ExecutionKind, JobBody, JobType, SubjectType } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ, plural } from "../words";

const RecommendChecksInput = Type.Object(
  {
    goal: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'What the user wants checked, in plain language, e.g. "make sure the landing page works on phones and has no broken links".',
    }),
    subjectType: enumOf(JOB_TYPES, "The job type the checks will run on: url, static_html or email."),
  },
  { additionalProperties: false },
);

const Recommendation = Obj({
  goal: Str(),
  jobType: JobType,
  subjectType: SubjectType,
  validationSet: Nullable(Obj({ id: Str(), name: Str(), why: Str() })),
  checks: Type.Array(
    Obj({
      id: Str(),
      name: Str(),
      category: Str(),
      executionKind: ExecutionKind,
      credits: Int(),
      inSet: Bool(),
      requiresConfiguration: Bool(),
      why: Str(),
      askUserFor: Opt(Type.Array(Obj({ parameter: Str(), description: Str(), format: Str() }))),
    }),
  ),
  estimatedCredits: Int(),
  jobRequest: JobBody,
  notes: Type.Array(Str()),
});

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
