/**
 * The one error catalog. `/api/errors`, `docs/errors.md`, OpenAPI error lists and MCP's
 * `explain_error` are all generated from this table; add a code to the table of its status family in
 * src/errors/codes/ and nowhere else.
 */
import type { ErrorEntry } from "./error-entry";
import { badRequest, contentTooLarge } from "./codes/request";
import { forbidden, unauthorized } from "./codes/access";
import { paymentRequired, tooManyRequests } from "./codes/limits";
import { conflict, notFound } from "./codes/not-found-and-conflict";
import { serverErrors } from "./codes/server";
import { unprocessable } from "./codes/unprocessable";

export type { ErrorEntry };

/** In HTTP status order, as /api/errors and docs/errors.md list them. */
const entries = [
  ...badRequest,
  ...unauthorized,
  ...paymentRequired,
  ...forbidden,
  ...notFound,
  ...conflict,
  ...contentTooLarge,
  ...unprocessable,
  ...tooManyRequests,
  ...serverErrors,
] as const;

export type ErrorCode = (typeof entries)[number]["code"];

export const errorCatalog: readonly ErrorEntry[] = entries;

const byCode = new Map<string, ErrorEntry>(entries.map((e) => [e.code, e]));

export function errorEntry(code: ErrorCode): ErrorEntry {
  return byCode.get(code)!;
}

/** Retryable 5xx codes: the same body may succeed later. */
export const retryableCodes: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "INTERNAL_ERROR",
  "BILLING_PROVIDER_UNREACHABLE",
  "EMAIL_CLIENT_CATALOG_UNAVAILABLE",
  "SERVICE_UNAVAILABLE",
]);
