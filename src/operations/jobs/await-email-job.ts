import { AWAIT_MAX_SECONDS, AwaitEmailJobInput } from "../../contracts/inputs";
import { AwaitedJob } from "../../contracts/outputs";
import { defineOperation } from "../operation";
import { READ } from "../words";
import { jobSummary } from "./job-summary";

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
      if (!stillPending || Date.now() >= deadline || signal?.aborted) return { job, stillPending, waitedMs: Date.now() - started };
      await Bun.sleep(Math.min(200, Math.max(0, deadline - Date.now())));
      // The message may reach another node's inbox: read the log as it is now before looking again.
      await services.node.catchUp();
    }
  },
});
