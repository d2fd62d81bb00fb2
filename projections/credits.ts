import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import { creditDelta, isCreditEvent, type CreditEvent } from "../events";

/** Balances and the ledger: a cache of the fold of each organization's credit stream. */
export const creditsProjection: Projection = {
  name: "credits",
  tables: ["credit_balances", "credit_ledger", "credit_grant_periods"],
  ddl: `CREATE TABLE IF NOT EXISTS credit_balances (
    customer_id TEXT PRIMARY KEY,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    stream_version INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS credit_ledger (
    position INTEGER PRIMARY KEY,
    customer_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    job_id TEXT,
    reason TEXT,
    balance_after INTEGER NOT NULL,
    recorded_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS credit_ledger_customer ON credit_ledger (customer_id, position);
  CREATE INDEX IF NOT EXISTS credit_ledger_job ON credit_ledger (job_id, kind);
  CREATE TABLE IF NOT EXISTS credit_grant_periods (
    customer_id TEXT NOT NULL,
    period TEXT NOT NULL,
    plan_code TEXT NOT NULL,
    PRIMARY KEY (customer_id, period, plan_code)
  )`,
  apply(db, e) {
    if (!e.streamId.startsWith("credits-") || !isCreditEvent(e)) return;
    const d = e.data;
    const { jobId, reason } = ledgerLink(e);
    const prior = db
      .query<{ balance: number }, [string]>("SELECT balance FROM credit_balances WHERE customer_id = ?")
      .get(d.customerId);
    const delta = creditDelta(e);
    const balance = (prior?.balance ?? 0) + delta;
    db.query(
      "INSERT INTO credit_balances (customer_id, balance, stream_version) VALUES (?, ?, ?) ON CONFLICT (customer_id) DO UPDATE SET balance = excluded.balance, stream_version = excluded.stream_version",
    ).run(d.customerId, balance, e.streamVersion);
    if (e.type === "CreditsGranted" && e.data.period && e.data.planCode) {
      db.query("INSERT INTO credit_grant_periods (customer_id, period, plan_code) VALUES (?, ?, ?)").run(
        d.customerId,
        e.data.period,
        e.data.planCode,
      );
    }
    db.query(
      "INSERT INTO credit_ledger (position, customer_id, kind, amount, job_id, reason, balance_after, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(e.position, d.customerId, e.type, delta, jobId, reason, balance, e.recordedAt);
  },
};

/** What a ledger line points at: the job a charge or refund belongs to, or why credits were granted. */
function ledgerLink(e: CreditEvent): { jobId: string | null; reason: string | null } {
  switch (e.type) {
    case "CreditsGranted":
      return { jobId: e.data.feedback?.jobId ?? null, reason: e.data.reason };
    case "CreditsDeducted":
      return { jobId: null, reason: e.data.reason };
    case "CreditsCharged":
    case "CreditsRefunded":
      return { jobId: e.data.jobId, reason: null };
  }
}

export interface CreditState {
  balance: number;
  streamVersion: number;
}

export function creditState(db: ReadModels, customerId: string): CreditState {
  return (
    db
      .query<CreditState, [string]>(
        "SELECT balance, stream_version AS streamVersion FROM credit_balances WHERE customer_id = ?",
      )
      .get(customerId) ?? { balance: 0, streamVersion: 0 }
  );
}

/** The periods (with their plan) a signup or monthly grant covers, as `period/planCode` (the credit decider's periodKey). */
export function grantedPeriods(db: ReadModels, customerId: string): Set<string> {
  const rows = db
    .query<{ key: string }, [string]>(
      "SELECT period || '/' || plan_code AS key FROM credit_grant_periods WHERE customer_id = ?",
    )
    .all(customerId);
  return new Set(rows.map((r) => r.key));
}

export interface LedgerEntry {
  position: number;
  kind: string;
  amount: number;
  jobId: string | null;
  reason: string | null;
  balanceAfter: number;
  recordedAt: string;
}

export function recentLedger(db: ReadModels, customerId: string, limit: number): LedgerEntry[] {
  return db
    .query<LedgerEntry, [string, number]>(
      "SELECT position, kind, amount, job_id AS jobId, reason, balance_after AS balanceAfter, recorded_at AS recordedAt FROM credit_ledger WHERE customer_id = ? ORDER BY position DESC LIMIT ?",
    )
    .all(customerId, limit);
}

/** The customer that holds a charge for this job id, if any (one charge per job id is an invariant). */
export function chargeForJob(db: ReadModels, jobId: string): { customerId: string; amount: number } | null {
  return db
    .query<{ customerId: string; amount: number }, [string]>(
      "SELECT customer_id AS customerId, -amount AS amount FROM credit_ledger WHERE job_id = ? AND kind = 'CreditsCharged'",
    )
    .get(jobId);
}

export function allBalances(db: ReadModels): Map<string, number> {
  const rows = db
    .query<{ customerId: string; balance: number }, []>(
      "SELECT customer_id AS customerId, balance FROM credit_balances",
    )
    .all();
  return new Map(rows.map((r) => [r.customerId, r.balance]));
}
