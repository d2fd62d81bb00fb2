import { Type } from "@sinclair/typebox";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { enumOf } from "../../contracts/job-request";
import { detail, Job, JOB_STATUSES } from "../../contracts/job";
import { customerId } from "../../contracts/request-parts";
import { AppError } from "../../errors/app-error";
import { defineOperation } from "../operation";

const JobListQuery = Type.Object(
  {
    jobId: Type.Optional(
      Type.String({ description: "Only this job (an unknown id, or another organization's, is JOB_NOT_FOUND)." }),
    ),
    status: Type.Optional(enumOf(JOB_STATUSES, "Only jobs in this status.")),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "Page size (1-100, default 20)." }),
    ),
    cursor: Type.Optional(Type.String({ description: "nextCursor of the previous page." })),
    detail: detail(),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const JobPage = Obj({ jobs: Type.Array(Job), nextCursor: Nullable(Str()) });

export const listJobs = defineOperation({
  operationId: "listJobs",
  tag: "jobs",
  summary: "Your jobs, newest first, with results; poll email jobs here",
  description:
    "With a Bearer key (jobs:read), or a signed-in session instead (the dashboard): the organization's jobs, newest first.",
  http: { method: "get", path: "/api/jobs", returns: "A page of jobs." },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { query: JobListQuery },
  output: JobPage,
  errors: ["JOB_NOT_FOUND"],
  example: { limit: 5 },
  handle: (input, { services, customerId }) => {
    const page = services.jobs.list(customerId, input);
    // Asked for one job by id: none is an answer only when that job is unknown here.
    if (input.jobId && page.jobs.length === 0)
      throw new AppError("JOB_NOT_FOUND", `No job ${input.jobId} in this organization.`, { jobId: input.jobId });
    return { jobs: page.jobs, nextCursor: page.nextCursor };
  },
});
