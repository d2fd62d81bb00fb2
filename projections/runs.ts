import type { Projection, ReadModels } from "./projection";
import type {
  BaselineSetData,
  IgnoreData,
  ProjectConfiguredData,
  RunCompletedData,
  RunStartedData,
} from "../events/runs";

/** Runs with their pages (each a job), and projects with their base branch and explicit baseline. */
export const runsProjection: Projection = {
  name: "runs",
  tables: ["runs", "run_pages", "projects"],
  ddl: `CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    project TEXT NOT NULL,
    branch TEXT,
    commit_ref TEXT,
    fail_on TEXT NOT NULL,
    ignores TEXT NOT NULL,
    visual TEXT,
    total_credits INTEGER NOT NULL,
    status TEXT NOT NULL,
    decision TEXT,
    base_branch TEXT,
    compared_with TEXT,
    counts TEXT,
    comparison TEXT,
    ignored TEXT,
    visual_diffs TEXT,
    created_at TEXT NOT NULL,
    created_position INTEGER NOT NULL,
    completed_at TEXT,
    completed_position INTEGER,
    node TEXT
  );
  CREATE INDEX IF NOT EXISTS runs_customer ON runs (customer_id, created_position);
  CREATE INDEX IF NOT EXISTS runs_project ON runs (customer_id, project, created_position);
  CREATE INDEX IF NOT EXISTS runs_running ON runs (status);
  CREATE TABLE IF NOT EXISTS run_pages (
    run_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    page_key TEXT NOT NULL,
    name TEXT,
    job_id TEXT NOT NULL,
    type TEXT NOT NULL,
    decision TEXT,
    PRIMARY KEY (run_id, idx)
  );
  CREATE INDEX IF NOT EXISTS run_pages_job ON run_pages (job_id);
  CREATE TABLE IF NOT EXISTS projects (
    customer_id TEXT NOT NULL,
    project TEXT NOT NULL,
    base_branch TEXT,
    baseline_run_id TEXT,
    baseline_position INTEGER,
    latest_run_id TEXT,
    created_at TEXT NOT NULL,
    created_position INTEGER NOT NULL,
    PRIMARY KEY (customer_id, project)
  )`,
  apply(db, e) {
    const project = (customerId: string, name: string) =>
      db
        .query(
          "INSERT INTO projects (customer_id, project, created_at, created_position) VALUES (?, ?, ?, ?) ON CONFLICT (customer_id, project) DO NOTHING",
        )
        .run(customerId, name, e.recordedAt, e.position);
    switch (e.type) {
      case "RunStarted": {
        const d = e.data as RunStartedData;
        db.query(`INSERT INTO runs (run_id, customer_id, project, branch, commit_ref, fail_on, ignores, visual, total_credits, status, created_at, created_position, node)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`).run(
          d.runId,
          d.customerId,
          d.project,
          d.branch ?? null,
          d.commit ?? null,
          d.failOn,
          JSON.stringify(d.ignores),
          d.visual ? JSON.stringify(d.visual) : null,
          d.totalCredits,
          e.recordedAt,
          e.position,
          e.metadata.node ?? null,
        );
        const page = db.query(
          "INSERT INTO run_pages (run_id, idx, page_key, name, job_id, type) VALUES (?, ?, ?, ?, ?, ?)",
        );
        for (const p of d.pages) page.run(d.runId, p.index, p.pageKey, p.name ?? null, p.jobId, p.type);
        project(d.customerId, d.project);
        db.query("UPDATE projects SET latest_run_id = ? WHERE customer_id = ? AND project = ?").run(
          d.runId,
          d.customerId,
          d.project,
        );
        break;
      }
      case "RunCompleted": {
        const d = e.data as RunCompletedData;
        db.query(`UPDATE runs SET status = ?, decision = ?, base_branch = ?, compared_with = ?, counts = ?, comparison = ?, ignored = ?,
          visual_diffs = ?, completed_at = ?, completed_position = ? WHERE run_id = ?`).run(
          d.status,
          d.decision,
          d.baseBranch,
          d.comparedWith ?? null,
          JSON.stringify(d.counts),
          d.comparison ? JSON.stringify(d.comparison) : null,
          JSON.stringify(d.ignored),
          d.visual ? JSON.stringify(d.visual) : null,
          e.recordedAt,
          e.position,
          d.runId,
        );
        const page = db.query("UPDATE run_pages SET decision = ? WHERE run_id = ? AND idx = ?");
        for (const p of d.pages) page.run(p.decision, d.runId, p.index);
        break;
      }
      case "BaselineSet": {
        const d = e.data as BaselineSetData;
        project(d.customerId, d.project);
        db.query(
          "UPDATE projects SET baseline_run_id = ?, baseline_position = ? WHERE customer_id = ? AND project = ?",
        ).run(d.runId, e.position, d.customerId, d.project);
        break;
      }
      case "ProjectConfigured": {
        const d = e.data as ProjectConfiguredData;
        project(d.customerId, d.project);
        db.query("UPDATE projects SET base_branch = ? WHERE customer_id = ? AND project = ?").run(
          d.baseBranch,
          d.customerId,
          d.project,
        );
        break;
      }
    }
  },
};

export interface RunRow {
  runId: string;
  customerId: string;
  project: string;
  branch: string | null;
  commit: string | null;
  failOn: string;
  ignores: IgnoreData[];
  visual: RunStartedData["visual"] | null;
  totalCredits: number;
  status: "running" | RunCompletedData["status"];
  decision: RunCompletedData["decision"] | null;
  baseBranch: string | null;
  comparedWith: string | null;
  counts: RunCompletedData["counts"] | null;
  comparison: RunCompletedData["comparison"] | null;
  ignored: RunCompletedData["ignored"] | null;
  /** The visual comparison RunCompleted recorded: null when the run made none (not asked, no baseline, running). */
  visualDiffs: RunCompletedData["visual"] | null;
  createdAt: string;
  completedAt: string | null;
  position: number;
  completedPosition: number | null;
}

const RUN_SELECT = `SELECT run_id AS runId, customer_id AS customerId, project, branch, commit_ref AS "commit", fail_on AS failOn,
  ignores, visual, total_credits AS totalCredits, status, decision, base_branch AS baseBranch, compared_with AS comparedWith,
  counts, comparison, ignored, visual_diffs AS visualDiffs, created_at AS createdAt, completed_at AS completedAt, created_position AS position,
  completed_position AS completedPosition FROM runs`;

const json = (text: string | null) => (text === null ? null : JSON.parse(text));

function runFromRow(r: Record<string, any>): RunRow {
  return {
    ...r,
    ignores: JSON.parse(r.ignores),
    visual: json(r.visual),
    counts: json(r.counts),
    comparison: json(r.comparison),
    ignored: json(r.ignored),
    visualDiffs: json(r.visualDiffs),
  } as RunRow;
}

/** One run of an organization, or null (another organization's run is none). */
export function findRun(db: ReadModels, customerId: string, runId: string): RunRow | null {
  const row = db
    .query<Record<string, any>, [string, string]>(`${RUN_SELECT} WHERE run_id = ? AND customer_id = ?`)
    .get(runId, customerId);
  return row ? runFromRow(row) : null;
}

export interface RunQuery {
  customerId: string;
  project?: string;
  branch?: string;
  /** Only runs started before this log position (the cursor of the previous page). */
  beforePosition?: number;
  limit: number;
}

/** An organization's runs, newest first. */
export function findRuns(db: ReadModels, q: RunQuery): RunRow[] {
  const where = ["customer_id = $customerId"];
  const params: Record<string, string | number> = { customerId: q.customerId, limit: q.limit };
  if (q.project !== undefined) where.push("project = $project"), (params.project = q.project);
  if (q.branch !== undefined) where.push("branch = $branch"), (params.branch = q.branch);
  if (q.beforePosition) where.push("created_position < $before"), (params.before = q.beforePosition);
  return db
    .query<Record<string, any>, Record<string, string | number>>(
      `${RUN_SELECT} WHERE ${where.join(" AND ")} ORDER BY created_position DESC LIMIT $limit`,
    )
    .all(params)
    .map(runFromRow);
}

export interface RunPageRow {
  index: number;
  pageKey: string;
  name: string | null;
  jobId: string;
  type: RunStartedData["pages"][number]["type"];
  decision: RunCompletedData["decision"] | null;
}

/** A run's pages in their order. */
export function runPages(db: ReadModels, runId: string): RunPageRow[] {
  return db
    .query<RunPageRow, [string]>(
      'SELECT idx AS "index", page_key AS pageKey, name, job_id AS jobId, type, decision FROM run_pages WHERE run_id = ? ORDER BY idx',
    )
    .all(runId);
}

/** The run a job is a page of, if any. */
export function runOfJob(db: ReadModels, jobId: string): { runId: string; customerId: string } | null {
  return db
    .query<{ runId: string; customerId: string }, [string]>(
      "SELECT r.run_id AS runId, r.customer_id AS customerId FROM run_pages p JOIN runs r ON r.run_id = p.run_id WHERE p.job_id = ?",
    )
    .get(jobId);
}

/** How many of a run's pages have a job still open (running, or an email job pending). */
export function openPages(db: ReadModels, runId: string): number {
  return db
    .query<{ n: number }, [string]>(
      `SELECT COUNT(*) AS n FROM run_pages p JOIN jobs j ON j.job_id = p.job_id
       WHERE p.run_id = ? AND j.status IN ('running', 'pending')`,
    )
    .get(runId)!.n;
}

/**
 * Runs not completed whose every page's job has settled (none running or pending): what a lost completion leaves
 * (the process stopped between a run's last settlement and its RunCompleted).
 */
export function settledUnfinishedRuns(db: ReadModels): Array<{ runId: string; customerId: string }> {
  return db
    .query<{ runId: string; customerId: string }, []>(
      `SELECT r.run_id AS runId, r.customer_id AS customerId FROM runs r WHERE r.status = 'running' AND NOT EXISTS (
         SELECT 1 FROM run_pages p JOIN jobs j ON j.job_id = p.job_id WHERE p.run_id = r.run_id AND j.status IN ('running', 'pending')
       ) ORDER BY r.created_position`,
    )
    .all();
}

/** The latest run of a project completed (not interrupted) on a branch, with where it completed in the log. */
export function latestCompletedRun(
  db: ReadModels,
  customerId: string,
  project: string,
  branch: string,
): { runId: string; position: number } | null {
  return db
    .query<{ runId: string; position: number }, [string, string, string]>(
      `SELECT run_id AS runId, completed_position AS position FROM runs
       WHERE customer_id = ? AND project = ? AND branch = ? AND status = 'completed' ORDER BY completed_position DESC LIMIT 1`,
    )
    .get(customerId, project, branch);
}

export interface ProjectRow {
  project: string;
  baseBranch: string | null;
  baselineRunId: string | null;
  baselinePosition: number | null;
  latestRunId: string | null;
  runs: number;
  createdAt: string;
}

const PROJECT_SELECT = `SELECT p.project, p.base_branch AS baseBranch, p.baseline_run_id AS baselineRunId,
  p.baseline_position AS baselinePosition, p.latest_run_id AS latestRunId, p.created_at AS createdAt,
  (SELECT COUNT(*) FROM runs r WHERE r.customer_id = p.customer_id AND r.project = p.project) AS runs FROM projects p`;

/** An organization's projects, by name. */
export function findProjects(db: ReadModels, customerId: string): ProjectRow[] {
  return db.query<ProjectRow, [string]>(`${PROJECT_SELECT} WHERE p.customer_id = ? ORDER BY p.project`).all(customerId);
}

export function findProject(db: ReadModels, customerId: string, project: string): ProjectRow | null {
  return db
    .query<ProjectRow, [string, string]>(`${PROJECT_SELECT} WHERE p.customer_id = ? AND p.project = ?`)
    .get(customerId, project);
}
