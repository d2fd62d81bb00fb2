import { renderTargets } from "../catalog/email-clients";
import { EXTRA_ENGINE_CREDITS_PER_RENDER, renderPrice } from "../catalog/render-pricing";
import type { CaptureSize, RenderEngine } from "../capture/vocabulary";
import type { ValidationModule } from "../validations/types";
import { enginesOf, sizesOf } from "./planned-job";

/**
 * What a planned validation's price depends on: the check, for a visual email check the clients it renders in, and
 * for a webpage check the engines it is judged in.
 */
export interface Priced {
  module: ValidationModule;
  clients?: Record<string, string[]>;
  engines?: RenderEngine[];
}

/**
 * The price of a job: each validation's catalog `price.credits`, except a visual email check, priced by its
 * renders (one credit each, one more in an extra-credit client), and a webpage check judged in engines beyond
 * Chromium, which adds for each of them a render at each of its sizes priced as one in an extra-credit client.
 * One function for the estimate and the run.
 */
export function priceJob(
  validations: Priced[],
  captureSizes?: readonly CaptureSize[],
): {
  lines: Array<{ validationId: string; credits: number }>;
  totalCredits: number;
} {
  const lines = validations.map((v) => ({ validationId: v.module.meta.id, credits: creditsOf(v, captureSizes) }));
  return { lines, totalCredits: lines.reduce((n, l) => n + l.credits, 0) };
}

function creditsOf(v: Priced, captureSizes?: readonly CaptureSize[]): number {
  const { module, clients } = v;
  if (module.meta.needs.includes("render"))
    return renderTargets(module, clients).reduce((n, t) => n + renderPrice(t.client), 0);
  const extraEngines = enginesOf(v).filter((e) => e !== "chromium").length;
  return (
    module.meta.price.credits + extraEngines * sizesOf(module, captureSizes).length * EXTRA_ENGINE_CREDITS_PER_RENDER
  );
}
