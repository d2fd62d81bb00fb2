import { AppError } from "../errors/app-error";
import { errorCatalog, retryableCodes, type ErrorCode } from "../errors/catalog";
import { findValidation, validationModules } from "../catalog/registry";
import { catalogEntry, findSet, listSets, setView, validationDetail } from "../catalog/views";
import { nearestSetIds, nearestValidationIds, suggestionsFor } from "../catalog/suggestions";
import { policySeverity, SEVERITY_MAPPING } from "../domain/pass-policy";
import type { ValidationModule } from "../validations/types";
import type { ServiceContext } from "./context";
import { catalogBaseUrl } from "../config";
import { compareChecks, recommendChecks, searchCatalog } from "./catalog-discovery";
import { jobRequestDescription, type JobType, type SubjectType } from "./job-request-description";

/**
 * The catalog as the surfaces read it: validations, sets, the error table and the job request's shape
 * (job-request-description.ts), plus the discovery helpers agents use (search, recommend, compare:
 * catalog-discovery.ts). HTTP routes, MCP tools and the generated agent files (llms.txt, OpenAPI) all read
 * through here.
 */
export class CatalogService {
  constructor(private readonly ctx: Pick<ServiceContext, "config">) {}

  list(q: { include?: "parameters"; subjectType?: SubjectType } = {}) {
    return {
      validations: validationModules
        .filter((m) => !q.subjectType || m.meta.subjectType === q.subjectType)
        .map((m) => catalogEntry(m, q.include === "parameters")),
    };
  }

  get(idOrSlug: string) {
    return validationDetail(this.module(idOrSlug), this.ctx.config.publicBaseUrl, catalogBaseUrl(this.ctx.config));
  }

  sets(q: { subjectType?: SubjectType } = {}) {
    return { validationSets: listSets(q.subjectType).map(withPolicy) };
  }

  set(setId: string) {
    const set = findSet(setId);
    if (!set)
      throw new AppError("VALIDATION_SET_NOT_FOUND", `No validation set has id ${JSON.stringify(setId)}.`, {
        validationSetId: setId,
        suggestions: suggestionsFor([setId], nearestSetIds),
      });
    return withPolicy(setView(set));
  }

  /** Ranked word matching over ids, names, categories, summaries and judgments; deterministic. */
  search(q: { query: string; subjectType?: SubjectType; limit?: number }) {
    return searchCatalog(q);
  }

  /** Checks and a set for a plain-language goal, each pick with its reason. */
  recommend(q: { goal: string; subjectType: JobType }) {
    return recommendChecks(q);
  }

  compare(ids: string[]) {
    return compareChecks(ids.map((id) => this.module(id)));
  }

  /** The error table, as GET /api/errors and explain_error serve it. */
  errors() {
    return { errors: errorCatalog.map(errorView) };
  }

  error(code: ErrorCode) {
    return { error: errorView(errorCatalog.find((e) => e.code === code)!) };
  }

  /** The job request: its JSON Schema, the fields in words, the rules, and an example body per job type that passes planJob. */
  describeJobRequest(type?: JobType) {
    return jobRequestDescription(type);
  }

  private module(idOrSlug: string): ValidationModule {
    const m = findValidation(idOrSlug);
    if (!m)
      throw new AppError("VALIDATION_NOT_FOUND", `No validation has id or slug ${JSON.stringify(idOrSlug)}.`, {
        idOrSlug,
        suggestions: suggestionsFor([idOrSlug], nearestValidationIds),
      });
    return m;
  }
}

function errorView(e: (typeof errorCatalog)[number]) {
  return {
    code: e.code,
    httpStatus: e.status,
    title: e.title,
    guidance: e.guidance,
    ...(e.status >= 500 ? { retryable: retryableCodes.has(e.code as ErrorCode) } : {}),
  };
}

/**
 * A set in the hosted vocabulary too: each check's policy severity, which checks block (required) and which only
 * warn, and the mapping itself (src/domain/pass-policy.ts).
 */
function withPolicy(view: ReturnType<typeof setView>) {
  const policySeverities = Object.fromEntries(
    Object.entries(view.severities).map(([id, s]) => [id, policySeverity(s)]),
  );
  const blocks = (id: string) => policySeverities[id] === "required" || policySeverities[id] === "prohibited";
  return {
    ...view,
    policySeverities,
    blockingValidationIds: view.validationIds.filter(blocks),
    warningValidationIds: view.validationIds.filter((id) => !blocks(id)),
    severityMapping: SEVERITY_MAPPING.map((m) => ({ ...m })),
  };
}
