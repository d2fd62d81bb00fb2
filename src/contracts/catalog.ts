import { Type, type TRecord, type TString, type TUnknown } from "@sinclair/typebox";
import { PolicySeverity, Severity } from "../../events/jobs";
import { CAPTURE_SIZES } from "../capture/vocabulary";
import { enumOf, JOB_TYPES, JobRequest } from "./job-request";
import { AnyJson, Bool, Dict, Int, literals, Nullable, Obj, Opt, Str } from "./schema-kit";

/**
 * The catalog's shapes that several operations answer (a catalog entry, a parameter, a validation set, a
 * reference), and the vocabularies the catalog and the jobs share (subject types, job types, capture sizes).
 */

const SUBJECT_TYPES = ["url", "email"] as const;

export const subjectTypeFilter = () =>
  Type.Optional(enumOf(SUBJECT_TYPES, "Only validations of this subject type (url covers url and static_html jobs)."));

/**
 * A job body the catalog offers as an example: checked as the JobRequest it is, typed as the plain record the
 * catalog builds it as.
 */
export const JobBody = JobRequest as unknown as TRecord<TString, TUnknown>;

export const SubjectType = literals(SUBJECT_TYPES);
export const JobType = literals(JOB_TYPES);
export const CaptureSize = literals(CAPTURE_SIZES);
export const ExecutionKind = literals(["functional", "visual"] as const);

const ParameterView = Obj(
  { name: Str(), description: Str(), format: Str(), schema: AnyJson(), default: Opt(AnyJson()), example: AnyJson() },
  "A parameter: name, description, format, its JSON Schema, default and example.",
);

export const catalogEntryFields = {
  id: Str(),
  slug: Str(),
  name: Str(),
  summary: Str(),
  subjectType: SubjectType,
  category: Str(),
  severity: Severity,
  executionKind: ExecutionKind,
  runnable: Bool(),
  requiresConfiguration: Bool(),
  price: Obj({ credits: Int() }),
  parameters: Opt(Type.Array(ParameterView)),
};

export const CatalogEntry = Obj(catalogEntryFields, "A validation catalog entry.");

export const Reference = Obj({ title: Str(), url: Str() });

export const SetView = Obj(
  {
    id: Str(),
    name: Str(),
    description: Str(),
    subjectType: SubjectType,
    jobTypes: Type.Array(JobType),
    validationIds: Type.Array(Str()),
    severities: Dict(Severity),
    parameters: Type.Array(ParameterView),
    policySeverities: Type.Record(Type.String(), PolicySeverity, {
      description: "Each check's severity in the hosted vocabulary.",
    }),
    blockingValidationIds: Type.Array(Str(), {
      description: "The checks whose failure blocks (required, prohibited).",
    }),
    warningValidationIds: Type.Array(Str(), {
      description: "The checks whose failure only warns (recommended, optional).",
    }),
    severityMapping: Type.Array(Obj({ assay: Nullable(Severity), policy: PolicySeverity, blocks: Bool() }), {
      description:
        "Assay's severities against the hosted vocabulary: critical and major are required, minor recommended, info optional; prohibited has no Assay severity (assay null).",
    }),
  },
  "A validation set.",
);
