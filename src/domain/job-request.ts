import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/catalog";
import { JobRequest, JOB_TYPES } from "../contracts/job-request";
import { sortFieldErrors } from "../contracts/field-errors";
import { findValidation } from "../catalog/registry";
import { findSet } from "../catalog/sets";
import { nearestSetIds, nearestValidationIds, suggestionsFor } from "../catalog/suggestions";
import { CAPTURE_SIZES, type CaptureSize } from "../capture/vocabulary";
import type { NetworkGuard } from "../capture/network-guard";
import { priceJob } from "./pricing";
import { PlanDraft, type JobType, type PlannedJob } from "./planned-job";
import { checkParameterValues, fieldErrors, normaliseEntries, parameterMap, uniqueEntries } from "./validation-entries";
import { checkOneSubject, checkSubjectGiven, checkSubjectUrls } from "./job-subject";
import { checkClientSelections } from "./client-selection";
import { checkEngineSelections } from "./engine-selection";

/**
 * The planner: a job request's validation as an ordered table of steps (PLAN_STEPS), then what runs and its price
 * (planJob). The draft the steps fill in and the planned job are ./planned-job.ts; the rules on the subject, on
 * validations[] entries and on their clients are ./job-subject.ts, ./validation-entries.ts and ./client-selection.ts.
 */

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
const bad = (message: string, details?: Record<string, unknown>) =>
  new AppError("INVALID_REQUEST_BODY", message, details);

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
      if (d.raw === null || typeof d.raw !== "object" || Array.isArray(d.raw))
        throw bad("The job request must be a JSON object.");
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
        {
          hint: {
            type: "required: url | static_html | email",
            ...Object.fromEntries(Object.entries(LEGACY_HINT)),
            legacyFieldsSeen: legacy,
          },
        },
      );
    },
  },
  {
    name: "known-fields",
    codes: ["UNKNOWN_FIELD"],
    rule: "Every top-level field is one of the job request's.",
    check({ body: b }) {
      const unknownFields = Object.keys(b).filter((k) => !TOP_LEVEL_FIELDS.has(k) && k !== "validationSets");
      if (unknownFields.length)
        throw new AppError("UNKNOWN_FIELD", `Unknown field(s): ${unknownFields.join(", ")}.`, { unknownFields });
    },
  },
  {
    name: "job-type",
    codes: ["VALIDATION_TYPE_UNSUPPORTED"],
    rule: `type is one of ${JOB_TYPES.join(", ")}.`,
    check(d) {
      const t = d.body.type;
      if (typeof t !== "string" || !(JOB_TYPES as readonly string[]).includes(t)) {
        throw new AppError("VALIDATION_TYPE_UNSUPPORTED", `Job type ${JSON.stringify(t)} is not supported.`, {
          field: "type",
          value: t,
          allowedValues: JOB_TYPES,
        });
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
      const count = Array.isArray(b.validationSetId)
        ? b.validationSetId.length
        : Array.isArray(b.validationSets)
          ? b.validationSets.length
          : 1;
      throw new AppError(
        "ONE_VALIDATION_SET_PER_JOB",
        "A job takes one validation set: send one validationSetId string.",
        { setCount: count },
      );
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
    check({ body, type }) {
      checkOneSubject(body, type);
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
        throw new AppError("INVALID_CAPTURE_SIZE", `Unknown capture size(s): ${invalid.join(", ")}.`, {
          invalid,
          allowedValues: CAPTURE_SIZES,
        });
      }
    },
  },
  {
    name: "subject-given",
    codes: ["JOB_SUBJECT_REQUIRED"],
    rule: "The type's subject is given: url for url; html and baseUrl for static_html.",
    check({ body, type }) {
      checkSubjectGiven(body, type);
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
      if (!d.set)
        throw new AppError("VALIDATION_SET_NOT_FOUND", `No validation set has id ${JSON.stringify(setId)}.`, {
          validationSetId: setId,
          suggestions: suggestionsFor([setId], nearestSetIds),
        });
    },
  },
  {
    name: "set-subject",
    codes: ["VALIDATION_SET_SUBJECT_MISMATCH"],
    rule: "The set is for the job's subject type (url sets for url and static_html jobs, email sets for email jobs).",
    check(d) {
      const { set, type } = d;
      if (set && set.subjectType !== d.jobSubject) {
        throw new AppError(
          "VALIDATION_SET_SUBJECT_MISMATCH",
          `Set ${set.id} is for ${set.subjectType} subjects; this is a ${type} job.`,
          {
            validationSetId: set.id,
            setSubjectType: set.subjectType,
            jobSubjectType: type,
          },
        );
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
        .map(({ e, m }) => ({
          path: e.path,
          validationId: e.id,
          validationSubjectType: m!.meta.subjectType,
          jobSubjectType: d.type,
        }));
      if (mismatches.length) {
        throw new AppError(
          "VALIDATION_SUBJECT_MISMATCH",
          `${mismatches.map((m) => m.validationId).join(", ")} cannot run on a ${d.type} job.`,
          { mismatches },
        );
      }
    },
  },
  {
    name: "runnable",
    codes: ["VALIDATION_NOT_RUNNABLE"],
    rule: "Every validation id is a runnable one (an unknown id is not).",
    check({ entries, jobSubject }) {
      const unknown = entries.filter((e) => !findValidation(e.id) || findValidation(e.id)!.meta.id !== e.id);
      if (unknown.length) {
        throw new AppError(
          "VALIDATION_NOT_RUNNABLE",
          `Not runnable validation id(s): ${unknown.map((e) => e.id).join(", ")}. Use ids with runnable: true from GET /api/validations.`,
          {
            validationIds: unknown.map((e) => e.id),
            paths: unknown.map((e) => e.path),
            suggestions: suggestionsFor(
              unknown.map((e) => e.id),
              (id) => nearestValidationIds(id, jobSubject),
            ),
          },
        );
      }
    },
  },
  {
    name: "no-differing-duplicates",
    codes: ["DUPLICATE_VALIDATION"],
    rule: "A validation listed twice has the same configuration both times (identical duplicates collapse).",
    check(d) {
      d.unique = uniqueEntries(d.entries);
    },
  },
  {
    name: "one-parameter-map",
    codes: ["CONFLICTING_PARAMETERS"],
    rule: "One flat parameter map per job: two entries never give one parameter different values.",
    check(d) {
      d.parameters = parameterMap(d.unique);
    },
  },
  {
    name: "parameter-values",
    codes: ["INVALID_PARAMETER_VALUE"],
    rule: "Every parameter is one its validation declares, in that parameter's format.",
    check({ unique }) {
      checkParameterValues(unique);
    },
  },
  {
    name: "client-selections",
    codes: [
      "EMPTY_CLIENT_SELECTION",
      "INVALID_CLIENT_SELECTION",
      "CLIENT_SELECTION_RENDERLESS_CHECK",
      "CLIENT_SELECTION_NOT_IN_JOB",
      "INVALID_CLIENT_SELECTION",
      "UNKNOWN_EMAIL_CLIENT",
    ],
    rule: "clients, per entry: not empty; an object of form factors to arrays of client ids; only on a visual check, that the job runs, of an email job; every id in the render catalog for its form factor.",
    check(d) {
      checkClientSelections(d.unique, d.selection.run);
    },
  },
  {
    name: "engine-selections",
    codes: ["ENGINE_SELECTION_UNSUPPORTED"],
    rule: "engines, per entry: only on a webpage check that takes engines (its catalog record's capture.engines), each one of those.",
    check(d) {
      checkEngineSelections(d.unique);
    },
  },
  {
    name: "public-url",
    codes: ["PLAYGROUND_INVALID_URL", "SERVICE_UNAVAILABLE"],
    rule: "url and baseUrl are public http(s) URLs, by the network guard with their host resolved; the only step that may use DNS. A baseUrl whose name does not exist is accepted (the HTML is given, and nothing is fetched from the base itself); one that resolves to any address that is not public is refused as a url job's would be. DNS that cannot answer now (EAI_AGAIN, a time-out) is SERVICE_UNAVAILABLE, retryable: the URL may be fine.",
    check({ body, type, guard }) {
      return checkSubjectUrls(body, type, guard);
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
  const captureSizes = b.captureSizes ? [...new Set(b.captureSizes as CaptureSize[])] : undefined;
  const { lines, totalCredits } = priceJob(run, captureSizes);
  return {
    type,
    ...(type === "url" ? { url: b.url as string } : {}),
    ...(type === "static_html" ? { html: b.html as string, baseUrl: b.baseUrl as string } : {}),
    ...(type === "email" && b.subject !== undefined ? { emailSubject: b.subject as string } : {}),
    ...(set ? { validationSetId: set.id } : {}),
    run: run.map((v, i) => ({ ...v, credits: lines[i]!.credits })),
    skipped,
    ...(captureSizes ? { captureSizes } : {}),
    detail: (b.detail as "brief" | "verbose" | undefined) ?? "brief",
    totalCredits,
  };
}
