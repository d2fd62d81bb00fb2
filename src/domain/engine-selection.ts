import { AppError } from "../errors/app-error";
import { findValidation } from "../catalog/registry";
import type { NormalisedEntry } from "./validation-entries";

/**
 * The engines of each entry that names them: only on a check that takes engines (a webpage check whose catalog record
 * lists capture.engines), each engine one of those. The schema already refused an empty list or an unknown engine.
 */
export function checkEngineSelections(entries: NormalisedEntry[]): void {
  for (const e of entries) {
    if (e.config.engines === undefined) continue;
    const offered = findValidation(e.id)!.meta.capture.engines ?? [];
    const refused = e.config.engines.filter((engine) => !offered.includes(engine));
    if (!refused.length) continue;
    throw new AppError(
      "ENGINE_SELECTION_UNSUPPORTED",
      offered.length
        ? `${e.id} can be judged in ${offered.join(", ")}, not in ${refused.join(", ")}.`
        : `${e.id} is not judged in browser engines of your choice; only webpage checks whose catalog record lists capture.engines take engines (layout-not-broken, no-horizontal-overflow). Remove engines from that entry.`,
      { validationId: e.id, path: `${e.path}.engines`, refusedEngines: refused, offeredEngines: offered },
    );
  }
}
