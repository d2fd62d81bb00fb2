import { Type } from "@sinclair/typebox";
import { defineOperation } from "../operation";
import { imageResponse } from "../captures/image";

const PlaygroundScreenshotRef = Type.Object({
  runId: Type.String({ minLength: 1, description: "The run's id (pgr_…)." }),
  size: Type.String({ description: "The capture size the run was shown at (its screenshotUrl names it)." }),
});

export const getPlaygroundScreenshot = defineOperation({
  operationId: "getPlaygroundScreenshot",
  tag: "playground",
  summary: "A playground run's screenshot (its screenshotUrl)",
  description:
    "Kept as long as the run: PLAYGROUND_RUN_NOT_FOUND once the run is gone, STORAGE_OBJECT_NOT_FOUND for a size the run was not shown at.",
  http: {
    method: "get",
    path: "/api/playground/runs/{runId}/screenshots/{size}",
    returns: "The image.",
    contentType: "image/jpeg",
  },
  auth: { kind: "public" },
  input: { path: PlaygroundScreenshotRef },
  errors: ["PLAYGROUND_RUN_NOT_FOUND", "STORAGE_OBJECT_NOT_FOUND"],
  example: { runId: "pgr_example", size: "desktop-md" },
  handle: (input, { services }) => {
    const shot = services.playground.screenshot(input.runId, input.size);
    // The run's id is unguessable and its screenshot never changes; it is gone when the run is.
    return imageResponse(shot, shot.data, "private, max-age=3600");
  },
});
