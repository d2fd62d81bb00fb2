import { renderTargets } from "../catalog/email-clients";
import { renderPrice } from "../catalog/render-pricing";
import type { ValidationModule } from "../validations/types";

/** What a planned validation's price depends on: the check, and for a visual email check the clients it renders in. */
export interface Priced {
  module: ValidationModule;
  clients?: Record<string, string[]>;
}

/**
 * The price of a job: each validation's catalog `price.credits`, except a visual email check, priced by its
 * renders (one credit each, one more in an extra-credit client). One function for the estimate and the run.
 */
export function priceJob(validations: Priced[]): {
  lines: Array<{ validationId: string; credits: number }>;
  totalCredits: number;
} {
  const lines = validations.map((v) => ({ validationId: v.module.meta.id, credits: creditsOf(v) }));
  return { lines, totalCredits: lines.reduce((n, l) => n + l.credits, 0) };
}

function creditsOf({ module, clients }: Priced): number {
  if (!module.meta.needs.includes("render")) return module.meta.price.credits;
  return renderTargets(module, clients).reduce((n, t) => n + renderPrice(t.client), 0);
}
