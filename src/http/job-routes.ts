import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { DETAILS } from "../contracts/job-request";
import { authenticate, authorize, enumQuery, jsonBody } from "./request";

const customerIdIn = (body: unknown, query: Record<string, string | undefined>) =>
  (body && typeof body === "object" && "customerId" in body ? (body as { customerId: unknown }).customerId : undefined) ?? query.customerId;

export function jobRoutes(assay: Assay) {
  return new Elysia()
    .post("/api/jobs/estimate", async ({ request, body, query }) => {
      const auth = authenticate(assay, request, "jobs:write");
      const parsed = jsonBody(request, body);
      return assay.jobs.estimate(auth.customer(customerIdIn(parsed, query)), parsed);
    })
    .post("/api/jobs", async ({ request, body, query }) => {
      const auth = authenticate(assay, request, "jobs:write");
      const parsed = jsonBody(request, body);
      return assay.jobs.run(auth.customer(customerIdIn(parsed, query)), parsed, auth.meta);
    })
    .get("/api/jobs", ({ request, query }) => {
      const { customerId } = authorize(assay, request, "jobs:read", query.customerId);
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100)) {
        throw new AppError("INVALID_REQUEST_BODY", "limit must be a whole number from 1 to 100.", { field: "limit" });
      }
      const result = assay.jobs.list(customerId, {
        jobId: query.jobId,
        status: enumQuery(query, "status", ["pending", "running", "completed", "interrupted", "expired"] as const),
        limit,
        cursor: query.cursor,
        detail: enumQuery(query, "detail", DETAILS),
      });
      if (query.jobId && result.jobs.length === 0) {
        throw new AppError("JOB_NOT_FOUND", `No job ${query.jobId} in this organization.`, { jobId: query.jobId });
      }
      return result;
    });
}
