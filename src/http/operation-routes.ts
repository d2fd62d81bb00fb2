import { Elysia } from "elysia";
import type { TObject, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { readInput } from "../contracts/read-input";
import { customerIdOf } from "../operations/authorize";
import { openCall, type SessionCredentials } from "../operations/call";
import { sessionSecretOf } from "../operations/session-cookie";
import { WithContent, isRoute, type Operation } from "../operations/operation";
import type { Services } from "../services/facade";
import { clientAddressOf, jsonBody, requestIdOf } from "./request";

export type Query = Record<string, string | undefined>;

/** Elysia's path syntax for an OpenAPI path: {key} becomes :key. */
const elysiaPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

const isForm = (request: Request) =>
  /^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "");

/**
 * A form's fields as the body schema reads them: a field the schema holds as an array takes every value sent
 * under its name (checkboxes), numbers and booleans are converted, and the CSRF token (_csrf) is the session's
 * credential, not input.
 */
function formFields(schema: TObject, body: unknown): Record<string, unknown> {
  const form = new URLSearchParams(typeof body === "string" ? body : "");
  const fields: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    if (name === "_csrf") continue;
    fields[name] =
      (schema.properties[name] as TSchema | undefined)?.type === "array" ? form.getAll(name) : form.get(name);
  }
  return Value.Convert(schema, fields) as Record<string, unknown>;
}

/**
 * The input of an HTTP call: path, then query, then body, each read with its schema (a raw body is only parsed).
 * A form is read from a browser (a page's form, signed in or not), never from a key's caller: it sends JSON, and a
 * form sent with a key is the wrong content type, as the spec has it.
 */
function readHttpInput(
  op: Operation,
  request: Request,
  params: Record<string, string>,
  query: Query,
  body: unknown,
  byKey: boolean,
): unknown {
  const { path, query: querySchema, body: bodySchema, rawBody } = op.input;
  const form = byKey ? undefined : op.input.form;
  /** A form mapped by the operation's own function (its _csrf field is a credential, not input). */
  const mapped = (map: (fields: URLSearchParams) => Record<string, unknown>) => {
    const sent = new URLSearchParams(typeof body === "string" ? body : "");
    sent.delete("_csrf");
    return map(sent);
  };
  // A raw body is only parsed (the handler validates it), from JSON or, where the operation maps one, a form.
  if (rawBody) return typeof form === "function" && isForm(request) ? mapped(form) : jsonBody(request, body);
  const fields = () => {
    if (!form || !isForm(request) || !bodySchema) return jsonBody(request, body);
    if (form === true) return formFields(bodySchema, body);
    return mapped(form);
  };
  return {
    ...(path ? readInput(path, params) : {}),
    ...(querySchema ? readInput(querySchema, query, { query: true }) : {}),
    ...(bodySchema ? readInput(bodySchema, fields()) : {}),
  };
}

/** A session operation's credentials: the cookie, and the CSRF token from the header or a form's _csrf field. */
function sessionCredentials(op: Operation, request: Request, body: unknown): SessionCredentials {
  const form = isForm(request) && typeof body === "string";
  return {
    secret: sessionSecretOf(request.headers.get("cookie")),
    csrfToken: request.headers.get("x-csrf-token") ?? (form ? new URLSearchParams(body).get("_csrf") : null),
    // The operation decides, not the request: a page answering a form also reads (a GET operation) to show the result.
    stateChanging: op.http?.method !== "get",
  };
}

/** What an HTTP request brings to one operation. */
export interface HttpCall {
  request: Request;
  params: Record<string, string>;
  query: Query;
  body: unknown;
  /** api for /api routes; dashboard for the pages, which call the same operations with a session. */
  channel: "api" | "dashboard";
}

/**
 * One operation called over HTTP. A key operation checks the key and its scope before reading the input, then
 * the organization the input names; a session operation (or a key operation open to sessions, called with a
 * session cookie and no key) signs in (session cookie, CSRF token) before reading the input.
 */
export async function invokeOperation(
  services: Services,
  operations: readonly Operation[],
  op: Operation,
  http: HttpCall,
): Promise<unknown> {
  const { request, params, query, body, channel } = http;
  // A key operation open to sessions takes one when the request has a session cookie and no key.
  const bySession =
    op.auth.kind === "session" ||
    (op.auth.kind === "key" &&
      !!op.auth.session &&
      !request.headers.get("authorization") &&
      !!sessionSecretOf(request.headers.get("cookie")));
  const call = openCall(op, {
    services,
    operations,
    requestId: requestIdOf(request),
    channel,
    authorization: request.headers.get("authorization"),
    cookie: request.headers.get("cookie"),
    clientAddress: clientAddressOf(request),
    ...(bySession ? { session: sessionCredentials(op, request, body) } : {}),
  });
  const read = () => readHttpInput(op, request, params, query, body, op.auth.kind === "key" && !bySession);
  let input: unknown;
  if (op.auth.kind === "key" && !bySession) call.authorize(() => customerIdOf((input = read()), query));
  else {
    if (bySession) call.signIn();
    input = read();
    // A key operation a session calls acts for the session's organization: naming another is refused as for a key.
    if (bySession && op.auth.kind === "key")
      services.accounts.resolveCustomer(call.session!, customerIdOf(input, query));
  }
  return op.handle(input, call);
}

/** The /api routes: one per operation with an HTTP method and path. */
export function operationRoutes(services: Services, operations: readonly Operation[]) {
  const app = new Elysia();
  for (const op of operations.filter(isRoute)) {
    app.route(
      op.http.method.toUpperCase(),
      elysiaPath(op.http.path),
      async ({ request, params, query, body, set, server }) => {
        // Bun closes a connection whose answer has not come within 10 s; a run that waits for its pages takes longer.
        if (op.http.longRunning) server?.timeout(request, 0);
        const output = await invokeOperation(services, operations, op, {
          request,
          params: params as Record<string, string>,
          query: query as Query,
          body,
          channel: "api",
        });
        if (output instanceof Response) return output;
        const data = output instanceof WithContent ? output.data : output;
        set.status = op.http.otherSuccess?.when(data) ? op.http.otherSuccess.status : (op.http.status ?? 200);
        return data;
      },
    );
  }
  return app;
}
