import { Type } from "@sinclair/typebox";
import { Obj } from "../../contracts/schema-kit";
import { ProjectView } from "../../contracts/run-view";
import { customerId } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { plural, READ } from "../words";

const ProjectsQuery = Type.Object({ customerId: customerId() }, { additionalProperties: false });

export const listProjects = defineOperation({
  operationId: "listProjects",
  tag: "runs",
  summary: "Your projects, their base branch and baseline",
  description:
    "Each project (created by its first run): its base branch, its baseline run (set explicitly, or the latest completed run on the base branch, whichever came later), its latest run.",
  http: { method: "get", path: "/api/projects", returns: "The projects." },
  mcp: {
    name: "list_projects",
    title: "List projects",
    description:
      "The organization's projects with their base branch, baseline run and latest run. Same as GET /api/projects.",
    annotations: { title: "List projects", ...READ },
    summary: ({ projects }) => `${plural(projects.length, "project")}.`,
  },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { query: ProjectsQuery },
  output: Obj({ projects: Type.Array(ProjectView) }),
  errors: [],
  example: {},
  handle: (_input, { services, customerId }) => services.runs.projects(customerId),
});
