import { JobListQuery } from "../../contracts/inputs";
import { JobPage } from "../../contracts/outputs";
import { AppError } from "../../errors/app-error";
import { defineOperation } from "../operation";

export const listJobs = defineOperation({
  operationId: "listJobs",
  tag: "jobs",
  summary: "Your jobs, newest first, with results; poll email jobs here",
  description: "With a Bearer key (jobs:read), or a signed-in session instead (the dashboard): the organization's jobs, newest first.",
  http: { method: "get", path: "/api/jobs", returns: "A page of jobs." },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { query: JobListQuery },
  output: JobPage,
  errors: ["JOB_NOT_FOUND"],
  example: { limit: 5 },
  handle: (input, { services, customerId }) => {
    const page = services.jobs.list(customerId, input);
    // Asked for one job by id: none is an answer only when that job is unknown here.
    if (input.jobId && page.jobs.length === 0) throw new AppError("JOB_NOT_FOUND", `No job ${input.jobId} in this organization.`, { jobId: input.jobId });
    return { jobs: page.jobs, nextCursor: page.nextCursor };
  },
});
