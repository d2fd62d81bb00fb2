import { ENGINE_NAMES, type RenderEngine } from "../capture/vocabulary";
import type { Outcome } from "../validations/types";

/**
 * One verdict for a check judged in several browser engines, from its verdict in each: a fail in any engine fails
 * it (each engine's reason kept, named), an error with no fail is an error, otherwise a pass. Every finding says the
 * engine it was measured in. A check judged in Chromium alone keeps its outcome as it was.
 */
export function acrossEngines(outcomes: Array<{ engine: RenderEngine; outcome: Outcome }>): Outcome {
  if (outcomes.length === 1 && outcomes[0]!.engine === "chromium") return outcomes[0]!.outcome;
  const named = (engine: RenderEngine, text: string) => `In ${ENGINE_NAMES[engine]}: ${text}`;
  const findings = outcomes.flatMap(({ engine, outcome }) => outcome.findings.map((f) => ({ ...f, engine })));
  const reasoning = outcomes.map(({ engine, outcome }) => named(engine, outcome.reasoning)).join(" ");
  const failed = outcomes.filter((o) => o.outcome.verdict === "fail");
  const errored = outcomes.filter((o) => o.outcome.verdict === "error");
  const verdict = failed.length ? "fail" : errored.length ? "error" : "pass";
  const because = failed.length ? failed : errored;
  return {
    verdict,
    ...(because.length
      ? { reason: because.map(({ engine, outcome }) => named(engine, outcome.reason ?? "")).join(" ") }
      : {}),
    reasoning,
    findings,
  };
}
