import { Type } from "@sinclair/typebox";
import { ProjectView } from "../../contracts/run-view";
import { ProjectName } from "../../contracts/run-request";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";

const ProjectRef = Type.Object({ project: ProjectName });
const BaselineBody = Type.Object(
  {
    runId: Type.String({ minLength: 1, description: "A finished run (completed or interrupted) of this project." }),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

export const setBaseline = defineOperation({
  operationId: "setBaseline",
  tag: "runs",
  summary: "Make a run the project's baseline",
  description:
    "The run becomes the baseline the project's next runs are compared with (BaselineSet), until a run on the base branch completes after it.",
  http: { method: "post", path: "/api/projects/{project}/baseline", returns: "The project." },
  mcp: {
    name: "set_baseline",
    title: "Set a project's baseline",
    description:
      "Makes a finished run the baseline its project's next runs are compared with (until a run on the base branch completes after it). Same as POST /api/projects/{project}/baseline.",
    annotations: {
      title: "Set a project's baseline",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    summary: (project) => `Project ${project.project}'s baseline is now run ${project.baselineRunId}.`,
  },
  auth: { kind: "key", scope: "jobs:write", session: true },
  input: { path: ProjectRef, body: BaselineBody, form: true },
  output: ProjectView,
  errors: ["RUN_NOT_FOUND", "RUN_STILL_RUNNING"],
  example: { project: "example-site", runId: "run_example" },
  handle: (input, { services, customerId, meta }) =>
    services.runs.setBaseline(customerId, input.project, input.runId, meta),
});
