import { Elysia } from "elysia";
import { readInput } from "../contracts/inputs";
import { customerIdOf } from "../operations/authorize";
import { openCall } from "../operations/call";
import { WithContent, isRoute, type Operation } from "../operations/operation";
import type { Services } from "../services/facade";
import { jsonBody, requestIdOf } from "./request";

type Query = Record<string, string | undefined>;

/** Elysia's path syntax for an OpenAPI path: {key} becomes :key. */
const elysiaPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

/** The input of an HTTP call: path, then query, then body, each read with its schema (a raw body is only parsed). */
function readHttpInput(op: Operation, request: Request, params: Record<string, string>, query: Query, body: unknown): unknown {
  const { path, query: querySchema, body: bodySchema, rawBody } = op.input;
  if (rawBody) return jsonBody(request, body);
  return {
    ...(path ? readInput(path, params) : {}),
    ...(querySchema ? readInput(querySchema, query, { query: true }) : {}),
    ...(bodySchema ? readInput(bodySchema, jsonBody(request, body)) : {}),
  };
}

/**
 * The /api routes: one per operation with an HTTP method and path. A key operation checks the key and its
 * scope before reading the input, then the organization the input names, as it always has.
 */
export function operationRoutes(services: Services, operations: readonly Operation[]) {
  const app = new Elysia();
  for (const op of operations.filter(isRoute)) {
    app.route(op.http.method.toUpperCase(), elysiaPath(op.http.path), async ({ request, params, query, body, set }) => {
      const call = openCall(op, { services, operations, requestId: requestIdOf(request), channel: "api", authorization: request.headers.get("authorization") });
      const read = () => readHttpInput(op, request, params as Record<string, string>, query as Query, body);
      let input: unknown;
      if (op.auth.kind === "key") call.authorize(() => customerIdOf((input = read()), query));
      else input = read();
      const output = await op.handle(input, call);
      if (output instanceof Response) return output;
      set.status = op.http.status ?? 200;
      return output instanceof WithContent ? output.data : output;
    });
  }
  return app;
}
