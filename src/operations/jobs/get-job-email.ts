import { CustomerQuery } from "../../contracts/request-parts";
import { JobRef } from "../../contracts/job";
import { defineOperation } from "../operation";

export const getJobEmail = defineOperation({
  operationId: "getJobEmail",
  tag: "jobs",
  summary: "The raw message an email job received, as an .eml download",
  description:
    "The message exactly as the inbox received it (message/rfc822, as an attachment named <jobId>.eml). With a Bearer key (jobs:read) or a signed-in session. A webpage job, or an email job whose message has not arrived, holds none: 404 STORAGE_OBJECT_NOT_FOUND.",
  http: { method: "get", path: "/api/jobs/{jobId}/email", returns: "The raw message.", contentType: "message/rfc822" },
  auth: { kind: "key", scope: "jobs:read", session: true },
  input: { path: JobRef, query: CustomerQuery },
  errors: ["JOB_NOT_FOUND", "STORAGE_OBJECT_NOT_FOUND"],
  example: { jobId: "job_example" },
  handle: async (input, { services, customerId }) => {
    const { jobId, raw } = await services.jobs.receivedEmail(customerId, input.jobId);
    return new Response(raw as Uint8Array<ArrayBuffer>, {
      headers: {
        "content-type": "message/rfc822",
        "content-disposition": `attachment; filename="${jobId}.eml"`,
        "cache-control": "private, no-store",
      },
    });
  },
});
