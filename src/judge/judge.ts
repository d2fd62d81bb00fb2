import type { Screenshot } from "../capture/artifacts";
import type { Outcome, ValidationMeta } from "../validations/types";

export interface JudgeInput {
  meta: ValidationMeta;
  /** The inspector's measured outcome: the evidence every judge starts from. */
  inspection: Outcome;
  screenshots: Screenshot[];
}

/** Decides a visual check's verdict from its captures and the inspector's measurements. */
export interface Judge {
  readonly name: string;
  judge(input: JudgeInput): Promise<Outcome>;
}

/**
 * The default, offline judge: the inspector measured geometry and text on the rendered page at each
 * capture size, and its outcome (whose reasoning cites those measurements) is the verdict.
 */
export class InspectorJudge implements Judge {
  readonly name = "inspector";
  async judge({ inspection }: JudgeInput): Promise<Outcome> {
    return inspection;
  }
}
