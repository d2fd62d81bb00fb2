import { CaptureKeyParams, CustomerQuery } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { imageResponse } from "./image";

export const getCapture = defineOperation({
  operationId: "getCapture",
  tag: "jobs",
  summary: "A screenshot (a result's screenshotUrl)",
  description:
    "With the owner's Bearer key (jobs:read), or a signed-in session of the owning organization (the dashboard's images). Another organization's capture is answered as a missing one.",
  http: { method: "get", path: "/api/captures/{key}", returns: "The image.", contentType: "image/jpeg" },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { path: CaptureKeyParams, query: CustomerQuery },
  errors: ["STORAGE_OBJECT_NOT_FOUND"],
  example: { key: "job_example-desktop-md.jpg" },
  handle: async (input, { services, customerId }) => {
    const { row, data } = await services.captures.read(customerId, input.key);
    return imageResponse(row, data, "private, max-age=31536000, immutable");
  },
});
