import { Type } from "@sinclair/typebox";
import { Nullable, Obj, Str } from "../../contracts/schema-kit";
import { RunBrief } from "../../contracts/run-view";
import { ProjectName } from "../../contracts/run-request";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { plural, READ } from "../words";

const RunListQuery = Type.Object(
  {
    project: Type.Optional(ProjectName),
    branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Only runs of this branch." })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "Page size (1-100, default 20)." }),
    ),
    cursor: Type.Optional(Type.String({ description: "nextCursor of the previous page." })),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

const RunPage = Obj({ runs: Type.Array(RunBrief), nextCursor: Nullable(Str()) });

export const listRuns = defineOperation({
  operationId: "listRuns",
  tag: "runs",
  summary: "Your runs, newest first",
  description: "The organization's runs, newest first, without their pages: of one project and branch when named.",
  http: { method: "get", path: "/api/runs", returns: "A page of runs." },
  mcp: {
    name: "list_runs",
    title: "List runs",
    description:
      "The organization's runs, newest first (of one project and branch when named), each with its status, decision, totals and comparison counts. Same as GET /api/runs.",
    annotations: { title: "List runs", ...READ },
    summary: ({ runs, nextCursor }) =>
      `${plural(runs.length, "run")}${runs[0] ? `, the newest ${runs[0].runId} (${runs[0].status}, ${runs[0].decision})` : ""}.${nextCursor ? " More with nextCursor." : ""}`,
  },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { query: RunListQuery },
  output: RunPage,
  errors: [],
  example: { project: "example-site", limit: 5 },
  handle: (input, { services, customerId }) => services.runs.list(customerId, input),
});
