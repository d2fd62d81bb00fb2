import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import type { StoredEvent } from "../src/store/event-log";
import type { FeedbackSubmittedData } from "../events/feedback";

/**
 * What feedback reads, folded from job, credit and feedback events: which credential ran which job (the actor on
 * JobAccepted) and whether it settled (the queue of job- and standard-scope sets is a query over it, no
 * "requested" events), what each check cost on each job net of refunds (the looks-wrong reward), and every submission.
 */
export const feedbackProjection: Projection = {
  name: "feedback",
  tables: ["feedback_jobs", "feedback_check_costs", "feedback_submissions"],
  ddl: `CREATE TABLE IF NOT EXISTS feedback_jobs (
    job_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    credential TEXT,
    validation_set_id TEXT,
    settled_position INTEGER
  );
  CREATE INDEX IF NOT EXISTS feedback_jobs_credential ON feedback_jobs (customer_id, credential, settled_position);
  CREATE TABLE IF NOT EXISTS feedback_check_costs (
    job_id TEXT NOT NULL,
    validation_id TEXT NOT NULL,
    charged INTEGER NOT NULL,
    refunded INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, validation_id)
  );
  CREATE TABLE IF NOT EXISTS feedback_submissions (
    stream_id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    customer_id TEXT NOT NULL,
    set_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    job_id TEXT,
    validation_id TEXT,
    credential TEXT NOT NULL,
    source TEXT NOT NULL,
    stored_verdict TEXT,
    answers TEXT NOT NULL,
    reward_credits INTEGER NOT NULL,
    submitted_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS feedback_submissions_customer ON feedback_submissions (customer_id, set_id, credential);
  CREATE INDEX IF NOT EXISTS feedback_submissions_result ON feedback_submissions (job_id, validation_id)`,
  apply(db, e) {
    switch (e.type) {
      case "JobAccepted":
        db.query(
          "INSERT INTO feedback_jobs (job_id, customer_id, credential, validation_set_id) VALUES (?, ?, ?, ?)",
        ).run(e.data.jobId, e.data.customerId, credentialOf(e), e.data.validationSetId ?? null);
        break;
      case "JobSettled":
        // An expired email job never checked anything: there is nothing to ask about it.
        if (e.data.status !== "expired")
          db.query("UPDATE feedback_jobs SET settled_position = ? WHERE job_id = ?").run(e.position, e.data.jobId);
        break;
      case "CreditsCharged":
        for (const l of e.data.lines) {
          db.query("INSERT INTO feedback_check_costs (job_id, validation_id, charged) VALUES (?, ?, ?)").run(
            e.data.jobId,
            l.validationId,
            l.credits,
          );
        }
        break;
      case "CreditsRefunded":
        for (const l of e.data.lines) {
          db.query(
            "UPDATE feedback_check_costs SET refunded = refunded + ? WHERE job_id = ? AND validation_id = ?",
          ).run(l.credits, e.data.jobId, l.validationId);
        }
        break;
      case "FeedbackSubmitted": {
        const d = e.data;
        db.query(
          `INSERT INTO feedback_submissions (stream_id, position, customer_id, set_id, scope, job_id, validation_id, credential, source, stored_verdict, answers, reward_credits, submitted_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          e.streamId,
          e.position,
          d.customerId,
          d.setId,
          d.scope,
          d.jobId ?? null,
          d.validationId ?? null,
          d.credential,
          d.source,
          d.storedVerdict ?? null,
          JSON.stringify(d.answers),
          d.rewardCredits,
          e.recordedAt,
        );
        break;
      }
    }
  },
};

/** The credential an event's actor is: a key by its id, a signed-in person by theirs; null for the system. */
export function credentialOf(e: Pick<StoredEvent, "metadata">): string | null {
  const { kind, id } = e.metadata.actor;
  if (kind === "key" && id) return `key:${id}`;
  if (kind === "session" && id) return `person:${id}`;
  return null;
}

/** What one check cost on one job: its charge line less its refunds (null when the job charged no such line). */
export function checkCost(db: ReadModels, jobId: string, validationId: string): number | null {
  const row = db
    .query<{ net: number }, [string, string]>(
      "SELECT charged - refunded AS net FROM feedback_check_costs WHERE job_id = ? AND validation_id = ?",
    )
    .get(jobId, validationId);
  return row ? Math.max(0, row.net) : null;
}

/** The newest settled job of this credential in this organization, optionally one that ran a given validation set. */
export function newestSettledJob(
  db: ReadModels,
  customerId: string,
  credential: string,
  validationSetId?: string,
): string | null {
  const row = db
    .query<{ jobId: string }, [string, string, string | null, string | null]>(
      `SELECT job_id AS jobId FROM feedback_jobs WHERE customer_id = ? AND credential = ? AND settled_position IS NOT NULL
       AND (? IS NULL OR validation_set_id = ?) ORDER BY settled_position DESC LIMIT 1`,
    )
    .get(customerId, credential, validationSetId ?? null, validationSetId ?? null);
  return row?.jobId ?? null;
}

/** The sets this credential already answered in this organization. */
export function answeredSets(db: ReadModels, customerId: string, credential: string): Set<string> {
  const rows = db
    .query<{ setId: string }, [string, string]>(
      "SELECT DISTINCT set_id AS setId FROM feedback_submissions WHERE customer_id = ? AND credential = ?",
    )
    .all(customerId, credential);
  return new Set(rows.map((r) => r.setId));
}

export interface SubmissionRow {
  position: number;
  customerId: string;
  setId: string;
  scope: FeedbackSubmittedData["scope"];
  jobId: string | null;
  validationId: string | null;
  credential: string;
  source: FeedbackSubmittedData["source"];
  storedVerdict: FeedbackSubmittedData["storedVerdict"] | null;
  answers: FeedbackSubmittedData["answers"];
  rewardCredits: number;
  submittedAt: string;
}

const SUBMISSION_SELECT = `SELECT position, customer_id AS customerId, set_id AS setId, scope, job_id AS jobId, validation_id AS validationId,
  credential, source, stored_verdict AS storedVerdict, answers, reward_credits AS rewardCredits, submitted_at AS submittedAt FROM feedback_submissions`;

const submissionFromRow = (r: Record<string, any>): SubmissionRow =>
  ({ ...r, answers: JSON.parse(r.answers) }) as SubmissionRow;

/** The looks-wrong submission filed for one result of one organization's job, if any. */
export function submissionForResult(
  db: ReadModels,
  customerId: string,
  jobId: string,
  validationId: string,
): SubmissionRow | null {
  const row = db
    .query<Record<string, any>, [string, string, string]>(
      `${SUBMISSION_SELECT} WHERE customer_id = ? AND job_id = ? AND validation_id = ? AND scope = 'validation'`,
    )
    .get(customerId, jobId, validationId);
  return row ? submissionFromRow(row) : null;
}

/** Looks-wrong submissions from `since` on (an ISO time), newest first: the operator's report. */
export function resultSubmissions(db: ReadModels, since?: string): SubmissionRow[] {
  return db
    .query<Record<string, any>, [string]>(
      `${SUBMISSION_SELECT} WHERE scope = 'validation' AND submitted_at >= ? ORDER BY position DESC`,
    )
    .all(since ?? "")
    .map(submissionFromRow);
}
