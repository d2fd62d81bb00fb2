import { GetJobInput } from "../../contracts/inputs";
import { Job } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ } from "../words";
import { jobSummary } from "./job-summary";

export const getJob = defineOperation({
  operationId: "getJob",
  tag: "jobs",
  summary: "One job with its status and results",
  mcp: {
    name: "get_job",
    title: "Get a job",
    description: "One job with its status and results. Same as GET /api/jobs?jobId=….",
    annotations: { title: "Get a job", ...READ },
    summary: (data) => jobSummary(data),
  },
  auth: { kind: "key", scope: "jobs:read" },
  input: { body: GetJobInput },
  output: Job,
  errors: ["JOB_NOT_FOUND"],
  example: { jobId: "job_example" },
  handle: (input, { services, customerId }) => services.jobs.get(customerId, input.jobId, input.detail),
});
