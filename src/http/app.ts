import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { newRequestId } from "../services/ids";
import { catalogRoutes } from "./catalog-routes";
import { accountRoutes } from "./account-routes";
import { jobRoutes } from "./job-routes";
import { captureRoutes } from "./capture-routes";
import { emailClientRoutes } from "./email-client-routes";
import { feedbackRoutes } from "./feedback-routes";
import { agentRoutes } from "./agent-routes";
import { mcpRoutes } from "./mcp-routes";
import { requestIdOf } from "./request";

/** Request bodies above this are refused before parsing. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function createHttpApp(assay: Assay) {
  return new Elysia()
    .onParse(async ({ request }) => {
      const text = await request.text();
      if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
        throw new AppError("REQUEST_TOO_LARGE", `The body exceeds ${MAX_BODY_BYTES} bytes.`, { limitBytes: MAX_BODY_BYTES });
      }
      return text;
    })
    .onAfterHandle({ as: "global" }, ({ request, set }) => {
      set.headers["x-request-id"] = requestIdOf(request);
    })
    .onError({ as: "global" }, ({ code, error, set, request }) => {
      const requestId = request ? requestIdOf(request) : newRequestId();
      let appError: AppError;
      // Elysia wraps what the parse hook throws (REQUEST_TOO_LARGE) in its ParseError, as `cause`.
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof AppError) appError = error;
      else if (cause instanceof AppError) appError = cause;
      else if (code === "NOT_FOUND") {
        appError = new AppError("ROUTE_NOT_FOUND", `No route for ${request.method} ${new URL(request.url).pathname}.`);
      } else if (code === "PARSE") appError = new AppError("INVALID_REQUEST_BODY", "The body could not be read.");
      else {
        console.error(`[${requestId}] ${request.method} ${request.url}:`, error);
        appError = new AppError("INTERNAL_ERROR", "Something went wrong on our side.", undefined, undefined, true);
      }
      set.status = appError.status;
      set.headers["content-type"] = "application/json";
      set.headers["x-request-id"] = requestId;
      return appError.toBody(requestId);
    })
    .get("/healthz", () => ({ status: "ok" }))
    .get("/api/errors", () => assay.catalog.errors())
    .use(catalogRoutes(assay))
    .use(accountRoutes(assay))
    .use(jobRoutes(assay))
    .use(captureRoutes(assay))
    .use(emailClientRoutes(assay))
    .use(feedbackRoutes(assay))
    .use(agentRoutes(assay))
    .use(mcpRoutes(assay));
}
