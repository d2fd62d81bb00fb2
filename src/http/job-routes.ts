import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { JobListQuery, readInput } from "../contracts/inputs";
import { authenticate, jsonBody } from "./request";

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
      const auth = authenticate(assay, request, "jobs:read");
      const q = readInput(JobListQuery, query, { query: true });
      const result = assay.jobs.list(auth.customer(q.customerId), q);
      if (q.jobId && result.jobs.length === 0) {
        throw new AppError("JOB_NOT_FOUND", `No job ${q.jobId} in this organization.`, { jobId: q.jobId });
      }
      return result;
    });
}
