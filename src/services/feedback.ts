import type { Static } from "@sinclair/typebox";
import { AppError } from "../errors/app-error";
import type { FeedbackQuestionsQuery, FeedbackSubmission } from "../contracts/feedback";
import type { FeedbackSets, QueuedSet } from "../catalog/feedback-sets";
import {
  anchors,
  decide,
  submissionStream,
  type AnchorJob,
  type FeedbackCommand,
  type FeedbackSource,
} from "../domain/feedback";
import { ConcurrencyError } from "../store/event-log";
import { creditState } from "../../projections/credits";
import { findJobs, resultsFor } from "../../projections/jobs";
import {
  answeredSets,
  checkCost,
  credentialOf,
  newestSettledJob,
  resultSubmissions,
  submissionForResult,
  type SubmissionRow,
} from "../../projections/feedback";
import type { ReadModels } from "../../projections/projection";
import type { RequestMeta, ServiceContext } from "./context";

type Verdict = "pass" | "fail" | "error";

/**
 * Feedback on verdicts: the looks-wrong set for any result of the organization's jobs (always open until filed,
 * paying what the check cost net of refunds), and the job- and standard-scope sets queued per credential (a key,
 * or a signed-in person), served one at a time in the sets file's order. Submissions go through the feedback
 * decider (src/domain/feedback.ts); the queue and the costs are the feedback projection's folds.
 */
export class FeedbackService {
  constructor(
    private readonly ctx: Pick<ServiceContext, "log" | "readModels">,
    private readonly sets: FeedbackSets,
  ) {}

  /** GET /api/feedback/due: exactly { due, setId, questionCount, rewardCredits } for the call's credential. */
  due(customerId: string, meta: RequestMeta) {
    const next = this.nextQueued(customerId, credentialOfCall(meta));
    return next
      ? {
          due: true,
          setId: next.set.setId,
          questionCount: next.set.questions.length,
          rewardCredits: next.set.rewardCredits,
        }
      : { due: false, setId: null, questionCount: 0, rewardCredits: 0 };
  }

  /**
   * GET /api/feedback/questions: with jobId and validationId the looks-wrong set about that result ({ due: false }
   * once filed); with setId that set if it is the one due; with neither the set due now, or { due: false }.
   */
  questions(customerId: string, query: Static<typeof FeedbackQuestionsQuery>, meta: RequestMeta) {
    const credential = credentialOfCall(meta);
    const anchored = query.jobId !== undefined || query.validationId !== undefined;
    if (query.setId === undefined && !anchored) {
      const next = this.nextQueued(customerId, credential);
      return next ? queuedView(next.set, next.jobId) : { due: false as const };
    }
    const set = query.setId === undefined ? this.sets.looksWrong : this.sets.find(query.setId);
    if (!set)
      throw new AppError("FEEDBACK_SET_UNKNOWN", `No active feedback set ${JSON.stringify(query.setId)}.`, {
        setId: query.setId,
      });
    const job = query.jobId ? this.anchorJob(customerId, query.jobId) : null;
    if (set.scope === "validation") {
      const anchor = anchors(query, set, { job, newestJobId: null });
      if (submissionForResult(this.ctx.readModels, customerId, anchor.jobId!, anchor.validationId!))
        return { due: false as const };
      const storedVerdict = job!.verdicts.get(anchor.validationId!)!;
      return {
        due: true as const,
        setId: set.setId,
        scope: set.scope,
        title: set.title,
        jobId: anchor.jobId!,
        validationId: anchor.validationId!,
        storedVerdict,
        questionCount: set.questions.length,
        rewardCredits: checkCost(this.ctx.readModels, anchor.jobId!, anchor.validationId!) ?? 0,
        questions: set.questions.map((q) => ({ id: q.id, text: q.text[storedVerdict], shape: q.shape })),
      };
    }
    const next = this.nextQueued(customerId, credential);
    if (next?.set.setId !== set.setId) throw notDue(set.setId, next?.set.setId);
    return queuedView(set, anchors(query, set, { job, newestJobId: next.jobId }).jobId ?? next.jobId);
  }

  /** POST /api/feedback: the submission and its payout in one append; a second one answers FEEDBACK_ALREADY_GIVEN. */
  async submit(customerId: string, submission: Static<typeof FeedbackSubmission>, meta: RequestMeta) {
    const cmd: FeedbackCommand = {
      customerId,
      setId: submission.setId,
      ...(submission.jobId !== undefined ? { jobId: submission.jobId } : {}),
      ...(submission.validationId !== undefined ? { validationId: submission.validationId } : {}),
      answers: submission.answers,
      credential: credentialOfCall(meta),
      source: sourceOf(meta),
    };
    for (let attempt = 0; ; attempt++) {
      const set = this.sets.find(cmd.setId);
      const stream = set ? submissionStream(cmd, set) : null;
      const next = this.nextQueued(customerId, cmd.credential);
      const writes = decide(cmd, {
        set,
        job: cmd.jobId ? this.anchorJob(customerId, cmd.jobId) : null,
        dueSetId: next?.set.setId ?? null,
        newestJobId: next?.jobId ?? null,
        submissionVersion: stream ? this.ctx.log.streamVersion(stream) : 0,
        checkCost:
          cmd.jobId && cmd.validationId ? (checkCost(this.ctx.readModels, cmd.jobId, cmd.validationId) ?? 0) : 0,
        credits: creditState(this.ctx.readModels, customerId),
      });
      try {
        const [filed, ...payout] = await this.ctx.log.append(writes, meta);
        if (filed?.type !== "FeedbackSubmitted") throw new Error("the feedback decider wrote no submission first");
        const d = filed.data;
        return {
          setId: d.setId,
          ...(d.jobId ? { jobId: d.jobId } : {}),
          ...(d.validationId ? { validationId: d.validationId } : {}),
          answers: d.answers,
          source: d.source,
          submittedAt: filed.recordedAt,
          payout: {
            credits: payout.length ? d.rewardCredits : 0,
            balanceAfter: creditState(this.ctx.readModels, customerId).balance,
          },
        };
      } catch (e) {
        // Another submission (or a job's charge) moved a stream first: decide again on fresh state.
        if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
      }
    }
  }

  /** GET /api/feedback: what was filed about one result; FEEDBACK_NOT_FOUND when nothing was. */
  forResult(customerId: string, jobId: string, validationId: string) {
    const job = this.anchorJob(customerId, jobId);
    anchors({ jobId, validationId }, this.sets.looksWrong, { job, newestJobId: null });
    const filed = submissionForResult(this.ctx.readModels, customerId, jobId, validationId);
    if (!filed)
      throw new AppError(
        "FEEDBACK_NOT_FOUND",
        `No feedback recorded for ${validationId} on job ${jobId}; treat it as pending review.`,
        { jobId, validationId },
      );
    const humanVerdict = humanVerdictOf(filed);
    return {
      setId: filed.setId,
      jobId,
      validationId,
      storedVerdict: filed.storedVerdict!,
      humanVerdict,
      disputed: humanVerdict !== filed.storedVerdict,
      answers: filed.answers,
      source: filed.source,
      submittedAt: filed.submittedAt,
      rewardCredits: filed.rewardCredits,
    };
  }

  /** The queued set this credential is asked now, with the newest job that fits it; null when none is due. */
  private nextQueued(customerId: string, credential: string): { set: QueuedSet; jobId: string } | null {
    const answered = answeredSets(this.ctx.readModels, customerId, credential);
    for (const set of this.sets.queued) {
      if (answered.has(set.setId)) continue;
      const jobId = newestSettledJob(
        this.ctx.readModels,
        customerId,
        credential,
        set.scope === "standard" ? set.validationSetId : undefined,
      );
      if (jobId) return { set, jobId };
    }
    return null;
  }

  /** One of this organization's jobs with its result verdicts, or null when it has none with this id. */
  private anchorJob(customerId: string, jobId: string): AnchorJob | null {
    const [row] = findJobs(this.ctx.readModels, { customerId, jobId, limit: 1 });
    if (!row) return null;
    const results = resultsFor(this.ctx.readModels, [jobId]).get(jobId)!;
    return {
      jobId,
      validationSetId: row.validationSetId,
      verdicts: new Map(results.map((r) => [r.validationId, r.verdict])),
    };
  }
}

function queuedView(set: QueuedSet, jobId: string) {
  return {
    due: true as const,
    setId: set.setId,
    scope: set.scope,
    title: set.title,
    jobId,
    ...(set.scope === "standard" ? { validationSetId: set.validationSetId } : {}),
    questionCount: set.questions.length,
    rewardCredits: set.rewardCredits,
    questions: set.questions.map((q) => ({ id: q.id, text: q.text, shape: q.shape })),
  };
}

const notDue = (setId: string, expectedSetId: string | undefined) =>
  new AppError(
    "FEEDBACK_NOT_DUE",
    `Feedback set ${setId} is not due for this credential${expectedSetId ? `; ${expectedSetId} is` : ""}.`,
    {
      setId,
      ...(expectedSetId ? { expectedSetId } : {}),
    },
  );

/** Who answers: the key or the signed-in person the call's metadata names. */
function credentialOfCall(meta: RequestMeta): string {
  const credential = credentialOf({ metadata: meta });
  if (!credential) throw new Error("a feedback operation ran without a key or a session");
  return credential;
}

/** The source is the channel's, never the body's: the tool server is mcp, a session the dashboard, a Bearer key an agent. */
function sourceOf(meta: RequestMeta): FeedbackSource {
  if (meta.channel === "mcp") return "mcp";
  return meta.actor.kind === "session" ? "dashboard" : "agent";
}

const humanVerdictOf = (s: SubmissionRow) => s.answers.find((a) => a.questionId === "humanVerdict")?.value as Verdict;

const NOTE_FIELDS = ["aiMistakeNotes", "verdictComments", "feedbackNotes"] as const;

/**
 * The operator's report: per check, how many looks-wrong submissions, how many disputed the verdict and in which
 * direction (a false fail: the check failed, the person says pass; a missed problem: it passed, they say fail;
 * error: either side is error), and the notes, newest first, so wrong verdicts can feed back into the checks.
 */
export function feedbackReport(readModels: ReadModels, since?: string) {
  const checks = new Map<
    string,
    {
      validationId: string;
      feedback: number;
      disputed: number;
      falseFail: number;
      missedProblem: number;
      error: number;
      notes: Array<
        { jobId: string; storedVerdict: string; humanVerdict: string; submittedAt: string; source: string } & Partial<
          Record<(typeof NOTE_FIELDS)[number], string>
        >
      >;
    }
  >();
  for (const s of resultSubmissions(readModels, since)) {
    const c = checks.get(s.validationId!) ?? {
      validationId: s.validationId!,
      feedback: 0,
      disputed: 0,
      falseFail: 0,
      missedProblem: 0,
      error: 0,
      notes: [],
    };
    checks.set(s.validationId!, c);
    c.feedback++;
    const human = humanVerdictOf(s);
    const stored = s.storedVerdict!;
    if (human !== stored) {
      c.disputed++;
      if (human === "error" || stored === "error") c.error++;
      else if (stored === "fail") c.falseFail++;
      else c.missedProblem++;
    }
    const written = Object.fromEntries(
      NOTE_FIELDS.flatMap((f) => {
        const v = s.answers.find((a) => a.questionId === f)?.value;
        return typeof v === "string" && v.trim() ? [[f, v]] : [];
      }),
    );
    if (Object.keys(written).length)
      c.notes.push({
        jobId: s.jobId!,
        storedVerdict: stored,
        humanVerdict: human,
        submittedAt: s.submittedAt,
        source: s.source,
        ...written,
      });
  }
  return {
    since: since ?? null,
    checks: [...checks.values()].sort(
      (a, b) => b.disputed - a.disputed || b.feedback - a.feedback || a.validationId.localeCompare(b.validationId),
    ),
  };
}
