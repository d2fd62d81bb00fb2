import { Type } from "@sinclair/typebox";
import { detail } from "../../contracts/job";
import { RunView } from "../../contracts/run-view";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { READ } from "../words";
import { runSummary } from "./run-summary";

/** GET /api/runs/{runId}'s path. */
export const RunRef = Type.Object({ runId: Type.String({ minLength: 1, description: "The run's id (run_…)." }) });

const GetRunQuery = Type.Object({ detail: detail(), customerId: customerId() }, { additionalProperties: false });

export const getRun = defineOperation({
  operationId: "getRun",
  tag: "runs",
  summary: "One run with its pages, decision and comparison",
  description:
    "The run: its status, each page's job id, status, decision and failures (accepted ones marked), totals, the decision under failOn, and the comparison with its baseline (null until it completes, or without a baseline). detail=verbose adds each page's whole job.",
  http: { method: "get", path: "/api/runs/{runId}", returns: "The run." },
  mcp: {
    name: "get_run",
    title: "Get a run",
    description:
      "One run with its pages, decision and comparison with the baseline. Poll it after run_site until status is completed or interrupted. Same as GET /api/runs/{runId}.",
    annotations: { title: "Get a run", ...READ },
    summary: (run) => runSummary(run),
  },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { path: RunRef, query: GetRunQuery },
  output: RunView,
  errors: ["RUN_NOT_FOUND"],
  example: { runId: "run_example" },
  handle: (input, { services, customerId }) => services.runs.get(customerId, input.runId, input.detail),
});
