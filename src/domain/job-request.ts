import { Value } from "@sinclair/typebox/value";
import { ValueErrorType, type ValueError } from "@sinclair/typebox/errors";
import type { Static, TSchema } from "@sinclair/typebox";
import type { SkippedValidation as SkippedValidationSchema } from "../../events/jobs";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import { JobRequest, JOB_TYPES, ValidationEntry } from "../contracts/job-request";
import { pointerToPath, sortFieldErrors, type FieldError, type SortedFieldErrors } from "../contracts/field-errors";
import { findValidation } from "../catalog/registry";
import { findSet, type ValidationSet } from "../catalog/sets";
import { EMAIL_CLIENTS, findEmailClient } from "../catalog/email-clients";
import { CAPTURE_SIZES, type CaptureSize } from "../capture/vocabulary";
import type { Severity, ValidationModule } from "../validations/types";
import type { NetworkGuard } from "../capture/network-guard";
import { canonicalJson } from "../store/canonical";
import { priceJob } from "./pricing";
import { isPolicySeverity, storedSeverity, type AnySeverity, type PolicySeverity } from "./pass-policy";

export type JobType = (typeof JOB_TYPES)[number];

export interface PlannedValidation {
  module: ValidationModule;
  severity: Severity;
  /** The severity as the request named it in the hosted vocabulary (severity holds its Assay equivalent). */
  policySeverity?: PolicySeverity;
  parameters: Record<string, unknown>;
  credits: number;
  fromSet: boolean;
  clients?: Record<string, string[]>;
}

export type SkippedValidation = Static<typeof SkippedValidationSchema>;

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

type Selection = { run: Array<Omit<PlannedValidation, "credits">>; skipped: SkippedValidation[] };

/** What the steps learn about a body, in order: each step reads what the steps before it settled. */
export class PlanDraft {
  body!: Record<string, unknown>;
  type!: JobType;
  fields!: SortedFieldErrors;
  entries!: NormalisedEntry[];
  set?: ValidationSet;
  unique!: NormalisedEntry[];
  /** One flat parameter map per job: name -> value, and the entry that gave it. */
  parameters!: Map<string, { value: unknown; path: string }>;
  private chosen?: Selection;

  constructor(
    readonly raw: unknown,
    readonly guard: NetworkGuard,
  ) {}

  get jobSubject(): "url" | "email" {
    return this.type === "email" ? "email" : "url";
  }

  /** What runs and what is skipped; worked out once, when step 21 (clients) first asks. */
  get selection(): Selection {
    return (this.chosen ??= select(this));
  }
}

export interface PlanStep {
  /** Its place in the order (the first failing step answers); from its position in PLAN_STEPS. */
  step: number;
  name: string;
  /** The codes it refuses with, in the order it checks for them. */
  codes: ErrorCode[];
  /** What it requires, in one line (docs/jobs.md, describe_job_request, llms.txt). */
  rule: string;
  check(draft: PlanDraft): void | Promise<void>;
}

/**
 * The job request's validation, in its documented order, before anything is priced. Each step refuses with
 * its own codes and may settle a fact the later steps read (the type, the entries, the set, the parameters).
 */
const STEPS: Array<Omit<PlanStep, "step">> = [
  {
    name: "json-object",
    codes: ["INVALID_REQUEST_BODY"],
    rule: "The body is a JSON object.",
    check(d) {
      if (d.raw === null || typeof d.raw !== "object" || Array.isArray(d.raw)) throw bad("The job request must be a JSON object.");
      d.body = d.raw as Record<string, unknown>;
    },
  },
  {
    name: "unified-shape",
    codes: ["LEGACY_REQUEST_SHAPE"],
    rule: "It is the unified request: a top-level type and no lines[] (old field names are mapped in details.hint).",
    check({ body: b }) {
      if ("type" in b && !("lines" in b)) return;
      const legacy = Object.keys(b).filter((k) => k in LEGACY_HINT);
      throw new AppError(
        "LEGACY_REQUEST_SHAPE",
        "Send the unified job request: a top-level type (url, static_html or email) with one subject.",
        { hint: { type: "required: url | static_html | email", ...Object.fromEntries(Object.entries(LEGACY_HINT)), legacyFieldsSeen: legacy } },
      );
    },
  },
  {
    name: "known-fields",
    codes: ["UNKNOWN_FIELD"],
    rule: "Every top-level field is one of the job request's.",
    check({ body: b }) {
      const unknownFields = Object.keys(b).filter((k) => !TOP_LEVEL_FIELDS.has(k) && k !== "validationSets");
      if (unknownFields.length) throw new AppError("UNKNOWN_FIELD", `Unknown field(s): ${unknownFields.join(", ")}.`, { unknownFields });
    },
  },
  {
    name: "job-type",
    codes: ["VALIDATION_TYPE_UNSUPPORTED"],
    rule: `type is one of ${JOB_TYPES.join(", ")}.`,
    check(d) {
      const t = d.body.type;
      if (typeof t !== "string" || !(JOB_TYPES as readonly string[]).includes(t)) {
        throw new AppError("VALIDATION_TYPE_UNSUPPORTED", `Job type ${JSON.stringify(t)} is not supported.`, { field: "type", value: t, allowedValues: JOB_TYPES });
      }
      d.type = t as JobType;
    },
  },
  {
    name: "one-set",
    codes: ["ONE_VALIDATION_SET_PER_JOB"],
    rule: "At most one validation set: validationSetId is one string.",
    check({ body: b }) {
      if (!Array.isArray(b.validationSetId) && !("validationSets" in b && !("validationSetId" in b))) return;
      const count = Array.isArray(b.validationSetId) ? b.validationSetId.length : Array.isArray(b.validationSets) ? b.validationSets.length : 1;
      throw new AppError("ONE_VALIDATION_SET_PER_JOB", "A job takes one validation set: send one validationSetId string.", { setCount: count });
    },
  },
  {
    name: "set-not-combined",
    codes: ["VALIDATION_SET_CONFLICT"],
    rule: "validationSetId is not combined with a validationSets array.",
    check({ body: b }) {
      if (!("validationSets" in b)) return;
      throw new AppError(
        "VALIDATION_SET_CONFLICT",
        "validationSetId cannot be combined with a validationSets array; add extra checks through validations[].",
        { fields: ["validationSetId", "validationSets"] },
      );
    },
  },
  {
    name: "one-subject",
    codes: ["JOB_ACCEPTS_ONE_SUBJECT"],
    rule: "Exactly one subject: one url, or one html, or the email job's message.",
    check({ body: b, type }) {
      const subjectCount =
        SUBJECT_FIELDS.reduce((n, f) => n + (b[f] === undefined ? 0 : Array.isArray(b[f]) ? (b[f] as unknown[]).length : 1), 0) + (type === "email" ? 1 : 0);
      if (subjectCount > 1) {
        throw new AppError("JOB_ACCEPTS_ONE_SUBJECT", `A job takes exactly one subject; this body has ${subjectCount}. Send one job per subject.`, { subjectCount });
      }
    },
  },
  {
    name: "field-types",
    codes: ["INVALID_REQUEST_BODY"],
    rule: "Every field has the type the job request schema gives it.",
    check(d) {
      d.fields = sortFieldErrors(fieldErrors(d.body));
      const [first] = d.fields.typeErrors;
      if (first) {
        throw bad(`The request body does not match the job request schema: ${first.path} ${first.error.message}.`, {
          problems: d.fields.typeErrors.map(({ path, error }) => ({ path, message: error.message })),
        });
      }
    },
  },
  {
    name: "enum-values",
    codes: ["INVALID_ENUM_VALUE"],
    rule: "Every enum field (detail, a validation's severity) holds one of its values.",
    check({ fields }) {
      if (fields.invalidEnum) throw fields.invalidEnum;
    },
  },
  {
    name: "required-fields",
    codes: ["MISSING_REQUIRED_FIELD"],
    rule: "Every validation entry object has its id.",
    check({ fields }) {
      if (fields.missing) throw fields.missing;
    },
  },
  {
    name: "capture-sizes",
    codes: ["INVALID_CAPTURE_SIZE"],
    rule: `Every capture size is one of ${CAPTURE_SIZES.join(", ")}.`,
    check({ body: b }) {
      if (!b.captureSizes) return;
      const invalid = (b.captureSizes as string[]).filter((s) => !(CAPTURE_SIZES as readonly string[]).includes(s));
      if (invalid.length) {
        throw new AppError("INVALID_CAPTURE_SIZE", `Unknown capture size(s): ${invalid.join(", ")}.`, { invalid, allowedValues: CAPTURE_SIZES });
      }
    },
  },
  {
    name: "subject-given",
    codes: ["JOB_SUBJECT_REQUIRED"],
    rule: "The type's subject is given: url for url; html and baseUrl for static_html.",
    check({ body: b, type }) {
      const required = type === "url" ? ["url"] : type === "static_html" ? ["html", "baseUrl"] : [];
      for (const field of required) {
        if (typeof b[field] !== "string" || (field !== "html" && !(b[field] as string).trim())) {
          throw new AppError("JOB_SUBJECT_REQUIRED", `A ${type} job needs ${field}.`, { field, jobType: type });
        }
      }
    },
  },
  {
    name: "something-selected",
    codes: ["NO_VALIDATIONS_SELECTED"],
    rule: "validations[] entries, a validationSetId, or both.",
    check(d) {
      d.entries = normaliseEntries((d.body.validations as unknown[] | undefined) ?? []);
      if (d.entries.length === 0 && d.body.validationSetId === undefined) {
        throw new AppError("NO_VALIDATIONS_SELECTED", "Select validations[] entries, a validationSetId, or both.");
      }
    },
  },
  {
    name: "set-exists",
    codes: ["VALIDATION_SET_NOT_FOUND"],
    rule: "validationSetId names a published set.",
    check(d) {
      const setId = d.body.validationSetId as string | undefined;
      if (setId === undefined) return;
      d.set = findSet(setId);
      if (!d.set) throw new AppError("VALIDATION_SET_NOT_FOUND", `No validation set has id ${JSON.stringify(setId)}.`, { validationSetId: setId });
    },
  },
  {
    name: "set-subject",
    codes: ["VALIDATION_SET_SUBJECT_MISMATCH"],
    rule: "The set is for the job's subject type (url sets for url and static_html jobs, email sets for email jobs).",
    check(d) {
      const { set, type } = d;
      if (set && set.subjectType !== d.jobSubject) {
        throw new AppError("VALIDATION_SET_SUBJECT_MISMATCH", `Set ${set.id} is for ${set.subjectType} subjects; this is a ${type} job.`, {
          validationSetId: set.id,
          setSubjectType: set.subjectType,
          jobSubjectType: type,
        });
      }
    },
  },
  {
    name: "validation-subject",
    codes: ["VALIDATION_SUBJECT_MISMATCH"],
    rule: "Every validation is for the job's subject type.",
    check(d) {
      const mismatches = d.entries
        .map((e) => ({ e, m: findValidation(e.id) }))
        .filter(({ m }) => m && m.meta.subjectType !== d.jobSubject)
        .map(({ e, m }) => ({ path: e.path, validationId: e.id, validationSubjectType: m!.meta.subjectType, jobSubjectType: d.type }));
      if (mismatches.length) {
        throw new AppError("VALIDATION_SUBJECT_MISMATCH", `${mismatches.map((m) => m.validationId).join(", ")} cannot run on a ${d.type} job.`, { mismatches });
      }
    },
  },
  {
    name: "runnable",
    codes: ["VALIDATION_NOT_RUNNABLE"],
    rule: "Every validation id is a runnable one (an unknown id is not).",
    check({ entries }) {
      const unknown = entries.filter((e) => !findValidation(e.id) || findValidation(e.id)!.meta.id !== e.id);
      if (unknown.length) {
        throw new AppError(
          "VALIDATION_NOT_RUNNABLE",
          `Not runnable validation id(s): ${unknown.map((e) => e.id).join(", ")}. Use ids with runnable: true from GET /api/validations.`,
          { validationIds: unknown.map((e) => e.id), paths: unknown.map((e) => e.path) },
        );
      }
    },
  },
  {
    name: "no-differing-duplicates",
    codes: ["DUPLICATE_VALIDATION"],
    rule: "A validation listed twice has the same configuration both times (identical duplicates collapse).",
    check(d) {
      const byId = new Map<string, NormalisedEntry>();
      for (const e of d.entries) {
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
      d.unique = [...byId.values()];
    },
  },
  {
    name: "one-parameter-map",
    codes: ["CONFLICTING_PARAMETERS"],
    rule: "One flat parameter map per job: two entries never give one parameter different values.",
    check(d) {
      d.parameters = new Map();
      for (const e of d.unique) {
        for (const [name, value] of Object.entries(e.config.parameters ?? {})) {
          const prior = d.parameters.get(name);
          if (prior && canonicalJson(prior.value) !== canonicalJson(value)) {
            throw new AppError("CONFLICTING_PARAMETERS", `Parameter ${name} has two different values in this job.`, {
              path: e.path,
              parameter: name,
              firstPath: prior.path,
            });
          }
          d.parameters.set(name, { value, path: e.path });
        }
      }
    },
  },
  {
    name: "parameter-values",
    codes: ["INVALID_PARAMETER_VALUE"],
    rule: "Every parameter is one its validation declares, in that parameter's format.",
    check({ unique }) {
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
    },
  },
  {
    name: "client-selections",
    codes: ["EMPTY_CLIENT_SELECTION", "INVALID_CLIENT_SELECTION", "CLIENT_SELECTION_RENDERLESS_CHECK", "CLIENT_SELECTION_NOT_IN_JOB", "INVALID_CLIENT_SELECTION", "UNKNOWN_EMAIL_CLIENT"],
    rule:
      "clients, per entry: not empty; an object of form factors to arrays of client ids; only on a visual check, that the job runs, of an email job; every id in the render catalog for its form factor.",
    check(d) {
      checkClientSelections(d.unique, d.selection.run);
    },
  },
  {
    name: "public-url",
    codes: ["PLAYGROUND_INVALID_URL", "SERVICE_UNAVAILABLE"],
    rule:
      "url and baseUrl are public http(s) URLs, by the network guard with their host resolved; the only step that may use DNS. A baseUrl whose name does not exist is accepted (the HTML is given, and nothing is fetched from the base itself); one that resolves to any address that is not public is refused as a url job's would be. DNS that cannot answer now (EAI_AGAIN, a time-out) is SERVICE_UNAVAILABLE, retryable: the URL may be fine.",
    async check({ body: b, type, guard }) {
      if (type === "url") await checkPublicUrl(b.url as string, "url", guard, { mayNotExist: false });
      if (type === "static_html") await checkPublicUrl(b.baseUrl as string, "baseUrl", guard, { mayNotExist: true });
    },
  },
];

/** The planner's steps, in order. */
export const PLAN_STEPS: readonly PlanStep[] = STEPS.map((s, i) => ({ step: i + 1, ...s }));

/** Every refusal planJob can give, in its order. */
export const JOB_REQUEST_ERRORS: ErrorCode[] = [...new Set(PLAN_STEPS.flatMap((s) => s.codes))];

/** Validates a job body completely, step by step (PLAN_STEPS), then selects and prices what runs. */
export async function planJob(body: unknown, guard: NetworkGuard): Promise<PlannedJob> {
  const d = new PlanDraft(body, guard);
  for (const step of PLAN_STEPS) await step.check(d);
  const { body: b, type, set } = d;
  const { run, skipped } = d.selection;
  const { lines, totalCredits } = priceJob(run);
  return {
    type,
    ...(type === "url" ? { url: b.url as string } : {}),
    ...(type === "static_html" ? { html: b.html as string, baseUrl: b.baseUrl as string } : {}),
    ...(type === "email" && b.subject !== undefined ? { emailSubject: b.subject as string } : {}),
    ...(set ? { validationSetId: set.id } : {}),
    run: run.map((v, i) => ({ ...v, credits: lines[i]!.credits })),
    skipped,
    ...(b.captureSizes ? { captureSizes: [...new Set(b.captureSizes as CaptureSize[])] } : {}),
    detail: (b.detail as "brief" | "verbose" | undefined) ?? "brief",
    totalCredits,
  };
}

/** Set members first, then extras; parameters come from the flat map, defaults fill the rest. */
function select({ set, unique, parameters: flat }: PlanDraft): Selection {
  const selected = new Map<string, { module: ValidationModule; entry?: NormalisedEntry; fromSet: boolean }>();
  for (const id of set?.validationIds ?? []) selected.set(id, { module: findValidation(id)!, fromSet: true });
  for (const e of unique) {
    const prior = selected.get(e.id);
    selected.set(e.id, { module: findValidation(e.id)!, entry: e, fromSet: prior?.fromSet ?? false });
  }
  const run: Selection["run"] = [];
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
    const asked = entry?.config.severity;
    run.push({
      module,
      severity: asked ? storedSeverity(asked) : module.meta.severity,
      ...(asked && isPolicySeverity(asked) ? { policySeverity: asked } : {}),
      parameters,
      fromSet,
      ...(entry?.config.clients ? { clients: entry.config.clients } : {}),
    });
  }
  return { run, skipped };
}

interface EntryConfig {
  severity?: AnySeverity;
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

/** Every TypeBox error of the body's known fields, validation entries one by one; step 21 owns clients. */
function fieldErrors(b: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(b)) {
    if (key === "validations" && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (typeof item === "string") return;
        if (item === null || typeof item !== "object" || Array.isArray(item)) {
          errors.push({ path: `validations[${i}]`, error: syntheticError(item, "Expected a validation id string or an entry object") });
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
    for (const error of Value.Errors(schema, value)) errors.push({ path: pointerToPath(`/${key}${error.path}`), error });
  }
  return errors;
}

function syntheticError(value: unknown, message: string): ValueError {
  return { type: ValueErrorType.Object, schema: {} as TSchema, path: "", value, message, errors: [] };
}

function problemsOf(schema: TSchema, value: unknown) {
  return [...Value.Errors(schema, value)].slice(0, 5).map((e) => ({ path: e.path || "/", message: e.message }));
}

const FORM_FACTORS = new Set<string>(CAPTURE_SIZES);

function checkClientSelections(entries: NormalisedEntry[], run: Selection["run"]): void {
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

/** The network guard's verdict on a job's URL, DNS included; `mayNotExist` accepts a host name that does not resolve. */
async function checkPublicUrl(raw: string, field: string, guard: NetworkGuard, { mayNotExist }: { mayNotExist: boolean }): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not an absolute URL.`, { field, reason: "invalid-url" });
  }
  const verdict = await guard.check(url);
  if (verdict.allowed || (mayNotExist && verdict.reason === "unresolvable")) return;
  if (verdict.reason === "dns-unavailable") {
    throw new AppError("SERVICE_UNAVAILABLE", `DNS could not resolve the ${field}'s host now, so the job was not started and nothing was charged. Retry shortly.`, {
      dependency: "dns",
      field,
    }, verdict.detail, true);
  }
  throw new AppError("PLAYGROUND_INVALID_URL", `${field} is not a public http(s) URL: ${verdict.detail}.`, {
    field,
    reason: verdict.reason,
  });
}
