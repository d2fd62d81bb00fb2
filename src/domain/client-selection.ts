import { AppError } from "../errors/app-error";
import { findValidation } from "../catalog/registry";
import { EMAIL_CLIENTS, findEmailClient } from "../catalog/email-clients";
import { CAPTURE_SIZES } from "../capture/vocabulary";
import type { Selection } from "./planned-job";
import type { NormalisedEntry } from "./validation-entries";

const FORM_FACTORS = new Set<string>(CAPTURE_SIZES);

/**
 * The clients of each entry that names them (step 21): not empty; an object of form factors to arrays of client ids;
 * only on a visual check that the job runs, of an email job; every id in the render catalog for its form factor.
 */
export function checkClientSelections(entries: NormalisedEntry[], run: Selection["run"]): void {
  for (const e of entries) {
    const clients = e.config.clients as unknown;
    if (clients === undefined) continue;
    const validationId = e.id;
    if (
      clients !== null &&
      typeof clients === "object" &&
      !Array.isArray(clients) &&
      Object.keys(clients).length === 0
    ) {
      throw new AppError(
        "EMPTY_CLIENT_SELECTION",
        `clients on ${validationId} is empty; omit it, or name form factors with client ids.`,
        {
          validationId,
          path: `${e.path}.clients`,
        },
      );
    }
    const invalid = (path: string, message: string) =>
      new AppError("INVALID_CLIENT_SELECTION", message, { validationId, path, allowedFormFactors: CAPTURE_SIZES });
    if (clients === null || typeof clients !== "object" || Array.isArray(clients)) {
      throw invalid(`${e.path}.clients`, "clients must be an object keyed by form factor.");
    }
    for (const [formFactor, ids] of Object.entries(clients as Record<string, unknown>)) {
      const path = `${e.path}.clients.${formFactor}`;
      if (!FORM_FACTORS.has(formFactor))
        throw invalid(path, `${formFactor} is not a form factor; use ${CAPTURE_SIZES.join(", ")}.`);
      if (!Array.isArray(ids) || ids.some((c) => typeof c !== "string"))
        throw invalid(path, `${path} must be an array of client id strings.`);
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
          knownClients: Object.fromEntries(
            [...new Set(unknownClients.map((c) => c.formFactor))].map((ff) => [
              ff,
              (EMAIL_CLIENTS as Record<string, Array<{ id: string }>>)[ff]!.map((c) => c.id),
            ]),
          ),
        },
      );
    }
  }
}
