import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { operations } from "../../src/operations";
import { isRoute, isTool, type Operation } from "../../src/operations/operation";
import { ErrorBodySchema } from "../../src/contracts/errors";

/**
 * Every body the tests receive is checked against what its operation declares: a 2xx JSON body against the
 * operation's output schema, an error body against the error schema. A mismatch throws, failing the test that
 * made the call, so the documentation (OpenAPI, tools/list) cannot drift from what the services answer.
 */

const routes = operations.filter(isRoute).map((op) => ({
  op,
  pattern: new RegExp(`^${op.http.path.replace(/\{\w+\}/g, "[^/]+")}$`),
}));

function routeOf(method: string, pathname: string): Operation | undefined {
  return routes.find((r) => r.op.http.method === method.toLowerCase() && r.pattern.test(pathname))?.op;
}

function check(schema: TSchema, body: unknown, what: string): void {
  if (Value.Check(schema, body)) return;
  const problems = [...Value.Errors(schema, body)].slice(0, 5).map((e) => `${e.path || "/"}: ${e.message}`);
  throw new Error(
    `${what}: the body does not match its declared schema:\n  ${problems.join("\n  ")}\n${JSON.stringify(body).slice(0, 500)}`,
  );
}

/** Checks one HTTP response body (parsed JSON, or text when it was not JSON). */
export function checkHttpBody(method: string, url: string, status: number, body: unknown): void {
  const pathname = new URL(url, "http://x").pathname;
  if (status >= 400) {
    if (typeof body === "object" && body !== null && "code" in body)
      check(ErrorBodySchema, body, `${method} ${pathname} ${status}`);
    return;
  }
  const op = routeOf(method, pathname);
  if (op?.output && status >= 200 && status < 300) check(op.output, body, `${method} ${pathname} (${op.operationId})`);
}

/** Checks one MCP tool result's structuredContent: the tool's output schema, or the error schema for a refusal. */
export function checkToolResult(name: string, result: { isError?: boolean; structuredContent?: unknown }): void {
  if (result.isError) {
    check(ErrorBodySchema, result.structuredContent, `tool ${name} (refused)`);
    return;
  }
  const op = operations.filter(isTool).find((o) => o.mcp.name === name);
  if (op?.output) check(op.output, result.structuredContent, `tool ${name}`);
}
