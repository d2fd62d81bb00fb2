import { AppError } from "../../errors/app-error";
import type { Operation } from "../../operations/operation";
import { WithContent } from "../../operations/operation";
import { sessionSecretOf } from "../../operations/session-cookie";
import type { Services } from "../../services/facade";
import type { SessionPrincipal } from "../../services/sessions";
import { invokeOperation, type Query } from "../operation-routes";

/**
 * What every server-rendered page shares: the session a cookie names, operations called as the dashboard
 * (the same declarations, validation, errors and events as /api, on the channel "dashboard"), and the
 * answers a page gives (HTML, a redirect after a form, a redirect to sign in).
 */

export interface PageContext {
  services: Services;
  operations: readonly Operation[];
}

/** The signed-in session a cookie names, or null (any problem reads as signed out). */
export function sessionOrNull(services: Services, request: Request): SessionPrincipal | null {
  try {
    return services.sessions.authenticate(sessionSecretOf(request.headers.get("cookie")));
  } catch (e) {
    if (e instanceof AppError && e.code === "AUTH_REQUIRED") return null;
    throw e;
  }
}

/** An operation by its id; a page naming one that is not declared is a bug, caught by the page tests. */
export function operationOf(ctx: PageContext, operationId: string): Operation {
  const op = ctx.operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
}

/**
 * Calls an operation for a page with the request's session: a page's GET passes the input as `query`/`params`,
 * a form's POST passes the form as `body` (its _csrf field is the CSRF token). Errors are the operation's AppErrors.
 */
export async function callOperation<T = any>(
  ctx: PageContext,
  operationId: string,
  request: Request,
  input: { params?: Record<string, string>; query?: Query; body?: unknown } = {},
): Promise<T> {
  const output = await invokeOperation(ctx.services, ctx.operations, operationOf(ctx, operationId), {
    request,
    params: input.params ?? {},
    query: input.query ?? {},
    body: input.body,
    channel: "dashboard",
  });
  return (output instanceof WithContent ? output.data : output) as T;
}

const NO_STORE = { "cache-control": "no-store" };

/** A rendered page. Pages with a session are never cached. */
export const htmlPage = (html: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", ...NO_STORE, ...headers } });

/** A refusal's Retry-After header, when it says when to come back (a limit), as the API's answer has it. */
export function retryAfterOf(e: AppError): Record<string, string> {
  const retryAfter = e.details?.retryAfterSeconds;
  return typeof retryAfter === "number" ? { "retry-after": String(retryAfter) } : {};
}

/** The answer to a form that worked: see the page again (Post/Redirect/Get), with a fixed notice named by `done`. */
export const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { location, ...NO_STORE, ...headers } });

/** The path and query a request asked for: where sign-in brings the person back. */
export const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

/** Signed out: the sign-in page, which brings the person back to `next`. */
export const signInFirst = (next: string) => seeOther(`/signin?next=${encodeURIComponent(next)}`);

/** A form's fields (application/x-www-form-urlencoded), as Elysia hands the body over: a string. */
export const formOf = (body: unknown) => new URLSearchParams(typeof body === "string" ? body : "");
