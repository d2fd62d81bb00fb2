import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import { AppError } from "../errors/app-error";

/**
 * How TypeBox's errors become catalogued refusals, for every input (readInput) and for the job request
 * (planJob's steps 8-10): wrong types first, then an out-of-range enum value, then a missing field.
 */

/** A TypeBox error and the field it is reported at, e.g. `validations[0].severity`. */
export interface FieldError {
  path: string;
  error: ValueError;
}

export interface SortedFieldErrors {
  /** Wrongly typed values; the caller words the refusal (INVALID_REQUEST_BODY with every problem). */
  typeErrors: FieldError[];
  /** The first string outside its enum (a schema built with enumOf), as INVALID_ENUM_VALUE. */
  invalidEnum?: AppError;
  /** The first absent required field, as MISSING_REQUIRED_FIELD. */
  missing?: AppError;
}

export function sortFieldErrors(errors: FieldError[]): SortedFieldErrors {
  const enumValues = (e: ValueError) => (e.schema as { "x-enum"?: readonly string[] })["x-enum"];
  const isEnum = (e: ValueError) => !!enumValues(e) && typeof e.value === "string";
  const isMissing = (e: ValueError) => e.type === ValueErrorType.ObjectRequiredProperty;
  // TypeBox also reports an absent required property as a type error on its undefined value; the missing error speaks for it.
  const isAbsent = (path: string, e: ValueError) =>
    e.value === undefined && errors.some((o) => o.path === path && isMissing(o.error));
  // TypeBox reports each failed member of an enum union too; the union's own error speaks for them.
  const isUnionChild = (e: ValueError) =>
    e.type === ValueErrorType.Literal &&
    errors.some((o) => o.error !== e && o.error.path === e.path && o.error.type === ValueErrorType.Union);
  const enumError = errors.find(({ error }) => isEnum(error));
  const missing = errors.find(({ error }) => isMissing(error));
  return {
    typeErrors: errors.filter(
      ({ path, error }) => !isEnum(error) && !isMissing(error) && !isAbsent(path, error) && !isUnionChild(error),
    ),
    ...(enumError
      ? {
          invalidEnum: new AppError(
            "INVALID_ENUM_VALUE",
            `${enumError.path} must be one of ${enumValues(enumError.error)!.join(", ")}.`,
            {
              field: enumError.path,
              value: enumError.error.value,
              allowedValues: enumValues(enumError.error),
            },
          ),
        }
      : {}),
    ...(missing
      ? { missing: new AppError("MISSING_REQUIRED_FIELD", `${missing.path} is required.`, { field: missing.path }) }
      : {}),
  };
}

/** A JSON pointer as a field path: `/validations/0/severity` is `validations[0].severity`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .filter(Boolean)
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join("");
}
