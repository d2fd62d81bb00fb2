import { Type } from "@sinclair/typebox";
import { ProjectView } from "../../contracts/run-view";
import { ProjectName } from "../../contracts/run-request";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";

const ProjectRef = Type.Object({ project: ProjectName });
const ProjectSettings = Type.Object(
  {
    baseBranch: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The branch whose latest completed run is the project's baseline (default main).",
    }),
    customerId: customerId(),
  },
  { additionalProperties: false },
);

export const configureProject = defineOperation({
  operationId: "configureProject",
  tag: "runs",
  summary: "Set a project's base branch",
  description:
    "The branch whose latest completed run is the project's baseline (ProjectConfigured). A project that has no run yet is created, so its base branch can be set before its first run.",
  http: { method: "patch", path: "/api/projects/{project}", returns: "The project." },
  auth: { kind: "key", scope: "jobs:write", session: true },
  input: { path: ProjectRef, body: ProjectSettings },
  output: ProjectView,
  errors: [],
  example: { project: "example-site", baseBranch: "main" },
  handle: (input, { services, customerId, meta }) =>
    services.runs.configureProject(customerId, input.project, input.baseBranch, meta),
});
