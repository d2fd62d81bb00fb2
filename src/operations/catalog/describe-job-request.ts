import { Type } from "@sinclair/typebox";
import { Dict, Obj, Opt, Str } from "../../contracts/schema-kit";
import { enumOf, JOB_TYPES } from "../../contracts/job-request";
import { CaptureSize, JobBody } from "../../contracts/catalog";
import { defineOperation } from "../operation";
import { READ } from "../words";

const DescribeJobRequestInput = Type.Object(
  { type: Type.Optional(enumOf(JOB_TYPES, "Only this job type's example; omit for all three.")) },
  { additionalProperties: false },
);

const JobExamples = Obj({ minimal: JobBody, withParameters: Opt(JobBody), parametersNote: Opt(Str()) });

const JobRequestDescription = Obj({
  schema: Type.Unknown({ description: "The job request's JSON Schema." }),
  fields: Type.Array(Obj({ field: Str(), required: Str(), description: Str() })),
  examples: Dict(JobExamples),
  rules: Type.Array(Str()),
  captureSizes: Type.Array(CaptureSize),
  emailJobs: Str(),
});

export const describeJobRequest = defineOperation({
  operationId: "describeJobRequest",
  tag: "catalog",
  summary: "The job request: schema, fields, rules and examples",
  mcp: {
    name: "describe_job_request",
    title: "Describe the job request",
    description:
      "The job body that estimate_job, run_job, check_job_request and POST /api/jobs take: its JSON Schema, each field in words, the rules, and a valid example per job type (url, static_html, email).",
    annotations: { title: "Describe the job request", ...READ },
    summary: (_data, args) =>
      `The job request${args.type ? ` for ${args.type} jobs` : ""}: set type, one subject, and validations and/or one validationSetId. Examples in examples.`,
  },
  auth: { kind: "public" },
  input: { body: DescribeJobRequestInput },
  output: JobRequestDescription,
  errors: [],
  example: { type: "url" },
  handle: (input, { services }) => services.catalog.describeJobRequest(input.type),
});
