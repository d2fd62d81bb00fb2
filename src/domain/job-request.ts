import { Value } from "@sinclair/typebox/value";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { TSchema } from "@sinclair/typebox";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import { JobRequest, JOB_TYPES, ValidationEntry } from "../contracts/job-request";
import { findValidation } from "../catalog/registry";
import { findSet } from "../catalog/sets";
import { EMAIL_CLIENTS, findEmailClient, renderCredits } from "../catalog/email-clients";
import { CAPTURE_SIZES, type CaptureSize, type Severity, type ValidationModule } from "../validations/types";
import type { NetworkGuard } from "../capture/network-guard";
import { canonicalJson } from "../store/canonical";

export type JobType = (typeof JOB_TYPES)[number];

export interface PlannedValidation {
  module: ValidationModule;
  severity: Severity;
  parameters: Record<string, unknown>;
  credits: number;
  fromSet: boolean;
  clients?: Record<string, string[]>;
}

export interface SkippedValidation {
  validationId: string;
  reason: "REQUIRES_CONFIGURATION";
  message: string;
}

/** A job request that passed every check: what to run, what was skipped, and on what subject. */
export interface PlannedJob {
  type: JobType;
  url?: string;
  html?: string;
  baseUrl?: string;
  emailSubject?: string;
  validationSetId?: string;
  run: PlannedValidation[];
  skipped: SkippedValidation[];
  captureSizes?: CaptureSize[];
  detail: "brief" | "verbose";
  totalCredits: number;
}

/** Old field names and where they went in the unified request; sent back in LEGACY_REQUEST_SHAPE's details.hint. */
const LEGACY_HINT = {
  lines: "Send one job per line: each line's url or html becomes the top-level url or html, with a top-level type.",
  subjectType: "type",
  targetUrl: "url",
  target: "url",
  checks: "validations",
  validationIds: "validations",
  setId: "validationSetId",
  suite: "validationSetId",
};

const TOP_LEVEL_FIELDS = new Set(Object.keys(JobRequest.properties));
const SUBJECT_FIELDS = ["url", "html"] as const;

const bad = (message: string, details?: Record<string, unknown>) => new AppError("INVALID_REQUEST_BODY", message, details);

/** Every refusal planJob can give, in its order. */
export const JOB_REQUEST_ERRORS: ErrorCode[] = [
  "INVALID_REQUEST_BODY",
  "LEGACY_REQUEST_SHAPE",
  "UNKNOWN_FIELD",
  "VALIDATION_TYPE_UNSUPPORTED",
  "ONE_VALIDATION_SET_PER_JOB",
  "VALIDATION_SET_CONFLICT",
  "JOB_ACCEPTS_ONE_SUBJECT",
  "INVALID_ENUM_VALUE",
  "MISSING_REQUIRED_FIELD",
  "INVALID_CAPTURE_SIZE",
  "JOB_SUBJECT_REQUIRED",
  "NO_VALIDATIONS_SELECTED",
  "VALIDATION_SET_NOT_FOUND",
  "VALIDATION_SET_SUBJECT_MISMATCH",
  "VALIDATION_SUBJECT_MISMATCH",
  "VALIDATION_NOT_RUNNABLE",
  "DUPLICATE_VALIDATION",
  "CONFLICTING_PARAMETERS",
  "INVALID_PARAMETER_VALUE",
  "EMPTY_CLIENT_SELECTION",
  "INVALID_CLIENT_SELECTION",
  "CLIENT_SELECTION_RENDERLESS_CHECK",
  "CLIENT_SELECTION_NOT_IN_JOB",
  "UNKNOWN_EMAIL_CLIENT",
  "PLAYGROUND_INVALID_URL",
];

/**
 * Validates a job body completely, in this documented order, before anything is priced:
 *  1 body is a JSON object (INVALID_REQUEST_BODY)   2 LEGACY_REQUEST_SHAPE   3 UNKNOWN_FIELD
 *  4 VALIDATION_TYPE_UNSUPPORTED   5 ONE_VALIDATION_SET_PER_JOB   6 VALIDATION_SET_CONFLICT
 *  7 JOB_ACCEPTS_ONE_SUBJECT   8 INVALID_REQUEST_BODY (field types)   9 INVALID_ENUM_VALUE
 * 10 MISSING_REQUIRED_FIELD   11 INVALID_CAPTURE_SIZE   12 JOB_SUBJECT_REQUIRED   13 NO_VALIDATIONS_SELECTED
 * 14 VALIDATION_SET_NOT_FOUND   15 VALIDATION_SET_SUBJECT_MISMATCH   16 VALIDATION_SUBJECT_MISMATCH
 * 17 VALIDATION_NOT_RUNNABLE   18 DUPLICATE_VALIDATION   19 CONFLICTING_PARAMETERS   20 INVALID_PARAMETER_VALUE
 * 21 clients, per entry: EMPTY_CLIENT_SELECTION, INVALID_CLIENT_SELECTION (shape), CLIENT_SELECTION_RENDERLESS_CHECK
 *    (a functional check), CLIENT_SELECTION_NOT_IN_JOB (a visual check the job skips), INVALID_CLIENT_SELECTION
 *    (a webpage visual check: clients are for email validations), UNKNOWN_EMAIL_CLIENT (an id not in the render
 *    catalog for that form factor: src/catalog/email-clients.ts)
 * 22 PLAYGROUND_INVALID_URL (the only step that may use DNS)
 */
export async function planJob(body: unknown, guard: NetworkGuard): Promise<PlannedJob> {
  // 1
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw bad("The job request must be a JSON object.");
  }
  const b = body as Record<string, unknown>;
  // 2
  if (!("type" in b) || "lines" in b) {
    const legacy = Object.keys(b).filter((k) => k in LEGACY_HINT);
    throw new AppError(
      "LEGACY_REQUEST_SHAPE",
      "Send the unified job request: a top-level type (url, static_html or email) with one subject.",
      { hint: { type: "required: url | static_html | email", ...Object.fromEntries(Object.entries(LEGACY_HINT)), legacyFieldsSeen: legacy } },
    );
  }
  // 3
  const unknownFields = Object.keys(b).filter((k) => !TOP_LEVEL_FIELDS.has(k) && k !== "validationSets");
  if (unknownFields.length) {
    throw new AppError("UNKNOWN_FIELD", `Unknown field(s): ${unknownFields.join(", ")}.`, { unknownFields });
  }
  // 4
  if (typeof b.type !== "string" || !(JOB_TYPES as readonly string[]).includes(b.type)) {
    throw new AppError("VALIDATION_TYPE_UNSUPPORTED", `Job type ${JSON.stringify(b.type)} is not supported.`, {
      field: "type",
      value: b.type,
      allowedValues: JOB_TYPES,
    });
  }
  const type = b.type as JobType;
  // 5, 6
  if (Array.isArray(b.validationSetId) || ("validationSets" in b && !("validationSetId" in b))) {
    const count = Array.isArray(b.validationSetId) ? b.validationSetId.length : Array.isArray(b.validationSets) ? b.validationSets.length : 1;
    throw new AppError("ONE_VALIDATION_SET_PER_JOB", "A job takes one validation set: send one validationSetId string.", {
      setCount: count,
    });
  }
  if ("validationSets" in b) {
    throw new AppError(
      "VALIDATION_SET_CONFLICT",
      "validationSetId cannot be combined with a validationSets array; add extra checks through validations[].",
      { fields: ["validationSetId", "validationSets"] },
    );
  }
  // 7
  const subjectCount =
    SUBJECT_FIELDS.reduce((n, f) => n + (b[f] === undefined ? 0 : Array.isArray(b[f]) ? (b[f] as unknown[]).length : 1), 0) +
    (type === "email" ? 1 : 0);
  if (subjectCount > 1) {
    throw new AppError("JOB_ACCEPTS_ONE_SUBJECT", `A job takes exactly one subject; this body has ${subjectCount}. Send one job per subject.`, {
      subjectCount,
    });
  }
  // 8, 9, 10
  checkFieldTypes(b);
  // 11
  if (b.captureSizes) {
    const invalid = (b.captureSizes as string[]).filter((s) => !(CAPTURE_SIZES as readonly string[]).includes(s));
    if (invalid.length) {
      throw new AppError("INVALID_CAPTURE_SIZE", `Unknown capture size(s): ${invalid.join(", ")}.`, {
        invalid,
        allowedValues: CAPTURE_SIZES,
      });
    }
  }
  // 12
  const required = type === "url" ? ["url"] : type === "static_html" ? ["html", "baseUrl"] : [];
  for (const field of required) {
    if (typeof b[field] !== "string" || (field !== "html" && !(b[field] as string).trim())) {
      throw new AppError("JOB_SUBJECT_REQUIRED", `A ${type} job needs ${field}.`, { field, jobType: type });
    }
  }
  // 13
  const entries = normaliseEntries((b.validations as unknown[] | undefined) ?? []);
  const setId = b.validationSetId as string | undefined;
  if (entries.length === 0 && setId === undefined) {
    throw new AppError("NO_VALIDATIONS_SELECTED", "Select validations[] entries, a validationSetId, or both.");
  }
  // 14, 15
  const jobSubject = type === "email" ? "email" : "url";
  const set = setId === undefined ? undefined : findSet(setId);
  if (setId !== undefined && !set) {
    throw new AppError("VALIDATION_SET_NOT_FOUND", `No validation set has id ${JSON.stringify(setId)}.`, { validationSetId: setId });
  }
  if (set && set.subjectType !== jobSubject) {
    throw new AppError("VALIDATION_SET_SUBJECT_MISMATCH", `Set ${set.id} is for ${set.subjectType} subjects; this is a ${type} job.`, {
      validationSetId: set.id,
      setSubjectType: set.subjectType,
      jobSubjectType: type,
    });
  }
  // 16
  const mismatches = entries
    .map((e) => ({ e, m: findValidation(e.id) }))
    .filter(({ m }) => m && m.meta.subjectType !== jobSubject)
    .map(({ e, m }) => ({ path: e.path, validationId: e.id, validationSubjectType: m!.meta.subjectType, jobSubjectType: type }));
  if (mismatches.length) {
    throw new AppError("VALIDATION_SUBJECT_MISMATCH", `${mismatches.map((m) => m.validationId).join(", ")} cannot run on a ${type} job.`, {
      mismatches,
    });
  }
  // 17
  const unknown = entries.filter((e) => !findValidation(e.id) || findValidation(e.id)!.meta.id !== e.id);
  if (unknown.length) {
    throw new AppError(
      "VALIDATION_NOT_RUNNABLE",
      `Not runnable validation id(s): ${unknown.map((e) => e.id).join(", ")}. Use ids with runnable: true from GET /api/validations.`,
      { validationIds: unknown.map((e) => e.id), paths: unknown.map((e) => e.path) },
    );
  }
  // 18: identical duplicates collapse; differing ones are refused
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
  const unique = [...byId.values()];
  // 19: one flat parameter map per job
  const flat = new Map<string, { value: unknown; path: string }>();
  for (const e of unique) {
    for (const [name, value] of Object.entries(e.config.parameters ?? {})) {
      const prior = flat.get(name);
      if (prior && canonicalJson(prior.value) !== canonicalJson(value)) {
        throw new AppError("CONFLICTING_PARAMETERS", `Parameter ${name} has two different values in this job.`, {
          path: e.path,
          parameter: name,
          firstPath: prior.path,
        });
      }
      flat.set(name, { value, path: e.path });
    }
  }
  // 20
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
  // Select: set members first, then extras; parameters come from the flat map.
  const selected = new Map<string, { module: ValidationModule; entry?: NormalisedEntry; fromSet: boolean }>();
  for (const id of set?.validationIds ?? []) selected.set(id, { module: findValidation(id)!, fromSet: true });
  for (const e of unique) {
    const prior = selected.get(e.id);
    selected.set(e.id, { module: findValidation(e.id)!, entry: e, fromSet: prior?.fromSet ?? false });
  }
  const run: PlannedValidation[] = [];
  const skipped: SkippedValidation[] = [];
  for (const { module, entry, fromSet } of selected.values()) {
    const parameters: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const p of module.meta.parameters) {
      const given = flat.get(p.name);
      if (given) parameters[p.name] = given.value;
      else if (p.default !== undefined) parameters[p.name] = p.default;
      else missing.push(p.name);
    }
    if (module.meta.requiresConfiguration && missing.length) {
      skipped.push({
        validationId: module.meta.id,
        reason: "REQUIRES_CONFIGURATION",
        message: `${module.meta.id} needs ${missing.join(", ")}; ask the user for ${missing.length > 1 ? "them" : "it"} rather than guessing. Not run and not charged.`,
      });
      continue;
    }
    run.push({
      module,
      severity: entry?.config.severity ?? module.meta.severity,
      parameters,
      credits: module.meta.price.credits,
      fromSet,
      ...(entry?.config.clients ? { clients: entry.config.clients } : {}),
    });
  }
  // 21
  checkClientSelections(unique, run);
  // A visual email check is priced by its renders: one credit each, one more in an extra-credit client.
  for (const v of run) if (v.module.meta.needs.includes("render")) v.credits = renderCredits(v.module, v.clients);
  // 22
  if (type === "url") await checkPublicUrl(b.url as string, "url", guard, true);
  if (type === "static_html") await checkPublicUrl(b.baseUrl as string, "baseUrl", guard, false);

  return {
    type,
    ...(type === "url" ? { url: b.url as string } : {}),
    ...(type === "static_html" ? { html: b.html as string, baseUrl: b.baseUrl as string } : {}),
    ...(type === "email" && b.subject !== undefined ? { emailSubject: b.subject as string } : {}),
    ...(set ? { validationSetId: set.id } : {}),
    run,
    skipped,
    ...(b.captureSizes ? { captureSizes: [...new Set(b.captureSizes as CaptureSize[])] } : {}),
    detail: (b.detail as "brief" | "verbose" | undefined) ?? "brief",
    totalCredits: run.reduce((n, v) => n + v.credits, 0),
  };
}

interface EntryConfig {
  severity?: Severity;
  parameters?: Record<string, unknown>;
  clients?: Record<string, string[]>;
}
interface NormalisedEntry {
  id: string;
  path: string;
  config: EntryConfig;
}

function normaliseEntries(raw: unknown[]): NormalisedEntry[] {
  return raw.map((v, i) => {
    const path = `validations[${i}]`;
    if (typeof v === "string") return { id: v, path, config: {} };
    const { id, ...config } = v as { id: string } & EntryConfig;
    return { id, path, config };
  });
}

/** Steps 8-10, from the TypeBox schema: wrong types first, then enum values, then missing fields. */
function checkFieldTypes(b: Record<string, unknown>): void {
  const errors: Array<{ path: string; error: ValueError }> = [];
  for (const [key, value] of Object.entries(b)) {
    if (key === "validations" && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (typeof item === "string") return;
        if (item === null || typeof item !== "object" || Array.isArray(item)) {
          errors.push({ path: `validations[${i}]`, error: syntheticError(item, "Expected a validation id string or an entry object") });
          return;
        }
        for (const error of Value.Errors(ValidationEntry, item)) {
          if (error.path.startsWith("/clients")) continue; // step 21 owns clients
          errors.push({ path: `validations[${i}]${pointerToPath(error.path)}`, error });
        }
      });
      continue;
    }
    const schema = (JobRequest.properties as Record<string, TSchema>)[key];
    if (!schema) continue;
    for (const error of Value.Errors(schema, value)) errors.push({ path: `${key}${pointerToPath(error.path)}`, error });
  }
  const enumSchemaOf = (e: ValueError) => (e.schema as { "x-enum"?: string[] })["x-enum"];
  const isEnum = (e: ValueError) => enumSchemaOf(e) && typeof e.value === "string";
  const isMissing = (e: ValueError) => e.type === ValueErrorType.ObjectRequiredProperty;
  // TypeBox also reports an absent required property as a type error on its undefined value; the missing error speaks for it.
  const isAbsent = (path: string, e: ValueError) =>
    e.value === undefined && errors.some((o) => o.path === path && isMissing(o.error));
  const typeErrors = errors.filter(
    ({ path, error }) => !isEnum(error) && !isMissing(error) && !isAbsent(path, error) && !isUnionChild(error, errors),
  );
  if (typeErrors.length) {
    throw bad(`The request body does not match the job request schema: ${typeErrors[0]!.path} ${typeErrors[0]!.error.message}.`, {
      problems: typeErrors.map(({ path, error }) => ({ path, message: error.message })),
    });
  }
  const enumError = errors.find(({ error }) => isEnum(error));
  if (enumError) {
    throw new AppError("INVALID_ENUM_VALUE", `${enumError.path} must be one of ${enumSchemaOf(enumError.error)!.join(", ")}.`, {
      field: enumError.path,
      value: enumError.error.value,
      allowedValues: enumSchemaOf(enumError.error),
    });
  }
  const missing = errors.find(({ error }) => isMissing(error));
  if (missing) {
    throw new AppError("MISSING_REQUIRED_FIELD", `${missing.path} is required.`, { field: missing.path });
  }
}

/** TypeBox reports each failed member of an enum union too; the union's own error speaks for them. */
function isUnionChild(error: ValueError, all: Array<{ path: string; error: ValueError }>): boolean {
  return error.type === ValueErrorType.Literal && all.some((o) => o.error !== error && o.error.path === error.path && o.error.type === ValueErrorType.Union);
}

function syntheticError(value: unknown, message: string): ValueError {
  return { type: ValueErrorType.Object, schema: {} as TSchema, path: "", value, message, errors: [] };
}

function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join("");
}

function problemsOf(schema: TSchema, value: unknown) {
  return [...Value.Errors(schema, value)].slice(0, 5).map((e) => ({ path: e.path || "/", message: e.message }));
}

const FORM_FACTORS = new Set<string>(CAPTURE_SIZES);

function checkClientSelections(entries: NormalisedEntry[], run: PlannedValidation[]): void {
  for (const e of entries) {
    const clients = e.config.clients as unknown;
    if (clients === undefined) continue;
    const validationId = e.id;
    if (clients !== null && typeof clients === "object" && !Array.isArray(clients) && Object.keys(clients).length === 0) {
      throw new AppError("EMPTY_CLIENT_SELECTION", `clients on ${validationId} is empty; omit it, or name form factors with client ids.`, {
        validationId,
        path: `${e.path}.clients`,
      });
    }
    const invalid = (path: string, message: string) =>
      new AppError("INVALID_CLIENT_SELECTION", message, { validationId, path, allowedFormFactors: CAPTURE_SIZES });
    if (clients === null || typeof clients !== "object" || Array.isArray(clients)) {
      throw invalid(`${e.path}.clients`, "clients must be an object keyed by form factor.");
    }
    for (const [formFactor, ids] of Object.entries(clients as Record<string, unknown>)) {
      const path = `${e.path}.clients.${formFactor}`;
      if (!FORM_FACTORS.has(formFactor)) throw invalid(path, `${formFactor} is not a form factor; use ${CAPTURE_SIZES.join(", ")}.`);
      if (!Array.isArray(ids) || ids.some((c) => typeof c !== "string")) throw invalid(path, `${path} must be an array of client id strings.`);
    }
    const module = findValidation(validationId)!;
    if (module.meta.kind !== "visual") {
      throw new AppError(
        "CLIENT_SELECTION_RENDERLESS_CHECK",
        `${validationId} is a functional check: it reads the subject without rendering it in mail clients, so it takes no clients.`,
        { validationId, path: `${e.path}.clients` },
      );
    }
    if (!run.some((r) => r.module.meta.id === validationId)) {
      throw new AppError(
        "CLIENT_SELECTION_NOT_IN_JOB",
        `${validationId} will not run in this job (it is skipped: it needs parameters this job does not give), so it takes no clients.`,
        { validationId, path: `${e.path}.clients` },
      );
    }
    if (module.meta.subjectType === "url") {
      // Webpages are captured at form factors (captureSizes), never in mail clients.
      throw new AppError(
        "INVALID_CLIENT_SELECTION",
        `clients apply to email validations only; ${validationId} is a webpage check, captured at captureSizes, not in mail clients. Remove clients from that entry.`,
        { validationId, path: `${e.path}.clients` },
      );
    }
    const unknownClients = Object.entries(clients as Record<string, string[]>).flatMap(([formFactor, ids]) =>
      [...new Set(ids)].filter((id) => !findEmailClient(formFactor, id)).map((clientId) => ({ formFactor, clientId })),
    );
    if (unknownClients.length) {
      throw new AppError(
        "UNKNOWN_EMAIL_CLIENT",
        `${unknownClients.map((c) => `${c.clientId} (${c.formFactor})`).join(", ")} ${unknownClients.length > 1 ? "are" : "is"} not in the render catalog for ${unknownClients.length > 1 ? "those form factors" : "that form factor"}; GET /api/email-clients lists the clients of each.`,
        {
          validationId,
          path: `${e.path}.clients`,
          unknownClients,
          knownClients: Object.fromEntries([...new Set(unknownClients.map((c) => c.formFactor))].map((ff) => [ff, (EMAIL_CLIENTS as Record<string, Array<{ id: string }>>)[ff]!.map((c) => c.id)])),
        },
      );
    }
  }
}

async function checkPublicUrl(raw: string, field: string, guard: NetworkGuard, resolve: boolean): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not an absolute URL.`, { field, reason: "invalid-url" });
  }
  const verdict = resolve ? await guard.check(url) : guard.checkSyntax(url);
  if (verdict && !verdict.allowed) {
    throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not a public http(s) URL: ${verdict.detail}.`, {
      field,
      reason: verdict.reason,
    });
  }
}
