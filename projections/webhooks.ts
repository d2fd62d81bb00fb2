import type { Database } from "bun:sqlite";
import type { EventEnvelope, StoredEvent } from "../src/store/event-log";
import { sha256Hex } from "../src/store/canonical";
import type { EventName, EventOf, WebhookEventName } from "../events";
import type { Projection, ReadModels } from "./projection";

/** A log event announced to the endpoints of an organization that subscribed to its webhook event type. */
interface Announcement {
  customerId: string;
  type: WebhookEventName;
  /** What it is about: the job's id (a run's, for the run events). */
  subjectId: string;
}

/**
 * The outbox: which events of the log become which webhook events, for whose organization, about what. A delivery is
 * made here, when the announcing event is folded, for every endpoint of that organization subscribed then to that
 * type: no event of its own, so a delivery is as durable as the event that announces it, and replay makes the same
 * ones. What each webhook event carries is the other half of the table, PAYLOADS in src/services/webhooks.ts.
 * A run's pages announce nothing of their own: their run does, once (run.completed, and run.regressed too when it has
 * new failures), so a 200-page run is one delivery, not 201.
 */
const OUTBOX: { [N in EventName]?: (db: Database, event: EventEnvelope & EventOf<N>) => Announcement[] } = {
  JobSettled: (db, e) => {
    const owner = db
      .query<{ customerId: string; runId: string | null }, [string]>(
        "DELETE FROM webhook_job_owners WHERE job_id = ? RETURNING customer_id AS customerId, run_id AS runId",
      )
      .get(e.data.jobId);
    return owner && owner.runId === null
      ? [{ customerId: owner.customerId, type: "job.completed", subjectId: e.data.jobId }]
      : [];
  },
  RunCompleted: (_db, e) => {
    const { customerId, runId, counts } = e.data;
    const completed: Announcement = { customerId, type: "run.completed", subjectId: runId };
    return counts.newFailures > 0 ? [completed, { customerId, type: "run.regressed", subjectId: runId }] : [completed];
  },
};

/** A delivery's id, the same on every node and at every replay: its webhook-id, which receivers deduplicate on. */
const deliveryIdOf = (endpointId: string, a: Announcement) =>
  `msg_${sha256Hex(`${endpointId}\n${a.type}\n${a.subjectId}`).slice(0, 32)}`;

/**
 * Webhook endpoints (never their secrets: only the nonce they are derived from), the deliveries the outbox made for
 * them with each attempt, and the open jobs' organizations and runs (a job's row goes when it settles).
 */
export const webhooksProjection: Projection = {
  name: "webhooks",
  tables: ["webhook_endpoints", "webhook_job_owners", "webhook_deliveries", "webhook_delivery_attempts"],
  ddl: `CREATE TABLE IF NOT EXISTS webhook_endpoints (
    endpoint_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    secret_nonce TEXT NOT NULL,
    created_at TEXT NOT NULL,
    secret_rotated_at TEXT,
    position INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS webhook_endpoints_customer ON webhook_endpoints (customer_id, position);
  CREATE TABLE IF NOT EXISTS webhook_job_owners (
    job_id TEXT PRIMARY KEY,
    customer_id TEXT NOT NULL,
    run_id TEXT
  );
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    seq INTEGER PRIMARY KEY,
    delivery_id TEXT NOT NULL UNIQUE,
    endpoint_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    window_started_at TEXT NOT NULL,
    window_attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    last_attempt_at TEXT,
    last_http_status INTEGER,
    last_error TEXT
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, seq);
  CREATE TABLE IF NOT EXISTS webhook_delivery_attempts (
    delivery_id TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    attempted_at TEXT NOT NULL,
    status TEXT NOT NULL,
    http_status INTEGER,
    error TEXT,
    response_excerpt TEXT,
    next_attempt_at TEXT,
    PRIMARY KEY (delivery_id, attempt)
  )`,
  apply(db, e) {
    switch (e.type) {
      case "RunStarted":
        // Written before its pages' JobAccepted, in the same commit: each page is known as the run's when accepted.
        for (const page of e.data.pages)
          db.query("INSERT INTO webhook_job_owners (job_id, customer_id, run_id) VALUES (?, ?, ?)").run(
            page.jobId,
            e.data.customerId,
            e.data.runId,
          );
        break;
      case "JobAccepted":
        db.query("INSERT OR IGNORE INTO webhook_job_owners (job_id, customer_id) VALUES (?, ?)").run(
          e.data.jobId,
          e.data.customerId,
        );
        break;
      case "WebhookEndpointAdded": {
        const d = e.data;
        db.query(
          `INSERT INTO webhook_endpoints (endpoint_id, customer_id, url, events, description, secret_nonce, created_at, position)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          d.endpointId,
          d.customerId,
          d.url,
          JSON.stringify(d.events),
          d.description ?? null,
          d.secretNonce,
          e.recordedAt,
          e.position,
        );
        break;
      }
      case "WebhookSecretRotated":
        db.query("UPDATE webhook_endpoints SET secret_nonce = ?, secret_rotated_at = ? WHERE endpoint_id = ?").run(
          e.data.secretNonce,
          e.recordedAt,
          e.data.endpointId,
        );
        break;
      case "WebhookEndpointRemoved":
        db.query(
          "DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (SELECT delivery_id FROM webhook_deliveries WHERE endpoint_id = ?)",
        ).run(e.data.endpointId);
        db.query("DELETE FROM webhook_deliveries WHERE endpoint_id = ?").run(e.data.endpointId);
        db.query("DELETE FROM webhook_endpoints WHERE endpoint_id = ?").run(e.data.endpointId);
        break;
      case "WebhookDeliveryAttempted": {
        const d = e.data;
        // A delivery whose endpoint went while it was attempted is gone, and its attempt with it.
        const updated = db
          .query(
            `UPDATE webhook_deliveries SET status = ?, attempts = ?, window_attempts = window_attempts + 1, next_attempt_at = ?,
             last_attempt_at = ?, last_http_status = ?, last_error = ? WHERE delivery_id = ?`,
          )
          .run(
            d.status === "retrying" ? "pending" : d.status,
            d.attempt,
            d.nextAttemptAt ?? null,
            d.attemptedAt,
            d.httpStatus ?? null,
            d.error ?? null,
            d.deliveryId,
          );
        if (updated.changes === 0) break;
        db.query(
          `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, attempted_at, status, http_status, error, response_excerpt, next_attempt_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          d.deliveryId,
          d.attempt,
          d.attemptedAt,
          d.status,
          d.httpStatus ?? null,
          d.error ?? null,
          d.responseExcerpt ?? null,
          d.nextAttemptAt ?? null,
        );
        break;
      }
      case "WebhookDeliveryReplayed":
        db.query(
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, window_started_at = ?, window_attempts = 0
           WHERE delivery_id = ?`,
        ).run(e.recordedAt, e.recordedAt, e.data.deliveryId);
        break;
    }
    const announce = OUTBOX[e.type] as ((db: Database, event: StoredEvent) => Announcement[]) | undefined;
    for (const a of announce?.(db, e) ?? []) deliver(db, a, e.recordedAt);
  },
};

/** A delivery of the announcement to each endpoint of its organization subscribed to its type, due at once. */
function deliver(db: Database, a: Announcement, at: string): void {
  const endpoints = db
    .query<{ endpointId: string }, [string, string]>(
      `SELECT endpoint_id AS endpointId FROM webhook_endpoints
       WHERE customer_id = ? AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = ?) ORDER BY position`,
    )
    .all(a.customerId, a.type);
  const insert = db.query(
    `INSERT INTO webhook_deliveries (delivery_id, endpoint_id, customer_id, event_type, subject_id, occurred_at, status, window_started_at, next_attempt_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  );
  for (const { endpointId } of endpoints)
    insert.run(deliveryIdOf(endpointId, a), endpointId, a.customerId, a.type, a.subjectId, at, at, at);
}

/** An endpoint as its organization sees it: never its secret. */
export interface WebhookEndpointRow {
  endpointId: string;
  customerId: string;
  url: string;
  events: WebhookEventName[];
  description: string | null;
  /** What the current secret is derived from (with the server's signing secret); not a secret by itself. */
  secretNonce: string;
  createdAt: string;
  secretRotatedAt: string | null;
}

const ENDPOINT_SELECT = `SELECT endpoint_id AS endpointId, customer_id AS customerId, url, events, description,
  secret_nonce AS secretNonce, created_at AS createdAt, secret_rotated_at AS secretRotatedAt FROM webhook_endpoints`;
type EndpointRecord = Omit<WebhookEndpointRow, "events"> & { events: string };
const endpointOf = (r: EndpointRecord): WebhookEndpointRow => ({ ...r, events: JSON.parse(r.events) });

export function endpointsOf(db: ReadModels, customerId: string): WebhookEndpointRow[] {
  return db
    .query<EndpointRecord, [string]>(`${ENDPOINT_SELECT} WHERE customer_id = ? ORDER BY position`)
    .all(customerId)
    .map(endpointOf);
}

/** The organization's endpoint of this id; another organization's is not found, as a missing one. */
export function findEndpoint(db: ReadModels, customerId: string, endpointId: string): WebhookEndpointRow | null {
  const row = db
    .query<EndpointRecord, [string, string]>(`${ENDPOINT_SELECT} WHERE customer_id = ? AND endpoint_id = ?`)
    .get(customerId, endpointId);
  return row ? endpointOf(row) : null;
}

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

/** A delivery: what it announces, where it stands, and its retry window. */
export interface WebhookDeliveryRow {
  seq: number;
  deliveryId: string;
  endpointId: string;
  customerId: string;
  eventType: WebhookEventName;
  subjectId: string;
  /** When the announcing event was recorded: the payload's timestamp. */
  occurredAt: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When retrying started (the announcement, or the last replay), and the attempts since. */
  windowStartedAt: string;
  windowAttempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastHttpStatus: number | null;
  lastError: string | null;
}

const DELIVERY_SELECT = `SELECT seq, delivery_id AS deliveryId, endpoint_id AS endpointId, customer_id AS customerId,
  event_type AS eventType, subject_id AS subjectId, occurred_at AS occurredAt, status, attempts,
  window_started_at AS windowStartedAt, window_attempts AS windowAttempts, next_attempt_at AS nextAttemptAt,
  last_attempt_at AS lastAttemptAt, last_http_status AS lastHttpStatus, last_error AS lastError FROM webhook_deliveries`;

/** An endpoint's deliveries, newest first; `beforeSeq` continues a page. */
export function deliveriesOf(
  db: ReadModels,
  endpointId: string,
  page: { beforeSeq?: number; limit: number },
): WebhookDeliveryRow[] {
  return db
    .query<WebhookDeliveryRow, [string, number, number]>(
      `${DELIVERY_SELECT} WHERE endpoint_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    )
    .all(endpointId, page.beforeSeq ?? Number.MAX_SAFE_INTEGER, page.limit);
}

export function findDelivery(db: ReadModels, endpointId: string, deliveryId: string): WebhookDeliveryRow | null {
  return db
    .query<WebhookDeliveryRow, [string, string]>(`${DELIVERY_SELECT} WHERE endpoint_id = ? AND delivery_id = ?`)
    .get(endpointId, deliveryId);
}

/** How many deliveries of each status an endpoint has. */
export function deliveryCounts(db: ReadModels, endpointId: string): Record<WebhookDeliveryStatus, number> {
  const counts = { pending: 0, delivered: 0, failed: 0 };
  for (const r of db
    .query<{ status: WebhookDeliveryStatus; n: number }, [string]>(
      "SELECT status, COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? GROUP BY status",
    )
    .all(endpointId))
    counts[r.status] = r.n;
  return counts;
}

/** Deliveries due at `now`, oldest due first, with where they go and what signs them. */
export function dueDeliveries(
  db: ReadModels,
  now: string,
  limit: number,
): Array<WebhookDeliveryRow & { url: string; secretNonce: string }> {
  return db
    .query<WebhookDeliveryRow & { url: string; secretNonce: string }, [string, number]>(
      `SELECT d.*, e.url AS url, e.secret_nonce AS secretNonce FROM (${DELIVERY_SELECT}) d
       JOIN webhook_endpoints e ON e.endpoint_id = d.endpointId
       WHERE d.status = 'pending' AND d.nextAttemptAt <= ? ORDER BY d.nextAttemptAt, d.seq LIMIT ?`,
    )
    .all(now, limit);
}

export interface WebhookAttemptRow {
  attempt: number;
  attemptedAt: string;
  status: "delivered" | "retrying" | "failed";
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
  nextAttemptAt: string | null;
}

/** A delivery's latest `limit` attempts, oldest first. */
export function attemptsOf(db: ReadModels, deliveryId: string, limit: number): WebhookAttemptRow[] {
  return db
    .query<WebhookAttemptRow, [string, number]>(
      `SELECT * FROM (SELECT attempt, attempted_at AS attemptedAt, status, http_status AS httpStatus, error,
         response_excerpt AS responseExcerpt, next_attempt_at AS nextAttemptAt
       FROM webhook_delivery_attempts WHERE delivery_id = ? ORDER BY attempt DESC LIMIT ?) ORDER BY attempt`,
    )
    .all(deliveryId, limit);
}
