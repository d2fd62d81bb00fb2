import { CaptureShareQuery } from "../../contracts/inputs";
import { CaptureKeyParams } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { imageResponse } from "./image";

export const getSharedCapture = defineOperation({
  operationId: "getSharedCapture",
  tag: "jobs",
  summary: "A screenshot through its short-lived share link (screenshotShareUrl)",
  http: { method: "get", path: "/api/captures/{key}/shared", returns: "The image.", contentType: "image/jpeg" },
  auth: { kind: "public" },
  input: { path: CaptureKeyParams, query: CaptureShareQuery },
  errors: ["STORAGE_OBJECT_NOT_FOUND"],
  example: { key: "job_example-desktop-md.jpg", expires: "1", signature: "x" },
  handle: async (input, { services }) => {
    const { row, data } = await services.captures.readShared(input.key, input.expires ?? "", input.signature ?? "");
    return imageResponse(row, data, "private, no-store");
  },
});
