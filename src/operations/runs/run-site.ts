import { RunRequest } from "../../contracts/run-request";
import { RunView } from "../../contracts/run-view";
import { MAX_RUN_BODY_BYTES } from "../../contracts/limits";
import { JOB_ADMISSION_ERRORS } from "../words";
import { defineOperation } from "../operation";
import { runSummary } from "./run-summary";

export const runSite = defineOperation({
  operationId: "runSite",
  tag: "runs",
  summary: "Check a whole site or campaign as one run",
  description:
    "Each page is a job request (url, static_html or email), planned, priced and charged as its own job; the run is refused whole when one page would be (details.pageIndex) or when the balance cannot pay for every page (INSUFFICIENT_CREDITS, details.required: the run's total). Answers 202 with the run running, or with wait: true 200 once every page has settled. When every page has settled the run is judged against the project's baseline (comparison) under failOn.",
  http: {
    method: "post",
    path: "/api/runs",
    status: 202,
    returns: "The run, running: poll GET /api/runs/{runId} until its status is completed or interrupted.",
    otherSuccess: {
      status: 200,
      returns: "The run, every page settled (wait: true).",
      when: (run) => run.status !== "running",
    },
    maxBodyBytes: MAX_RUN_BODY_BYTES,
    longRunning: true,
  },
  mcp: {
    name: "run_site",
    title: "Check a whole site",
    description:
      "Checks a project's pages (each a job request: url, static_html or email, with an optional name) as one run and compares it with the project's baseline run; spends credits per page like run_job (errored rows are refunded). Answers at once with the run running and each email page's testEmail; call get_run until its status is completed or interrupted. failOn: new blocks only on failures the baseline did not have; ignores accept known failures with a reason. Same as POST /api/runs.",
    annotations: {
      title: "Check a whole site",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    summary: (run) => runSummary(run),
  },
  auth: { kind: "key", scope: "jobs:write" },
  input: { body: RunRequest, rawBody: true },
  output: RunView,
  errors: [...JOB_ADMISSION_ERRORS, "RUN_TOO_MANY_PAGES", "RUN_DUPLICATE_PAGE"],
  example: {
    project: "example-site",
    branch: "main",
    pages: [
      {
        type: "static_html",
        html: '<!doctype html><html lang="en"><head><title>Walking boots | Trailhead</title></head><body><h1>Walking boots</h1></body></html>',
        baseUrl: "https://example.com/boots",
        validations: ["page-title"],
      },
    ],
    failOn: "new",
  },
  handle: (body, { services, customerId, meta, signal }) =>
    services.runs.start(customerId, body, meta, { mayWait: meta.channel !== "mcp", signal }),
});
