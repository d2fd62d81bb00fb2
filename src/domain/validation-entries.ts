import { Value } from "@sinclair/typebox/value";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { TSchema } from "@sinclair/typebox";
import { AppError } from "../errors/app-error";
import { JobRequest, ValidationEntry } from "../contracts/job-request";
import { pointerToPath, type FieldError } from "../contracts/field-errors";
import { findValidation } from "../catalog/registry";
import { canonicalJson } from "../store/canonical";
import type { AnySeverity } from "./pass-policy";
import type { RenderEngine } from "../capture/vocabulary";

/**
 * The job request's validations[] as the planner reads them (./job-request.ts): each entry, an id or an object, as
 * one shape with the path it came from, and the rules on entries (types, duplicates, one parameter map, parameter
 * values).
 */

interface EntryConfig {
  severity?: AnySeverity;
  parameters?: Record<string, unknown>;
  clients?: Record<string, string[]>;
  engines?: RenderEngine[];
}
export interface NormalisedEntry {
  id: string;
  path: string;
  config: EntryConfig;
}

export function normaliseEntries(raw: unknown[]): NormalisedEntry[] {
  return raw.map((v, i) => {
    const path = `validations[${i}]`;
    if (typeof v === "string") return { id: v, path, config: {} };
    const { id, ...config } = v as { id: string } & EntryConfig;
    return { id, path, config };
  });
}

/** Every TypeBox error of the body's known fields, validation entries one by one; step 21 owns clients. */
export function fieldErrors(b: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(b)) {
    if (key === "validations" && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (typeof item === "string") return;
        if (item === null || typeof item !== "object" || Array.isArray(item)) {
          errors.push({
            path: `validations[${i}]`,
            error: syntheticError(item, "Expected a validation id string or an entry object"),
          });
          return;
        }
        for (const error of Value.Errors(ValidationEntry, item)) {
          if (error.path.startsWith("/clients")) continue;
          errors.push({ path: pointerToPath(`/validations/${i}${error.path}`), error });
        }
      });
      continue;
    }
    const schema = (JobRequest.properties as Record<string, TSchema>)[key];
    if (!schema) continue;
    for (const error of Value.Errors(schema, value))
      errors.push({ path: pointerToPath(`/${key}${error.path}`), error });
  }
  return errors;
}

function syntheticError(value: unknown, message: string): ValueError {
  return { type: ValueErrorType.Object, schema: {} as TSchema, path: "", value, message, errors: [] };
}

/** Each validation once: identical duplicates collapse, a second entry that configures it differently is refused. */
export function uniqueEntries(entries: NormalisedEntry[]): NormalisedEntry[] {
  const byId = new Map<string, NormalisedEntry>();
  for (const e of entries) {
    const seen = byId.get(e.id);
    if (!seen) byId.set(e.id, e);
    else if (canonicalJson(seen.config) !== canonicalJson(e.config)) {
      throw new AppError("DUPLICATE_VALIDATION", `${e.id} is listed twice with different configuration.`, {
        path: e.path,
        firstPath: seen.path,
        validationId: e.id,
      });
    }
  }
  return [...byId.values()];
}

/** The job's one flat parameter map (name -> value, and the entry that gave it); two different values of one name are refused. */
export function parameterMap(unique: NormalisedEntry[]): Map<string, { value: unknown; path: string }> {
  const parameters = new Map<string, { value: unknown; path: string }>();
  for (const e of unique) {
    for (const [name, value] of Object.entries(e.config.parameters ?? {})) {
      const prior = parameters.get(name);
      if (prior && canonicalJson(prior.value) !== canonicalJson(value)) {
        throw new AppError("CONFLICTING_PARAMETERS", `Parameter ${name} has two different values in this job.`, {
          path: e.path,
          parameter: name,
          firstPath: prior.path,
        });
      }
      parameters.set(name, { value, path: e.path });
    }
  }
  return parameters;
}

/** Every parameter an entry gives is one its validation declares, in that parameter's format. */
export function checkParameterValues(unique: NormalisedEntry[]): void {
  for (const e of unique) {
    const m = findValidation(e.id)!;
    for (const [name, value] of Object.entries(e.config.parameters ?? {})) {
      const spec = m.meta.parameters.find((p) => p.name === name);
      if (!spec) {
        throw new AppError("INVALID_PARAMETER_VALUE", `${e.id} has no parameter ${name}.`, {
          path: `${e.path}.parameters.${name}`,
          validationId: e.id,
          parameter: name,
          allowedParameters: m.meta.parameters.map((p) => p.name),
        });
      }
      if (!Value.Check(spec.schema, value)) {
        throw new AppError("INVALID_PARAMETER_VALUE", `Parameter ${name} of ${e.id} must be ${spec.format}.`, {
          path: `${e.path}.parameters.${name}`,
          validationId: e.id,
          parameter: name,
          expected: spec.format,
          problems: problemsOf(spec.schema, value),
        });
      }
    }
  }
}

function problemsOf(schema: TSchema, value: unknown) {
  return [...Value.Errors(schema, value)].slice(0, 5).map((e) => ({ path: e.path || "/", message: e.message }));
}
