import { AppError } from "../errors/app-error";
import { clientMissingFeatures, planIncludesClient, type MissingFeature, type Plan } from "../catalog/plans";
import { findEmailClient, renderTargets } from "../catalog/email-clients";
import { canonicalJson } from "../store/canonical";
import { enginesOf, type PlannedJob, type PlannedValidation } from "./planned-job";
import { ENGINE_NAMES } from "../capture/vocabulary";
import type { ErrorCode } from "../errors/catalog";

/** What gating may answer: the run and the estimate list these. */
export const PLAN_GATE_ERRORS: ErrorCode[] = [
  "PLAN_EXCLUDES_WEBSITE_CHECKS",
  "PLAN_EXCLUDES_EMAIL_CHECKS",
  "PLAN_EXCLUDES_REQUESTED_CLIENTS",
  "PLAN_EXCLUDES_REQUESTED_ENGINES",
  "PLAN_EXCLUDES_SELECTED_CHECKS",
];

/**
 * Plan gating, after the planner and before the price is charged (spec order): the job's kind must be in the
 * plan, explicitly named mail clients must be in it (never narrowed), and checks the plan does not include are
 * trimmed into `skipped` with SKIPPED_NOT_IN_PLAN, not charged. Nothing left is PLAN_EXCLUDES_SELECTED_CHECKS.
 * Pure: the same plan and job give the same answer for an estimate and a run.
 */
export function gateJob(job: PlannedJob, plan: Plan): PlannedJob {
  const feature = job.type === "email" ? "email_checks" : "website_checks";
  if (!plan.features[feature]) {
    throw new AppError(
      job.type === "email" ? "PLAN_EXCLUDES_EMAIL_CHECKS" : "PLAN_EXCLUDES_WEBSITE_CHECKS",
      `The ${plan.name} plan does not include ${job.type === "email" ? "email" : "website"} checks; nothing was charged.`,
      { feature, planCode: plan.code },
    );
  }
  for (const v of job.run) {
    refuseNamedClientsOutside(v, plan);
    refuseExtraEnginesOutside(v, plan);
  }
  const run: PlannedValidation[] = [];
  const gated: Array<{ validationId: string; missing: MissingFeature[] }> = [];
  for (const v of job.run) {
    const missing = missingFor(v, plan);
    if (missing) gated.push({ validationId: v.module.meta.id, missing });
    else run.push(v);
  }
  if (!gated.length) return job;
  const missingFeatures = [...new Set(gated.flatMap((g) => g.missing))];
  if (!run.length) {
    throw new AppError(
      "PLAN_EXCLUDES_SELECTED_CHECKS",
      `The ${plan.name} plan includes none of the selected checks; nothing was charged.`,
      {
        gatedValidationIds: gated.map((g) => g.validationId),
        missingFeatures,
        planCode: plan.code,
      },
    );
  }
  return {
    ...job,
    run,
    skipped: [
      ...job.skipped,
      ...gated.map((g) => ({
        validationId: g.validationId,
        reason: "SKIPPED_NOT_IN_PLAN" as const,
        message: `${g.validationId} is not in the ${plan.name} plan (it needs ${g.missing.join(", ")}). Not run and not charged.`,
      })),
    ],
    totalCredits: run.reduce((n, v) => n + v.credits, 0),
  };
}

/** An explicitly named (formFactor, clientId) outside the plan refuses the job: naming a client is a request for it. */
function refuseNamedClientsOutside(v: PlannedValidation, plan: Plan): void {
  const named = Object.entries(v.clients ?? {}).flatMap(([formFactor, ids]) =>
    ids.map((clientId) => ({ formFactor, clientId })),
  );
  const refused = named.filter(
    ({ formFactor, clientId }) => !planIncludesClient(plan, findEmailClient(formFactor, clientId)!),
  );
  if (!refused.length) return;
  const missingFeatures = [
    ...new Set(
      refused.flatMap(({ formFactor, clientId }) =>
        clientMissingFeatures(plan, findEmailClient(formFactor, clientId)!),
      ),
    ),
  ];
  throw new AppError(
    "PLAN_EXCLUDES_REQUESTED_CLIENTS",
    `${v.module.meta.id} names mail clients the ${plan.name} plan does not include: ${refused.map((r) => `${r.clientId} (${r.formFactor})`).join(", ")}; nothing was charged.`,
    { validationId: v.module.meta.id, refusedClients: refused, missingFeatures, planCode: plan.code },
  );
}

/** An engine beyond Chromium is an extra-credit render: named on a plan without them, it refuses the job (never narrowed). */
function refuseExtraEnginesOutside(v: PlannedValidation, plan: Plan): void {
  const refusedEngines = enginesOf(v).filter((e) => e !== "chromium");
  if (!refusedEngines.length || plan.features.extra_credit_clients) return;
  throw new AppError(
    "PLAN_EXCLUDES_REQUESTED_ENGINES",
    `${v.module.meta.id} names ${refusedEngines.map((e) => ENGINE_NAMES[e]).join(", ")}, an extra-credit render the ${plan.name} plan does not include; nothing was charged.`,
    {
      validationId: v.module.meta.id,
      refusedEngines,
      missingFeatures: ["extra_credit_clients"],
      planCode: plan.code,
    },
  );
}

/** Why the plan does not include a check (what it lacks), or null when it does. */
function missingFor(v: PlannedValidation, plan: Plan): MissingFeature[] | null {
  if (!plan.features.custom_parameters && usesCustomParameters(v)) return ["custom_parameters"];
  if (!v.module.meta.needs.includes("render")) return null;
  // Only default renders reach here (named clients were checked above): a default outside the plan trims the check.
  const outside = renderTargets(v.module, v.clients).filter((t) => !planIncludesClient(plan, t.client));
  return outside.length ? [...new Set(outside.flatMap((t) => clientMissingFeatures(plan, t.client)))] : null;
}

/** A check run with a parameter value of the request's own (not its default): what custom_parameters covers. */
function usesCustomParameters(v: PlannedValidation): boolean {
  return v.module.meta.parameters.some(
    (p) =>
      p.name in v.parameters &&
      (p.default === undefined || canonicalJson(v.parameters[p.name]) !== canonicalJson(p.default)),
  );
}
