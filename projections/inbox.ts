import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import type { EmailReceivedData, JobAcceptedData, JobSettledData } from "../events/jobs";

/** Routing for the SMTP inbox: which one-time address belongs to which pending email job. */
export const inboxProjection: Projection = {
  name: "inbox",
  tables: ["inbox_addresses"],
  ddl: `CREATE TABLE IF NOT EXISTS inbox_addresses (
    address TEXT PRIMARY KEY,
    job_id TEXT NOT NULL UNIQUE,
    customer_id TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    state TEXT NOT NULL,
    node TEXT
  )`,
  apply(db, e) {
    switch (e.type) {
      case "JobAccepted": {
        const d = e.data as JobAcceptedData;
        if (d.type !== "email") return;
        db.query(
          "INSERT INTO inbox_addresses (address, job_id, customer_id, expires_at, state) VALUES (?, ?, ?, ?, 'waiting')",
        ).run(d.subject.testEmail!.toLowerCase(), d.jobId, d.customerId, d.subject.expiresAt!);
        return;
      }
      case "EmailReceived":
        // The node whose inbox took the message checks it (several nodes share a log).
        db.query("UPDATE inbox_addresses SET state = 'received', node = ? WHERE job_id = ?").run(
          e.metadata.node ?? null,
          (e.data as EmailReceivedData).jobId,
        );
        return;
      case "JobSettled":
        db.query("UPDATE inbox_addresses SET state = 'closed' WHERE job_id = ?").run((e.data as JobSettledData).jobId);
        return;
    }
  },
};

export interface InboxAddress {
  address: string;
  jobId: string;
  customerId: string;
  expiresAt: string;
  state: "waiting" | "received" | "closed";
}

const SELECT =
  "SELECT address, job_id AS jobId, customer_id AS customerId, expires_at AS expiresAt, state FROM inbox_addresses";

export function findInboxAddress(db: ReadModels, address: string): InboxAddress | null {
  return db.query<InboxAddress, [string]>(`${SELECT} WHERE address = ?`).get(address.toLowerCase());
}

/** Jobs still waiting for mail whose window closed before `now`. */
export function overdueAddresses(db: ReadModels, now: string): InboxAddress[] {
  return db.query<InboxAddress, [string]>(`${SELECT} WHERE state = 'waiting' AND expires_at <= ?`).all(now);
}

/**
 * Jobs whose message arrived but that have not settled (e.g. the process stopped while checking); with `nodes`,
 * only those whose message these nodes' inboxes took.
 */
export function receivedUnsettled(db: ReadModels, nodes?: readonly string[]): InboxAddress[] {
  if (!nodes) return db.query<InboxAddress, []>(`${SELECT} WHERE state = 'received'`).all();
  if (nodes.length === 0) return [];
  return db
    .query<InboxAddress, string[]>(
      `${SELECT} WHERE state = 'received' AND node IN (${nodes.map(() => "?").join(", ")})`,
    )
    .all(...nodes);
}
