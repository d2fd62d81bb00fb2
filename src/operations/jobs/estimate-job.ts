import { JobRequest } from "../../contracts/job-request";
import { Quote } from "../../contracts/job";
import { JOB_REQUEST_ERRORS } from "../../domain/job-request";
import { PLAN_GATE_ERRORS } from "../../domain/plan-gate";
import { defineOperation } from "../operation";
import { plural, PLAN_RESOLUTION_ERRORS } from "../words";
import { STATIC_HTML_EXAMPLE } from "./examples";

export const estimateJob = defineOperation({
  operationId: "estimateJob",
  tag: "jobs",
  summary: "Price a job body; validates like a run, charges nothing",
  http: { method: "post", path: "/api/jobs/estimate", returns: "The quote." },
  mcp: {
    name: "estimate_job",
    title: "Estimate a job",
    description:
      "The price of a job body in credits, one line per check, with your balance and whether it suffices. Validates exactly as run_job does; charges nothing and creates nothing. Same as POST /api/jobs/estimate.",
    annotations: {
      title: "Estimate a job",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    },
    summary: (data) =>
      `${data.totalCredits} credits for ${plural(data.lines.length, "check")}; balance ${data.balance}${data.sufficient ? "" : `, short by ${data.shortfall}`}.`,
  },
  auth: { kind: "key", scope: "jobs:write" },
  input: { body: JobRequest, rawBody: true },
  output: Quote,
  errors: [...PLAN_RESOLUTION_ERRORS, ...JOB_REQUEST_ERRORS, ...PLAN_GATE_ERRORS, "EMAIL_CLIENT_CATALOG_UNAVAILABLE"],
  example: STATIC_HTML_EXAMPLE,
  handle: (body, { services, customerId }) => services.quotes.estimate(customerId, body),
});
