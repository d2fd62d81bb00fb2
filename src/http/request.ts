import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import type { Scope } from "../domain/accounts";
import type { RequestMeta } from "../services/context";
import type { Principal } from "../services/accounts";
import { newRequestId } from "../services/ids";

const requestIds = new WeakMap<Request, string>();

/** One id per HTTP request: in the response header, error bodies, logs and event metadata. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) requestIds.set(request, (id = newRequestId()));
  return id;
}

export interface Authorized {
  principal: Principal;
  meta: RequestMeta;
  /** The organization this request acts for (see AccountService.resolveCustomer). */
  customer(customerId: unknown): string;
}

/**
 * Authenticates the Bearer key and checks its scope (AUTH_REQUIRED, then INSUFFICIENT_SCOPE); the
 * organization is resolved after, because a POST names it inside the body.
 */
export function authenticate(assay: Assay, request: Request, scope: Scope): Authorized {
  const principal = assay.accounts.authenticate(request.headers.get("authorization"));
  assay.accounts.requireScope(principal, scope);
  return {
    principal,
    meta: { requestId: requestIdOf(request), actor: { kind: "key", id: principal.key.keyId }, channel: "api" },
    customer: (customerId) => assay.accounts.resolveCustomer(principal, customerId),
  };
}

/** authenticate, then resolve the organization named in the query. */
export function authorize(assay: Assay, request: Request, scope: Scope, customerId?: unknown) {
  const auth = authenticate(assay, request, scope);
  return { customerId: auth.customer(customerId), meta: auth.meta };
}

/** The body as parsed JSON, refusing another content type or malformed JSON with INVALID_REQUEST_BODY. */
export function jsonBody(request: Request, body: unknown): unknown {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new AppError("INVALID_REQUEST_BODY", "Send the body as application/json.", { contentType: type || null });
  }
  try {
    return JSON.parse(typeof body === "string" ? body : "");
  } catch (e) {
    throw new AppError("INVALID_REQUEST_BODY", "The body is not valid JSON.", { parseError: (e as Error).message });
  }
}

export function publicMeta(request: Request): RequestMeta {
  return { requestId: requestIdOf(request), actor: { kind: "system" }, channel: "api" };
}

/** Reads an optional enum query parameter, refusing other values with INVALID_ENUM_VALUE. */
export function enumQuery<T extends string>(query: Record<string, string | undefined>, name: string, allowed: readonly T[]): T | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AppError("INVALID_ENUM_VALUE", `${name} must be one of ${allowed.join(", ")}.`, { field: name, value, allowedValues: allowed });
  }
  return value as T;
}
