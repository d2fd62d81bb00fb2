import { Type } from "@sinclair/typebox";
import { Bool, Int, Obj } from "../../contracts/schema-kit";
import { detail, Job } from "../../contracts/job";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { READ } from "../words";
import { jobSummary } from "./job-summary";

const AWAIT_MAX_SECONDS = 120;

const AwaitEmailJobInput = Type.Object(
  {
    jobId: Type.String({ minLength: 1, description: "The email job's jobId." }),
    timeoutSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: AWAIT_MAX_SECONDS,
        default: 30,
        description: `How long to wait for the job to leave pending (1-${AWAIT_MAX_SECONDS}, default 30). Keep it under your client's request timeout; call again to keep waiting.`,
      }),
    ),
    detail: detail(),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const AwaitedJob = Obj({ job: Job, stillPending: Bool(), waitedMs: Int() });

export const awaitEmailJob = defineOperation({
  operationId: "awaitEmailJob",
  tag: "jobs",
  summary: "Wait until an email job is no longer pending",
  mcp: {
    name: "await_email_job",
    title: "Wait for an email job",
    description: `Waits until an email job is no longer pending (the message arrived and was checked, or the window expired), at most timeoutSeconds (default 30, at most ${AWAIT_MAX_SECONDS}); answers the job either way, with stillPending true if it timed out: then call again. Reads only.`,
    annotations: { title: "Wait for an email job", ...READ },
    summary: ({ job, stillPending, waitedMs }) =>
      stillPending
        ? `Job ${job.jobId} is still pending after ${Math.round(waitedMs / 1000)} s: has the message been sent to ${job.testEmail}? Call await_email_job again to keep waiting.`
        : jobSummary(job),
  },
  auth: { kind: "key", scope: "jobs:read" },
  input: { body: AwaitEmailJobInput },
  output: AwaitedJob,
  errors: ["JOB_NOT_FOUND"],
  example: { jobId: "job_example", timeoutSeconds: 1 },
  async handle(input, { services, customerId, signal }) {
    const started = Date.now();
    const deadline = started + (input.timeoutSeconds ?? 30) * 1000;
    for (;;) {
      const job = services.jobs.get(customerId, input.jobId, input.detail);
      const stillPending = job.status === "pending";
      if (!stillPending || Date.now() >= deadline || signal?.aborted)
        return { job, stillPending, waitedMs: Date.now() - started };
      await Bun.sleep(Math.min(200, Math.max(0, deadline - Date.now())));
      // The message may reach another node's inbox: read the log as it is now before looking again.
      await services.node.catchUp();
    }
  },
});
