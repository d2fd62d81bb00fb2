import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SQL } from "bun";
import { APPEND_LOCK } from "./pg-event-table";

/** A node as the others see it: when it started and when it last said it was alive (the database's clock). */
export interface NodeRecord {
  nodeId: string;
  startedAt: string;
  seenAt: string;
  /** Seconds since seenAt, by the database's clock. */
  silentSeconds: number;
}

/**
 * What nodes sharing one log agree on beside it: who is alive (a heartbeat each), and who does the work that must
 * happen once across all of them (the expiry sweep, the monthly grant, closing what a dead node left): a lease.
 * Neither is an event: they say nothing about jobs or credits, only who acts.
 */
export interface Coordinator {
  readonly nodeId: string;
  /** Says this node is alive now. */
  heartbeat(): Promise<void>;
  /** Other nodes not heard from for `seconds`: their running work is theirs no more. */
  silentNodes(seconds: number): Promise<string[]>;
  /** Takes or renews the named lease for `seconds` unless another node holds it unexpired; true when this node holds it. */
  acquire(lease: string, seconds: number): Promise<boolean>;
  nodes(): Promise<NodeRecord[]>;
  /** A clean stop: its leases go and it counts as silent at once, so the others take over what it leaves now. */
  leave(): Promise<void>;
}

/**
 * Counts per key in a fixed window, shared by every node (PostgreSQL): the per-address limits (signups, sign-in
 * links, playground runs) count each address once across nodes, not once per node.
 */
export interface WindowCounter {
  /** Counts one for the key; answers the count in its window (this one included) and when the window ends. */
  hit(limit: string, key: string, windowSeconds: number): Promise<{ hits: number; msBeforeReset: number }>;
  /** Takes one back (an attempt refused, by this limit or another). */
  unhit(limit: string, key: string): Promise<void>;
  /** The count in the key's window (0 once it ended) and when the window ends, counting nothing. */
  peek(limit: string, key: string): Promise<{ hits: number; msBeforeReset: number }>;
}

/** One process on its own SQLite log: it is every node there is, and holds every lease. */
export class SoleNode implements Coordinator {
  readonly nodeId = "sole";
  heartbeat(): Promise<void> {
    return Promise.resolve();
  }
  silentNodes(): Promise<string[]> {
    return Promise.resolve([]);
  }
  acquire(): Promise<boolean> {
    return Promise.resolve(true);
  }
  nodes(): Promise<NodeRecord[]> {
    return Promise.resolve([]);
  }
  leave(): Promise<void> {
    return Promise.resolve();
  }
}

const CLUSTER_SCHEMA = `
CREATE TABLE IF NOT EXISTS assay_nodes (
  node_id TEXT PRIMARY KEY,
  started_at TIMESTAMPTZ NOT NULL,
  seen_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS assay_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS assay_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS assay_limits (
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  window_ends TIMESTAMPTZ NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (name, key)
);
`;

/**
 * Nodes, leases and the shared window counts in the PostgreSQL database the log is in; every time is the
 * database's, so nodes' clocks may differ.
 */
export class PgCoordinator implements Coordinator, WindowCounter {
  private constructor(
    private readonly sql: SQL,
    readonly nodeId: string,
  ) {}

  static async open(sql: SQL, nodeId: string): Promise<PgCoordinator> {
    // Nodes starting together would race on CREATE TABLE IF NOT EXISTS (a duplicate type error): made under the log's lock.
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`;
      await tx.unsafe(CLUSTER_SCHEMA);
    });
    const coordinator = new PgCoordinator(sql, nodeId);
    await sql`INSERT INTO assay_nodes (node_id, started_at, seen_at) VALUES (${nodeId}, now(), now())
      ON CONFLICT (node_id) DO UPDATE SET started_at = now(), seen_at = now()`;
    return coordinator;
  }

  async heartbeat(): Promise<void> {
    await this.sql`INSERT INTO assay_nodes (node_id, started_at, seen_at) VALUES (${this.nodeId}, now(), now())
      ON CONFLICT (node_id) DO UPDATE SET seen_at = now()`;
    // Counts whose window ended are worth nothing: the heartbeat keeps the table to the live ones.
    await this.sql`DELETE FROM assay_limits WHERE window_ends < now()`;
  }

  /** A random secret every node shares (the share links' signing key): made by the first node that asks. */
  async sharedSecret(name: string): Promise<Buffer> {
    await this
      .sql`INSERT INTO assay_secrets (name, value) VALUES (${name}, ${randomBytes(32).toString("hex")}) ON CONFLICT (name) DO NOTHING`;
    const [row] = await this.sql`SELECT value FROM assay_secrets WHERE name = ${name}`;
    return Buffer.from(row.value, "hex");
  }

  async hit(limit: string, key: string, windowSeconds: number): Promise<{ hits: number; msBeforeReset: number }> {
    const [row] = await this.sql`INSERT INTO assay_limits (name, key, window_ends, hits)
      VALUES (${limit}, ${key}, now() + make_interval(secs => ${windowSeconds}), 1)
      ON CONFLICT (name, key) DO UPDATE SET
        hits = CASE WHEN assay_limits.window_ends <= now() THEN 1 ELSE assay_limits.hits + 1 END,
        window_ends = CASE WHEN assay_limits.window_ends <= now() THEN excluded.window_ends ELSE assay_limits.window_ends END
      RETURNING hits, EXTRACT(EPOCH FROM window_ends - now())::float8 AS seconds_left`;
    return { hits: row.hits, msBeforeReset: Math.max(0, row.seconds_left * 1000) };
  }

  async unhit(limit: string, key: string): Promise<void> {
    await this.sql`UPDATE assay_limits SET hits = GREATEST(hits - 1, 0) WHERE name = ${limit} AND key = ${key}`;
  }

  async peek(limit: string, key: string): Promise<{ hits: number; msBeforeReset: number }> {
    const [row] = await this.sql`SELECT hits, EXTRACT(EPOCH FROM window_ends - now())::float8 AS seconds_left
      FROM assay_limits WHERE name = ${limit} AND key = ${key} AND window_ends > now()`;
    return row
      ? { hits: row.hits, msBeforeReset: Math.max(0, row.seconds_left * 1000) }
      : { hits: 0, msBeforeReset: 0 };
  }

  async silentNodes(seconds: number): Promise<string[]> {
    const rows: Array<{ node_id: string }> = await this.sql`SELECT node_id FROM assay_nodes
      WHERE node_id <> ${this.nodeId} AND seen_at < now() - make_interval(secs => ${seconds})`;
    return rows.map((r) => r.node_id);
  }

  async acquire(lease: string, seconds: number): Promise<boolean> {
    const rows: Array<{ holder: string }> = await this.sql`INSERT INTO assay_leases (name, holder, expires_at)
      VALUES (${lease}, ${this.nodeId}, now() + make_interval(secs => ${seconds}))
      ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
        WHERE assay_leases.holder = excluded.holder OR assay_leases.expires_at < now()
      RETURNING holder`;
    return rows[0]?.holder === this.nodeId;
  }

  async nodes(): Promise<NodeRecord[]> {
    const rows: Array<{ node_id: string; started_at: Date; seen_at: Date; silent: number }> = await this
      .sql`SELECT node_id, started_at, seen_at,
      EXTRACT(EPOCH FROM now() - seen_at)::float8 AS silent FROM assay_nodes ORDER BY node_id`;
    return rows.map((r) => ({
      nodeId: r.node_id,
      startedAt: new Date(r.started_at).toISOString(),
      seenAt: new Date(r.seen_at).toISOString(),
      silentSeconds: Math.max(0, Math.round(r.silent * 10) / 10),
    }));
  }

  async leave(): Promise<void> {
    await this.sql`DELETE FROM assay_leases WHERE holder = ${this.nodeId}`;
    await this.sql`UPDATE assay_nodes SET seen_at = 'epoch' WHERE node_id = ${this.nodeId}`;
  }
}

/**
 * This node's id: ASSAY_NODE_ID when set, else one made at its first start and kept in its data directory, so a
 * node that restarts is the same node (and closes the work it left) while two nodes never share one.
 */
export function nodeIdOf(dataDir: string, configured?: string): string {
  if (configured) return configured;
  const path = join(dataDir, "node-id");
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const id = `node_${randomBytes(6).toString("hex")}`;
  writeFileSync(path, `${id}\n`, { flag: "wx" });
  return id;
}
