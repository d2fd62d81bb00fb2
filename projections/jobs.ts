import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import type { CaptureStoredData, JobAcceptedData, JobSettledData, ResultRecordedData } from "../events/jobs";
import type { RunCompletedData } from "../events/runs";

/**
 * Jobs with their results, skipped validations and captures, as GET /api/jobs serves them. Captures are a job's
 * screenshots (CaptureStored) and the visual diff images a run's completion made of them (RunCompleted's `visual`,
 * stored under the page's job, `run_id` naming the run).
 */
export const jobsProjection: Projection = {
  name: "jobs",
  tables: ["jobs", "job_results", "captures"],
  ddl: `CREATE TABLE IF NOT EXISTS jobs (
    job_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    subject TEXT NOT NULL,
    validation_set_id TEXT,
    validations TEXT NOT NULL,
    skipped TEXT NOT NULL,
    charged INTEGER NOT NULL,
    refunded INTEGER NOT NULL DEFAULT 0,
    interruption TEXT,
    email TEXT,
    created_at TEXT NOT NULL,
    completed_at TEXT,
    created_position INTEGER NOT NULL,
    node TEXT
  );
  CREATE INDEX IF NOT EXISTS jobs_customer ON jobs (customer_id, created_position);
  CREATE TABLE IF NOT EXISTS job_results (
    job_id TEXT NOT NULL,
    validation_id TEXT NOT NULL,
    verdict TEXT NOT NULL,
    severity TEXT NOT NULL,
    reason TEXT,
    reasoning TEXT NOT NULL,
    findings TEXT NOT NULL,
    capture_keys TEXT NOT NULL,
    renders TEXT,
    duration_ms REAL NOT NULL,
    position INTEGER NOT NULL,
    reason_code TEXT,
    judge TEXT,
    PRIMARY KEY (job_id, validation_id)
  );
  CREATE TABLE IF NOT EXISTS captures (
    key TEXT PRIMARY KEY,
    job_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    viewport TEXT NOT NULL,
    content_type TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    mask_boxes TEXT,
    run_id TEXT
  );
  CREATE INDEX IF NOT EXISTS captures_job ON captures (job_id)`,
  apply(db, e) {
    switch (e.type) {
      case "JobAccepted": {
        const d = e.data as JobAcceptedData;
        db.query(`INSERT INTO jobs (job_id, customer_id, type, status, subject, validation_set_id, validations, skipped, charged, created_at, created_position, node)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
          d.jobId,
          d.customerId,
          d.type,
          d.type === "email" ? "pending" : "running",
          JSON.stringify(d.subject),
          d.validationSetId ?? null,
          JSON.stringify(d.validations),
          JSON.stringify(d.skipped),
          d.totalCredits,
          e.recordedAt,
          e.position,
          e.metadata.node ?? null,
        );
        break;
      }
      case "ResultRecorded": {
        const d = e.data as ResultRecordedData;
        db.query(`INSERT INTO job_results (job_id, validation_id, verdict, severity, reason, reasoning, findings, capture_keys, renders, duration_ms, position, reason_code, judge)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
          d.jobId,
          d.validationId,
          d.verdict,
          d.severity,
          d.reason ?? null,
          d.reasoning,
          JSON.stringify(d.findings),
          JSON.stringify(d.captureKeys),
          d.renders ? JSON.stringify(d.renders) : null,
          d.durationMs,
          e.position,
          d.reasonCode ?? null,
          d.judge ? JSON.stringify(d.judge) : null,
        );
        break;
      }
      case "CaptureStored": {
        const d = e.data as CaptureStoredData;
        db.query(
          "INSERT INTO captures (key, job_id, customer_id, viewport, content_type, bytes, sha256, mask_boxes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          d.key,
          d.jobId,
          d.customerId,
          d.viewport,
          d.contentType,
          d.bytes,
          d.sha256,
          d.maskBoxes ? JSON.stringify(d.maskBoxes) : null,
        );
        break;
      }
      case "RunCompleted": {
        const d = e.data as RunCompletedData;
        const diff = db.query(
          "INSERT INTO captures (key, job_id, customer_id, viewport, content_type, bytes, sha256, run_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        );
        for (const v of d.visual ?? [])
          if (v.diff)
            diff.run(
              v.diff.key,
              v.jobId,
              d.customerId,
              v.diff.viewport,
              v.diff.contentType,
              v.diff.bytes,
              v.diff.sha256,
              d.runId,
            );
        break;
      }
      case "JobSettled": {
        const d = e.data as JobSettledData;
        db.query(
          "UPDATE jobs SET status = ?, refunded = ?, interruption = ?, email = ?, completed_at = ? WHERE job_id = ?",
        ).run(
          d.status,
          d.refunded,
          d.interruption ?? null,
          d.email ? JSON.stringify(d.email) : null,
          e.recordedAt,
          d.jobId,
        );
        break;
      }
    }
  },
};

export interface JobRow {
  jobId: string;
  customerId: string;
  type: JobAcceptedData["type"];
  /** running or pending until settled, then the settlement's status. */
  status: "running" | "pending" | JobSettledData["status"];
  subject: JobAcceptedData["subject"];
  validationSetId: string | null;
  validations: JobAcceptedData["validations"];
  skipped: JobAcceptedData["skipped"];
  charged: number;
  refunded: number;
  interruption: string | null;
  email: NonNullable<JobSettledData["email"]> | null;
  createdAt: string;
  completedAt: string | null;
  position: number;
}

export interface ResultRow {
  validationId: string;
  verdict: ResultRecordedData["verdict"];
  severity: ResultRecordedData["severity"];
  reason: string | null;
  reasoning: string;
  findings: ResultRecordedData["findings"];
  captureKeys: string[];
  /** Email renders the result read, with what each client did to the message. */
  renders: NonNullable<ResultRecordedData["renders"]> | null;
  durationMs: number;
  reasonCode: NonNullable<ResultRecordedData["reasonCode"]> | null;
  judge: NonNullable<ResultRecordedData["judge"]> | null;
}

const JOB_SELECT = `SELECT job_id AS jobId, customer_id AS customerId, type, status, subject, validation_set_id AS validationSetId,
  validations, skipped, charged, refunded, interruption, email, created_at AS createdAt, completed_at AS completedAt, created_position AS position FROM jobs`;

function jobFromRow(r: Record<string, any>): JobRow {
  return {
    ...r,
    subject: JSON.parse(r.subject),
    validations: JSON.parse(r.validations),
    skipped: JSON.parse(r.skipped),
    email: r.email ? JSON.parse(r.email) : null,
  } as JobRow;
}

export interface JobQuery {
  customerId: string;
  jobId?: string;
  status?: string;
  /** Only jobs created before this log position (the cursor of the previous page). */
  beforePosition?: number;
  limit: number;
}

export function findJobs(db: ReadModels, q: JobQuery): JobRow[] {
  const where = ["customer_id = $customerId"];
  const params: Record<string, string | number> = { customerId: q.customerId, limit: q.limit };
  if (q.jobId) where.push("job_id = $jobId"), (params.jobId = q.jobId);
  if (q.status) where.push("status = $status"), (params.status = q.status);
  if (q.beforePosition) where.push("created_position < $before"), (params.before = q.beforePosition);
  return db
    .query<Record<string, any>, Record<string, string | number>>(
      `${JOB_SELECT} WHERE ${where.join(" AND ")} ORDER BY created_position DESC LIMIT $limit`,
    )
    .all(params)
    .map(jobFromRow);
}

/** Jobs by id (a run's pages), whatever their organization: the caller names ids it holds. */
export function jobsByIds(db: ReadModels, jobIds: readonly string[]): Map<string, JobRow> {
  if (jobIds.length === 0) return new Map();
  const rows = db
    .query<Record<string, any>, string[]>(`${JOB_SELECT} WHERE job_id IN (${jobIds.map(() => "?").join(",")})`)
    .all(...jobIds);
  return new Map(rows.map((r) => [r.jobId as string, jobFromRow(r)]));
}

/**
 * Webpage jobs accepted but not settled, oldest first, in every organization (after a restart: the ones it cut off);
 * with `nodes`, only those these nodes accepted (several nodes share a log: each runs the jobs it accepted).
 */
export function runningJobs(db: ReadModels, nodes?: readonly string[]): Array<{ jobId: string; customerId: string }> {
  const select = "SELECT job_id AS jobId, customer_id AS customerId FROM jobs WHERE status = 'running'";
  if (!nodes) return db.query<{ jobId: string; customerId: string }, []>(`${select} ORDER BY created_position`).all();
  if (nodes.length === 0) return [];
  return db
    .query<{ jobId: string; customerId: string }, string[]>(
      `${select} AND node IN (${nodes.map(() => "?").join(", ")}) ORDER BY created_position`,
    )
    .all(...nodes);
}

export function resultsFor(db: ReadModels, jobIds: string[]): Map<string, ResultRow[]> {
  const out = new Map<string, ResultRow[]>(jobIds.map((id) => [id, []]));
  if (jobIds.length === 0) return out;
  const rows = db
    .query<Record<string, any>, string[]>(
      `SELECT job_id AS jobId, validation_id AS validationId, verdict, severity, reason, reasoning, findings, capture_keys AS captureKeys, renders, duration_ms AS durationMs,
         reason_code AS reasonCode, judge
       FROM job_results WHERE job_id IN (${jobIds.map(() => "?").join(",")}) ORDER BY position`,
    )
    .all(...jobIds);
  for (const r of rows) {
    const { jobId, ...rest } = r;
    out.get(jobId)!.push({
      ...rest,
      findings: JSON.parse(r.findings),
      captureKeys: JSON.parse(r.captureKeys),
      judge: r.judge ? JSON.parse(r.judge) : null,
      renders: r.renders ? JSON.parse(r.renders) : null,
    } as ResultRow);
  }
  return out;
}

export interface CaptureRow {
  key: string;
  jobId: string;
  customerId: string;
  viewport: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

const CAPTURE_SELECT =
  "SELECT key, job_id AS jobId, customer_id AS customerId, viewport, content_type AS contentType, bytes, sha256 FROM captures";

export function findCapture(db: ReadModels, key: string): CaptureRow | null {
  return db.query<CaptureRow, [string]>(`${CAPTURE_SELECT} WHERE key = ?`).get(key);
}

/** A screenshot of a job, with the boxes of the run's mask selectors measured when it was taken (none without). */
export interface ScreenshotRow extends CaptureRow {
  maskBoxes: NonNullable<CaptureStoredData["maskBoxes"]>;
}

/** These jobs' screenshots (their diff images left out), by job id, in the order they were recorded. */
export function screenshotsOf(db: ReadModels, jobIds: readonly string[]): Map<string, ScreenshotRow[]> {
  const out = new Map<string, ScreenshotRow[]>(jobIds.map((id) => [id, []]));
  if (!jobIds.length) return out;
  const rows = db
    .query<CaptureRow & { maskBoxes: string | null }, string[]>(
      `SELECT key, job_id AS jobId, customer_id AS customerId, viewport, content_type AS contentType, bytes, sha256,
        mask_boxes AS maskBoxes FROM captures WHERE run_id IS NULL AND job_id IN (${jobIds.map(() => "?").join(", ")}) ORDER BY rowid`,
    )
    .all(...jobIds);
  for (const r of rows) out.get(r.jobId)!.push({ ...r, maskBoxes: r.maskBoxes ? JSON.parse(r.maskBoxes) : [] });
  return out;
}
