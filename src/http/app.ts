import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Services } from "../services/facade";
import { newRequestId } from "../services/ids";
import { MAX_BODY_BYTES } from "../contracts/limits";
import { operations } from "../operations";
import { isRoute } from "../operations/operation";
import { operationRoutes } from "./operation-routes";
import { agentRoutes } from "./agent-routes";
import { mcpRoutes } from "./mcp-routes";
import { devicePage } from "./pages/device";
import { dashboardPages } from "./pages/dashboard";
import { playgroundPages } from "./pages/playground";
import { catalogPages } from "./pages/catalog";
import { noteClientAddress, requestIdOf } from "./request";

/** The routes that take bodies larger than MAX_BODY_BYTES (a run's), by method and path: their own caps. */
const BODY_CAPS = new Map(
  operations
    .filter(isRoute)
    .filter((op) => op.http.maxBodyBytes !== undefined)
    .map((op) => [`${op.http.method.toUpperCase()} ${op.http.path}`, op.http.maxBodyBytes!]),
);

/** The liveness and readiness probes: answered without reading the log. */
const PROBES = new Set(["/healthz", "/readyz"]);

/** The HTTP app: the operations' routes, the agent documents and the MCP endpoint, with one error rendering. */
export function createHttpApp(services: Services) {
  return new Elysia()
    .onRequest(async ({ request, server }) => {
      noteClientAddress(request, server?.requestIP(request)?.address, services.config.trustForwardedFor);
      // Every answer reads the log as it stood when the request arrived, whichever node wrote it (PostgreSQL); the
      // probes answer without it, so a node whose database is away still says so.
      if (!PROBES.has(new URL(request.url).pathname)) await services.node.catchUp();
    })
    .onParse(async ({ request }) => {
      const text = await request.text();
      const cap = BODY_CAPS.get(`${request.method} ${new URL(request.url).pathname}`) ?? MAX_BODY_BYTES;
      if (Buffer.byteLength(text) > cap) {
        throw new AppError("REQUEST_TOO_LARGE", `The body exceeds ${cap} bytes.`, { limitBytes: cap });
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
      // A limit says when to come back (RFC 9110 §10.2.3), in the header as well as in details.
      const retryAfter = appError.details?.retryAfterSeconds;
      if (typeof retryAfter === "number") set.headers["retry-after"] = String(retryAfter);
      return appError.toBody(requestId);
    })
    .get("/healthz", () => services.node.health())
    .get("/readyz", async ({ set }) => {
      const readiness = await services.node.readiness();
      if (!readiness.ready) set.status = 503;
      return readiness;
    })
    .use(operationRoutes(services, operations))
    .use(agentRoutes(services))
    .use(mcpRoutes(services, operations))
    .use(devicePage(services))
    .use(dashboardPages({ services, operations }))
    .use(playgroundPages({ services, operations }))
    .use(catalogPages({ services, operations }));
}
