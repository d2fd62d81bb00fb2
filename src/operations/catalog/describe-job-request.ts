import { DescribeJobRequestInput } from "../../contracts/inputs";
import { JobRequestDescription } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ } from "../words";

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
