import { Elysia } from "elysia";
import { AppError } from "../errors/app-error";
import type { Assay } from "../app";
import { findValidation, validationModules } from "../catalog/registry";
import { catalogEntry, findSet, listSets, setView, validationDetail } from "../catalog/views";
import { enumQuery } from "./request";

export function catalogRoutes(assay: Assay) {
  return new Elysia()
    .get("/api/validations", ({ query }) => {
      const include = enumQuery(query, "include", ["parameters"] as const);
      const subjectType = enumQuery(query, "subjectType", ["url", "email"] as const);
      return {
        validations: validationModules
          .filter((m) => !subjectType || m.meta.subjectType === subjectType)
          .map((m) => catalogEntry(m, include === "parameters")),
      };
    })
    .get("/api/validations/:idOrSlug", ({ params }) => {
      const m = findValidation(params.idOrSlug);
      if (!m) throw new AppError("VALIDATION_NOT_FOUND", `No validation has id or slug ${JSON.stringify(params.idOrSlug)}.`, { idOrSlug: params.idOrSlug });
      return validationDetail(m, assay.config.publicBaseUrl);
    })
    .get("/api/validation-sets", ({ query }) => ({ validationSets: listSets(enumQuery(query, "subjectType", ["url", "email"] as const)) }))
    .get("/api/validation-sets/:setId", ({ params }) => {
      const set = findSet(params.setId);
      if (!set) throw new AppError("VALIDATION_SET_NOT_FOUND", `No validation set has id ${JSON.stringify(params.setId)}.`, { validationSetId: params.setId });
      return setView(set);
    });
}
