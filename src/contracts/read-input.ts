import type { Static, TObject } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import { pointerToPath, sortFieldErrors } from "./field-errors";

export interface ReadOptions {
  /** Query strings: values arrive as strings (converted by the schema) and unknown parameters are ignored. */
  query?: boolean;
}

/**
 * Validates input against an operation's request schema (HTTP query strings and bodies, MCP tool arguments) with
 * the catalogued codes, in the job request's order: not an object (INVALID_REQUEST_BODY), UNKNOWN_FIELD, wrong
 * types (INVALID_REQUEST_BODY with problems), INVALID_ENUM_VALUE, MISSING_REQUIRED_FIELD. A field whose schema
 * names an `x-invalid-code` is refused with that code instead of INVALID_REQUEST_BODY (signup's email:
 * SIGNUP_INVALID_EMAIL, whatever its type). The job request itself is read by the planner (src/domain/job-request.ts).
 */
export function readInput<T extends TObject>(schema: T, raw: unknown, opts: ReadOptions = {}): Static<T> {
  if (raw === undefined) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new AppError("INVALID_REQUEST_BODY", "Expected a JSON object.");
  let value = { ...(raw as Record<string, unknown>) };
  const known = new Set(Object.keys(schema.properties));
  const unknownFields = Object.keys(value).filter((k) => !known.has(k));
  if (unknownFields.length) {
    if (!opts.query)
      throw new AppError("UNKNOWN_FIELD", `Unknown field(s): ${unknownFields.join(", ")}.`, { unknownFields });
    for (const k of unknownFields) delete value[k];
  }
  if (opts.query) value = Value.Convert(schema, value) as Record<string, unknown>;
  const { typeErrors, invalidEnum, missing } = sortFieldErrors(
    [...Value.Errors(schema, value)].map((error) => ({ path: pointerToPath(error.path), error })),
  );
  if (typeErrors.length) {
    const first = typeErrors[0]!;
    const own = (first.error.schema as { "x-invalid-code"?: ErrorCode })["x-invalid-code"];
    if (own) throw new AppError(own, `${first.path} is not valid: ${first.error.message}.`, { field: first.path });
    throw new AppError("INVALID_REQUEST_BODY", `${first.path || "input"}: ${first.error.message}.`, {
      problems: typeErrors.map(({ path, error }) => ({ path, message: error.message })),
    });
  }
  if (invalidEnum) throw invalidEnum;
  if (missing) throw missing;
  return value as Static<T>;
}
