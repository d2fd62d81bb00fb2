import { Type } from "@sinclair/typebox";
import { PlaygroundRun } from "../../contracts/playground";
import { defineOperation } from "../operation";

const PlaygroundRunRef = Type.Object({ runId: Type.String({ minLength: 1, description: "The run's id (pgr_…)." }) });

export const getPlaygroundRun = defineOperation({
  operationId: "getPlaygroundRun",
  tag: "playground",
  summary: "A playground run, while it is kept",
  description:
    "Anyone holding the run id may read it; after expiresAt (or once newer runs pushed it out) it is PLAYGROUND_RUN_NOT_FOUND.",
  http: { method: "get", path: "/api/playground/runs/{runId}", returns: "The run." },
  auth: { kind: "public" },
  input: { path: PlaygroundRunRef },
  output: PlaygroundRun,
  errors: ["PLAYGROUND_RUN_NOT_FOUND"],
  example: { runId: "pgr_example" },
  handle: (input, { services }) => services.playground.get(input.runId),
});
