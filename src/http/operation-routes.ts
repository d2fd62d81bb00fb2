import { Elysia } from "elysia";
import { readInput } from "../contracts/inputs";
import { customerIdOf } from "../operations/authorize";
import { openCall, type SessionCredentials } from "../operations/call";
import { sessionSecretOf } from "../operations/session-cookie";
import { WithContent, isRoute, type Operation } from "../operations/operation";
import type { Services } from "../services/facade";
import { jsonBody, requestIdOf } from "./request";

type Query = Record<string, string | undefined>;

/** Elysia's path syntax for an OpenAPI path: {key} becomes :key. */
const elysiaPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

const isForm = (request: Request) => /^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "");

/** The input of an HTTP call: path, then query, then body, each read with its schema (a raw body is only parsed). */
function readHttpInput(op: Operation, request: Request, params: Record<string, string>, query: Query, body: unknown): unknown {
  const { path, query: querySchema, body: bodySchema, rawBody, form } = op.input;
  if (rawBody) return jsonBody(request, body);
  const fields = () => (form && isForm(request) ? Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : "")) : jsonBody(request, body));
  return {
    ...(path ? readInput(path, params) : {}),
    ...(querySchema ? readInput(querySchema, query, { query: true }) : {}),
    ...(bodySchema ? readInput(bodySchema, fields()) : {}),
  };
}

/** A session operation's credentials: the cookie, and the CSRF token from the header or a form's _csrf field. */
function sessionCredentials(request: Request, body: unknown): SessionCredentials {
  const form = isForm(request) && typeof body === "string";
  return {
    secret: sessionSecretOf(request.headers.get("cookie")),
    csrfToken: request.headers.get("x-csrf-token") ?? (form ? new URLSearchParams(body).get("_csrf") : null),
    stateChanging: request.method !== "GET" && request.method !== "HEAD",
  };
}

/**
 * The /api routes: one per operation with an HTTP method and path. A key operation checks the key and its
 * scope before reading the input, then the organization the input names, as it always has; a session
 * operation (or a key operation open to sessions, called with a session cookie and no key) signs in (session
 * cookie, CSRF token) before reading the input.
 */
export function operationRoutes(services: Services, operations: readonly Operation[]) {
  const app = new Elysia();
  for (const op of operations.filter(isRoute)) {
    app.route(op.http.method.toUpperCase(), elysiaPath(op.http.path), async ({ request, params, query, body, set }) => {
      // A key operation open to sessions takes one when the request has a session cookie and no key.
      const bySession =
        op.auth.kind === "session" ||
        (op.auth.kind === "key" && !!op.auth.session && !request.headers.get("authorization") && !!sessionSecretOf(request.headers.get("cookie")));
      const call = openCall(op, {
        services,
        operations,
        requestId: requestIdOf(request),
        channel: "api",
        authorization: request.headers.get("authorization"),
        cookie: request.headers.get("cookie"),
        ...(bySession ? { session: sessionCredentials(request, body) } : {}),
      });
      const read = () => readHttpInput(op, request, params as Record<string, string>, query as Query, body);
      let input: unknown;
      if (op.auth.kind === "key" && !bySession) call.authorize(() => customerIdOf((input = read()), query));
      else {
        if (bySession) call.signIn();
        input = read();
      }
      const output = await op.handle(input, call);
      if (output instanceof Response) return output;
      set.status = op.http.status ?? 200;
      return output instanceof WithContent ? output.data : output;
    });
  }
  return app;
}
