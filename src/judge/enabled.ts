import type { Config } from "../config";
import { validationModules } from "../catalog/registry";
import type { Outcome } from "../validations/types";
import { readEvaluation } from "./evaluation";
import { InspectorJudge, type Judge, type JudgeInput } from "./judge";
import { ModelJudge, PROMPT_VERSION } from "./model";

/** The visual checks a model may judge: the only ones with screenshots to look at. */
export const VISUAL_CHECKS = validationModules.filter((m) => m.meta.kind === "visual").map((m) => m.meta.id);

/**
 * Which checks the model judges: those ASSAY_VISION_CHECKS names (or all), and those whose measured agreement with
 * the labels, in the evaluation stored in the data directory for this model and prompt version, is at least
 * ASSAY_VISION_MIN_AGREEMENT. Nothing else: a model configured but never evaluated or named changes no verdict.
 */
export class EnabledChecks {
  private readonly named: Set<string>;
  constructor(
    private readonly vision: Pick<NonNullable<Config["vision"]>, "checks" | "minAgreement" | "model">,
    private readonly dataDir: string,
  ) {
    const all = vision.checks.includes("all");
    const unknown = vision.checks.filter((id) => id !== "all" && !VISUAL_CHECKS.includes(id));
    if (unknown.length)
      throw new Error(
        `ASSAY_VISION_CHECKS: ${unknown.join(", ")} ${unknown.length === 1 ? "is not a visual check" : "are not visual checks"}; the model can judge: all, ${VISUAL_CHECKS.join(", ")}`,
      );
    this.named = new Set(all ? VISUAL_CHECKS : vision.checks);
  }

  has(checkId: string): boolean {
    if (this.named.has(checkId)) return true;
    if (this.vision.minAgreement <= 0) return false;
    const evaluation = readEvaluation(this.dataDir);
    if (!evaluation || evaluation.model !== this.vision.model || evaluation.promptVersion !== PROMPT_VERSION)
      return false;
    const agreement = evaluation.checks[checkId]?.labels.agreement;
    return typeof agreement === "number" && agreement >= this.vision.minAgreement;
  }
}

/**
 * The judge of a server with a model configured: the model on the checks enabled for it, the inspector elsewhere.
 * A model's fail where the inspector measured the same captures and found nothing is not charged as a fail: the row
 * is an error with reasonCode NEEDS_REVIEW (refunded like any error), its reason saying both sides.
 */
export class SelectiveJudge implements Judge {
  readonly name = "selective";
  private readonly inspector = new InspectorJudge();
  constructor(
    private readonly model: Judge,
    private readonly enabled: Pick<EnabledChecks, "has">,
  ) {}

  async judge(input: JudgeInput): Promise<Outcome> {
    if (!this.enabled.has(input.meta.id)) return this.inspector.judge(input);
    const outcome = await this.model.judge(input);
    if (outcome.verdict !== "fail" || input.inspection.verdict !== "pass") return outcome;
    const model = outcome.judge?.model ?? "the vision model";
    const reason = `Needs review: ${model} failed this check (${outcome.reason ?? outcome.reasoning}), but the inspector's measurements of the same captures found nothing (${input.inspection.reasoning}). Not charged as a fail: refunded; a person should look at the captures.`;
    return { ...outcome, verdict: "error", reason, reasoning: reason, reasonCode: "NEEDS_REVIEW" };
  }
}

/** The judge a server runs with: the inspector alone, or the model where enabled (ASSAY_VISION_*). */
export function judgeFor(config: Pick<Config, "vision" | "dataDir">): Judge {
  if (!config.vision) return new InspectorJudge();
  const enabled = new EnabledChecks(config.vision, config.dataDir);
  const now = VISUAL_CHECKS.filter((id) => enabled.has(id));
  if (now.length)
    console.log(
      now.length === VISUAL_CHECKS.length
        ? `The vision model ${config.vision.model} judges every visual check.`
        : `The vision model ${config.vision.model} judges ${now.join(", ")}; the inspector every other visual check.`,
    );
  else
    console.warn(
      `ASSAY_VISION_BASE_URL is set but no check is enabled for ${config.vision.model} now (ASSAY_VISION_CHECKS, or ASSAY_VISION_MIN_AGREEMENT with an evaluation of this model and prompt in ${config.dataDir}): the inspector judges every visual check. Measure the model with \`assay judge evaluate\` (docs/judges.md).`,
    );
  return new SelectiveJudge(new ModelJudge(config.vision), enabled);
}
