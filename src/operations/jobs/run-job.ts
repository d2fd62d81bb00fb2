import { JobRequest } from "../../contracts/job-request";
import { Job } from "../../contracts/job";
import { JOB_ADMISSION_ERRORS } from "../words";
import { defineOperation } from "../operation";
import { jobSummary } from "./job-summary";
import { STATIC_HTML_EXAMPLE } from "./examples";

/**
 * A dashboard form's fields as a job body: the subject its type names (url; html and its page URL; an email's
 * expected subject) and the set chosen; an empty field is left out, so the planner answers for it as for JSON.
 */
function jobFromForm(fields: URLSearchParams): Record<string, unknown> {
  const given = (name: string) => {
    const value = fields.get(name)?.trim();
    return value ? { [name]: name === "html" ? fields.get(name)! : value } : {};
  };
  const type = fields.get("type") ?? "";
  const subject =
    type === "url"
      ? given("url")
      : type === "static_html"
        ? { ...given("html"), ...given("baseUrl") }
        : type === "email"
          ? given("subject")
          : {};
  return { ...(type ? { type } : {}), ...subject, ...given("validationSetId") };
}

export const runJob = defineOperation({
  operationId: "runJob",
  tag: "jobs",
  summary: "Run a job",
  description:
    "url and static_html jobs answer with their results; email jobs answer pending with testEmail. Poll GET /api/jobs?jobId=… until status is no longer pending.",
  http: { method: "post", path: "/api/jobs", returns: "The job." },
  mcp: {
    name: "run_job",
    title: "Run a job",
    description:
      "Runs a job and spends credits (errored rows are refunded). url and static_html jobs answer with every result (pass, fail with the reason to fix, or error: the check could not run, not a verdict); email jobs answer pending with a one-time testEmail address: have the real message sent there, then call await_email_job. Same as POST /api/jobs.",
    annotations: {
      title: "Run a job",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    summary: (data) => jobSummary(data),
  },
  auth: { kind: "key", scope: "jobs:write", session: true },
  input: { body: JobRequest, rawBody: true, form: jobFromForm },
  output: Job,
  errors: [...JOB_ADMISSION_ERRORS, "JOB_EXECUTION_FAILED"],
  example: STATIC_HTML_EXAMPLE,
  handle: async (body, { services, customerId, meta }) => services.jobs.run(customerId, body, meta),
});
