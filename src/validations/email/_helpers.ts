import type { ValidationMeta } from "../types";

/** Defaults shared by the functional email checks: they read the MIME, render nothing, one credit. */
export function mimeCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> & Partial<ValidationMeta>,
): ValidationMeta & { subjectType: "email" } {
  return {
    slug: meta.id,
    kind: "functional",
    price: { credits: 1 },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: [], standard: [] },
    needs: [],
    ...meta,
    subjectType: "email",
  };
}
