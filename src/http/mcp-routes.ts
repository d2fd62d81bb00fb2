import { Elysia } from "elysia";
import type { Services } from "../services/facade";
import type { Operation } from "../operations/operation";
import { handleMcp } from "../mcp/server";
import { clientAddressOf, requestIdOf } from "./request";

/** Longest a /mcp request may stay open (await_email_job waits up to 120 s; run_job on a slow page up to about a minute). */
const MCP_IDLE_TIMEOUT_SECONDS = 200;

/** The MCP tool server: streamable HTTP, stateless, JSON responses (src/mcp). */
export function mcpRoutes(services: Services, operations: readonly Operation[]) {
  return new Elysia().all("/mcp", ({ request, body, server }) => {
    // Bun closes a connection idle for 10 s by default; a tool call may legitimately take longer.
    server?.timeout(request, MCP_IDLE_TIMEOUT_SECONDS);
    return handleMcp(services, operations, request, body, requestIdOf(request), clientAddressOf(request));
  });
}
