import { Type } from "@sinclair/typebox";
import { CaptureKeyParams } from "../../contracts/request-parts";
import { defineOperation } from "../operation";
import { imageResponse } from "./image";

const CaptureShareQuery = Type.Object(
  {
    // Optional in the schema: a link without them is refused like any invalid link (STORAGE_OBJECT_NOT_FOUND).
    expires: Type.Optional(Type.String({ description: "Expiry, Unix seconds, as signed." })),
    signature: Type.Optional(Type.String({ description: "The link's HMAC signature." })),
  },
  { additionalProperties: false },
);

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
