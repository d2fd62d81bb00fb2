import { AppError } from "../errors/app-error";
import type { StreamWrite } from "../store/event-log";
import type { FeedbackSet, QuestionShape } from "../catalog/feedback-sets";
import type { FeedbackSubmittedData } from "../../events/feedback";
import type { ResultRecordedData } from "../../events/jobs";
import { decide as decideCredits } from "./credits";
import { streams } from "./accounts";

/**
 * Feedback as a decider: a submission is checked in the documented order (set, anchors, due, not yet given,
 * answers against shapes, the looks-wrong rules) and becomes one FeedbackSubmitted on its own stream at version 0
 * plus its payout on the credit stream, in one write: a second submission conflicts instead of paying twice.
 */

type Verdict = ResultRecordedData["verdict"];
export type FeedbackSource = FeedbackSubmittedData["source"];

export interface FeedbackCommand {
  customerId: string;
  setId: string;
  jobId?: string;
  validationId?: string;
  answers: Array<{ questionId: string; value: unknown }>;
  credential: string;
  source: FeedbackSource;
}

/** A job of the submitting organization, as the anchors read it. */
export interface AnchorJob {
  jobId: string;
  validationSetId: string | null;
  /** The verdict of each result row. */
  verdicts: Map<string, Verdict>;
}

export interface FeedbackDecisionState {
  /** The set named, from the sets file (undefined: unknown). */
  set: FeedbackSet | undefined;
  /** The job the command names, when it is this organization's (null: none named, or not theirs). */
  job: AnchorJob | null;
  /** The queued set due for this credential now (null: none). */
  dueSetId: string | null;
  /** The newest settled job of this credential (the anchor of a job-scope set answered without a jobId). */
  newestJobId: string | null;
  /** The version of the submission's stream (0: nothing filed yet). */
  submissionVersion: number;
  /** The looks-wrong reward: what the check cost on the job, net of refunds. */
  checkCost: number;
  credits: { balance: number; streamVersion: number };
}

/**
 * The stream a submission is filed on: per organization, set and job and check for the looks-wrong set; per
 * organization, set and credential for a queued set (asked once per credential). Null when the anchors it needs are missing.
 */
export function submissionStream(
  cmd: Pick<FeedbackCommand, "customerId" | "setId" | "jobId" | "validationId" | "credential">,
  set: FeedbackSet,
): string | null {
  if (set.scope === "validation")
    return cmd.jobId && cmd.validationId
      ? `feedback-${cmd.customerId}-${set.setId}-${cmd.jobId}-${cmd.validationId}`
      : null;
  return `feedback-${cmd.customerId}-${set.setId}-${cmd.credential}`;
}

export function decide(cmd: FeedbackCommand, state: FeedbackDecisionState): StreamWrite[] {
  const set = state.set;
  if (!set)
    throw new AppError("FEEDBACK_SET_UNKNOWN", `No active feedback set ${JSON.stringify(cmd.setId)}.`, {
      setId: cmd.setId,
    });
  const anchor = anchors(cmd, set, state);
  const given = state.submissionVersion > 0;
  if (set.scope !== "validation" && !given && state.dueSetId !== set.setId) {
    throw new AppError(
      "FEEDBACK_NOT_DUE",
      `Feedback set ${set.setId} is not due for this credential${state.dueSetId ? `; ${state.dueSetId} is` : ""}.`,
      {
        setId: set.setId,
        ...(state.dueSetId ? { expectedSetId: state.dueSetId } : {}),
      },
    );
  }
  if (given) {
    throw new AppError(
      "FEEDBACK_ALREADY_GIVEN",
      `Feedback set ${set.setId} was already answered${anchor.validationId ? ` for ${anchor.validationId} on job ${anchor.jobId}` : ""}; nothing to retry.`,
      {
        setId: set.setId,
        ...anchor,
      },
    );
  }
  const problems = answerProblems(set, cmd.answers);
  if (problems.length) {
    throw new AppError(
      "FEEDBACK_ANSWERS_INVALID",
      `The answers do not fit set ${set.setId}: ${problems.map((p) => `${p.questionId}: ${p.problem}`).join("; ")}.`,
      { setId: set.setId, problems },
    );
  }
  const storedVerdict = set.scope === "validation" ? state.job!.verdicts.get(anchor.validationId!)! : undefined;
  if (storedVerdict) looksWrongRules(cmd.answers, storedVerdict);
  const rewardCredits = set.scope === "validation" ? state.checkCost : set.rewardCredits;
  const submitted: FeedbackSubmittedData = {
    customerId: cmd.customerId,
    setId: set.setId,
    scope: set.scope,
    ...anchor,
    credential: cmd.credential,
    source: cmd.source,
    answers: cmd.answers.map((a) => ({ questionId: a.questionId, value: a.value ?? null })),
    ...(storedVerdict ? { storedVerdict } : {}),
    rewardCredits,
  };
  const feedbackAnchor = { setId: set.setId, ...anchor };
  const payout =
    rewardCredits > 0
      ? decideCredits(
          {
            kind: "grant",
            customerId: cmd.customerId,
            amount: rewardCredits,
            reason: "feedback",
            feedback: feedbackAnchor,
          },
          state.credits,
        )
      : [];
  return [
    {
      streamId: submissionStream(cmd, set)!,
      expectedVersion: 0,
      events: [{ type: "FeedbackSubmitted", data: submitted }],
    },
    ...(payout.length
      ? [{ streamId: streams.credits(cmd.customerId), expectedVersion: state.credits.streamVersion, events: payout }]
      : []),
  ];
}

/**
 * The anchors a set needs, checked: the looks-wrong set a job and a check on it; a standard set a job that ran its
 * validation set; a job-scope set a job of the organization when one is named, else the credential's newest.
 */
export function anchors(
  cmd: Pick<FeedbackCommand, "jobId" | "validationId">,
  set: FeedbackSet,
  state: Pick<FeedbackDecisionState, "job" | "newestJobId">,
): { jobId?: string; validationId?: string } {
  if (set.scope === "validation") {
    const needs = [...(cmd.jobId ? [] : ["jobId"]), ...(cmd.validationId ? [] : ["validationId"])];
    if (needs.length) {
      throw new AppError(
        "FEEDBACK_ANCHOR_REQUIRED",
        `The looks-wrong set ${set.setId} is about one check on one job: give jobId and validationId.`,
        { setId: set.setId, needs },
      );
    }
  }
  if (set.scope === "standard" && !cmd.jobId) {
    throw new AppError(
      "FEEDBACK_ANCHOR_REQUIRED",
      `Set ${set.setId} is about validation set ${set.validationSetId}: give the jobId of a job that ran it.`,
      {
        setId: set.setId,
        needs: ["jobId"],
        validationSetId: set.validationSetId,
      },
    );
  }
  if (cmd.jobId && !state.job)
    throw new AppError("JOB_NOT_FOUND", `No job ${cmd.jobId} in this organization.`, { jobId: cmd.jobId });
  const job = state.job;
  if (set.scope === "validation") {
    if (!job!.verdicts.has(cmd.validationId!)) {
      throw new AppError("FEEDBACK_CHECK_NOT_IN_JOB", `Job ${cmd.jobId} has no result for ${cmd.validationId}.`, {
        jobId: cmd.jobId,
        validationId: cmd.validationId,
      });
    }
    return { jobId: cmd.jobId!, validationId: cmd.validationId! };
  }
  if (set.scope === "standard") {
    if (job!.validationSetId !== set.validationSetId) {
      throw new AppError(
        "FEEDBACK_ANCHOR_REQUIRED",
        `Job ${cmd.jobId} did not run validation set ${set.validationSetId}: give the jobId of a job that did.`,
        {
          setId: set.setId,
          needs: ["jobId"],
          validationSetId: set.validationSetId,
          jobId: cmd.jobId,
        },
      );
    }
    return { jobId: job!.jobId };
  }
  const jobId = job?.jobId ?? state.newestJobId;
  return jobId ? { jobId } : {};
}

export interface AnswerProblem {
  questionId: string;
  problem: string;
}

/** Every question answered exactly once, each answer fitting its shape, nothing extra. */
export function answerProblems(set: FeedbackSet, answers: FeedbackCommand["answers"]): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  const questions = new Map<string, QuestionShape>(set.questions.map((q) => [q.id, q.shape]));
  const counts = new Map<string, number>();
  for (const a of answers) counts.set(a.questionId, (counts.get(a.questionId) ?? 0) + 1);
  for (const [questionId, n] of counts) {
    if (!questions.has(questionId)) problems.push({ questionId, problem: "not a question of this set" });
    else if (n > 1) problems.push({ questionId, problem: `answered ${n} times; answer each question once` });
  }
  for (const [questionId, shape] of questions) {
    const answer = answers.find((a) => a.questionId === questionId);
    if (!answer) {
      problems.push({
        questionId,
        problem:
          shape.kind === "text" && !shape.required
            ? "not answered; an optional question is answered with null or an empty string"
            : "not answered",
      });
      continue;
    }
    const problem = shapeProblem(shape, answer.value);
    if (problem) problems.push({ questionId, problem });
  }
  return problems;
}

/** Why a value does not fit a shape, or null when it does. */
function shapeProblem(shape: QuestionShape, value: unknown): string | null {
  switch (shape.kind) {
    case "verdict":
      return typeof value === "string" && (shape.states as string[]).includes(value)
        ? null
        : `must be one of ${shape.states.join(", ")}`;
    case "single_choice":
      return typeof value === "string" && shape.options.includes(value)
        ? null
        : `must be one of the options: ${shape.options.join(", ")}`;
    case "multi_choice": {
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string" && shape.options.includes(v)))
        return `must be an array of options: ${shape.options.join(", ")}`;
      if (new Set(value).size !== value.length) return "names an option twice";
      if (value.length < shape.min || value.length > shape.max)
        return `must pick between ${shape.min} and ${shape.max} options`;
      return null;
    }
    case "rating":
      return Number.isInteger(value) && (value as number) >= shape.min && (value as number) <= shape.max
        ? null
        : `must be a whole number from ${shape.min} to ${shape.max}`;
    case "text": {
      if (value === null || value === "") return shape.required ? "required: give a non-empty text" : null;
      if (typeof value !== "string") return "must be a string";
      if (shape.required && value.trim() === "") return "required: give a non-empty text";
      return value.length > shape.maxLength ? `at most ${shape.maxLength} characters` : null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : "must be true or false";
  }
}

const filled = (answers: FeedbackCommand["answers"], id: string) => {
  const v = answers.find((a) => a.questionId === id)?.value;
  return typeof v === "string" && v.trim() !== "";
};

/** A human verdict other than the stored one says what the check got wrong; a human fail or error says why. */
function looksWrongRules(answers: FeedbackCommand["answers"], storedVerdict: Verdict): void {
  const humanVerdict = answers.find((a) => a.questionId === "humanVerdict")!.value as Verdict;
  if (humanVerdict !== storedVerdict && !filled(answers, "aiMistakeNotes")) {
    throw new AppError(
      "AI_MISTAKE_NOTES_REQUIRED",
      `The check said ${storedVerdict} and you say ${humanVerdict}: say what it got wrong in aiMistakeNotes.`,
      {
        humanVerdict,
        storedVerdict,
        field: "aiMistakeNotes",
      },
    );
  }
  if (
    (humanVerdict === "fail" || humanVerdict === "error") &&
    !filled(answers, "verdictComments") &&
    !filled(answers, "feedbackNotes")
  ) {
    throw new AppError(
      "FEEDBACK_RATIONALE_REQUIRED",
      `A ${humanVerdict} verdict needs a reason: fill verdictComments or feedbackNotes.`,
      {
        humanVerdict,
        fields: ["verdictComments", "feedbackNotes"],
      },
    );
  }
}
