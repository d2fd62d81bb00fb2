import { Type } from "@sinclair/typebox";
import { JobRef, Job, detail } from "../../contracts/job";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { READ } from "../words";
import { jobSummary } from "./job-summary";

/** GET /api/jobs/{jobId}'s query (with the path's jobId, get_job's arguments). */
const GetJobQuery = Type.Object({ detail: detail(), customerId: customerId() }, { additionalProperties: false });

export const getJob = defineOperation({
  operationId: "getJob",
  tag: "jobs",
  summary: "One job with its status and results",
  description:
    "The job, bare (not wrapped): its status, results, the decision (overallPassPolicy: blockedByRequired and blockedByProhibited, booleans; the ids under blockingRequired and blockingProhibited) and its checks by set with their hosted severities. Poll it until status is no longer pending or running. Same as GET /api/jobs?jobId=… (which answers a page of one).",
  http: { method: "get", path: "/api/jobs/{jobId}", returns: "The job." },
  mcp: {
    name: "get_job",
    title: "Get a job",
    description: "One job with its status, results and decision (overallPassPolicy). Same as GET /api/jobs/{jobId}.",
    annotations: { title: "Get a job", ...READ },
    summary: (data) => jobSummary(data),
  },
  auth: { kind: "key", scope: "jobs:read" },
  input: { path: JobRef, query: GetJobQuery },
  output: Job,
  errors: ["JOB_NOT_FOUND"],
  example: { jobId: "job_example" },
  handle: (input, { services, customerId }) => services.jobs.get(customerId, input.jobId, input.detail),
});
