import { DEFAULT_OCR_OPTIONS, TextReader } from "./capture/ocr";
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, type Config } from "./config";
import type { EventLog } from "./store/event-log";
import { KeyUsage } from "./store/key-usage";
import type { SqliteEventTable } from "./store/sqlite-event-table";
import { SqliteEventLog } from "./store/sqlite-event-log";
import { Replica, ReplicaDivergedError } from "./store/replica";
import { copyLog, PgEventTable } from "./store/pg-event-table";
import { auditLog } from "./services/audit";
import { PgEventLog } from "./store/pg-event-log";
import { nodeIdOf, PgCoordinator, SoleNode, type Coordinator } from "./store/coordinator";
import { NodeDuties } from "./services/node-duties";
import { eventTypes } from "../events";
import { installProjections } from "../projections";
import type { ReadModels } from "../projections/projection";
import { NetworkGuard } from "./capture/network-guard";
import { addressResolverFor } from "./capture/email/dns-resolver";
import { BrowserPool } from "./capture/browser-pool";
import { EngineCaptures } from "./capture/engines/engine-captures";
import { WebCaptureEngine } from "./capture/web-capture";
import { EmailCaptureEngine } from "./capture/email/email-capture";
import { AccountService } from "./services/accounts";
import { AddressLimits } from "./services/address-limits";
import { JobService } from "./services/jobs";
import { JobQuotes } from "./services/job-quotes";
import { RunService } from "./services/runs";
import { CaptureService, persistentSecret } from "./services/captures";
import { DirectoryStore, S3Store, type ObjectStore } from "./store/object-store";
import { CatalogService } from "./services/catalog";
import { FeedbackService } from "./services/feedback";
import { loadFeedbackSets } from "./catalog/feedback-sets";
import { OperatorService } from "./services/operator";
import { SessionService } from "./services/sessions";
import { OidcSignIn } from "./services/oidc";
import { MembersService } from "./services/members";
import { DeviceService } from "./services/device";
import { WebhookService } from "./services/webhooks";
import { createMailer } from "./services/mailer";
import { judgeFor } from "./judge/enabled";
import { MailStore } from "./store/mail-store";
import { PlanService } from "./services/plans";
import { PlaygroundService, playgroundOffer } from "./services/playground";
import { DiscoveryService } from "./services/discovery";
import { EmailClientCatalog } from "./services/email-client-catalog";
import { LocalBillingProvider } from "./services/billing/local";
import { StripeBillingProvider } from "./services/billing/stripe";
import type { BillingProvider } from "./services/billing/provider";
import { loadPlanCatalog, type PlanCatalog } from "./catalog/plans";
import type { ServiceContext } from "./services/context";
import type { Services } from "./services/facade";

/**
 * The composition root: one event log, one guard, one browser pool per process, and the services over them.
 * Surfaces receive the Services facade; the pool is here for the runtime (warm-up, shutdown).
 */
export interface Assay extends Services {
  pool: BrowserPool;
  close(): Promise<void>;
}

/** This node's event log, and what it keeps beside it in its SQLite file (the SQLite log's, or the replica's). */
export interface OpenedLog {
  log: EventLog;
  /** The read models, for the services' queries. */
  readModels: ReadModels;
  /** Each key's last use: an observation, not an event. */
  keyUsage: KeyUsage;
  /** What coordinates this node with the others (SoleNode on SQLite). */
  coordinator: Coordinator;
}

const opened = (log: EventLog, file: SqliteEventTable, coordinator: Coordinator): OpenedLog => ({
  log,
  readModels: file.db,
  keyUsage: new KeyUsage(file.db),
  coordinator,
});

/** The SQLite log with its read models, in the data directory. */
export const SQLITE_LOG_FILE = "assay.sqlite";

/** This node's replica of the PostgreSQL log with its read models: a file of its own, never the SQLite log's. */
export const REPLICA_FILE = "assay-replica.sqlite";

/** The SQLite log and its read models in a data directory. */
export function openSqliteLog(dataDir: string): SqliteEventLog {
  mkdirSync(dataDir, { recursive: true });
  const log = new SqliteEventLog(join(dataDir, SQLITE_LOG_FILE), eventTypes);
  installProjections(log);
  return log;
}

/** This node's replica of the PostgreSQL log and its read models in a data directory. */
export function openReplica(dataDir: string): Replica {
  mkdirSync(dataDir, { recursive: true });
  const replica = new Replica(join(dataDir, REPLICA_FILE), eventTypes);
  installProjections(replica);
  return replica;
}

/**
 * The event log ASSAY_DATABASE_URL names (PostgreSQL, shared by every node), or the SQLite one in DATA_DIR, with
 * what coordinates this node with the others. A replica that is not the shared log's (the database was replaced)
 * is moved aside and a fresh one pulled from the log.
 */
export async function openEventLog(config: Config): Promise<OpenedLog> {
  if (!config.databaseUrl) {
    const log = openSqliteLog(config.dataDir);
    return opened(log, log, new SoleNode());
  }
  const nodeId = nodeIdOf(config.dataDir, config.nodeId);
  const table = await PgEventTable.open(config.databaseUrl);
  try {
    const coordinator = await PgCoordinator.open(table.sql, nodeId);
    let replica = openReplica(config.dataDir);
    try {
      return opened(await PgEventLog.open(table, replica, nodeId), replica, coordinator);
    } catch (e) {
      replica.close();
      if (!(e instanceof ReplicaDivergedError)) throw e;
      const aside = join(config.dataDir, `${REPLICA_FILE}.diverged-${Date.now()}`);
      console.error(`${e.message}: moved to ${aside}; pulling a fresh copy from the shared log.`);
      for (const suffix of ["", "-wal", "-shm"])
        renameSync(join(config.dataDir, REPLICA_FILE + suffix), aside + suffix);
      replica = openReplica(config.dataDir);
      return opened(await PgEventLog.open(table, replica, nodeId), replica, coordinator);
    }
  } catch (e) {
    await table.close();
    throw e;
  }
}

/** Where screenshots and received messages live: the S3 bucket ASSAY_S3_BUCKET names, or the shared directory. */
function objectStoreFor(config: Config): ObjectStore {
  return config.s3 ? new S3Store(config.s3) : new DirectoryStore(config.sharedDir);
}

/**
 * The server's signing key, the same on every node: share links are signed with it and webhook endpoints' secrets
 * derive from it. ASSAY_SHARE_SECRET; else, where nodes share a database, one kept there; else one kept in the shared
 * directory.
 */
async function shareLinkSecret(config: Config, coordinator: Coordinator): Promise<Buffer> {
  if (config.shareLinkSecret) return Buffer.from(config.shareLinkSecret);
  if (coordinator instanceof PgCoordinator) return coordinator.sharedSecret("share-link");
  return persistentSecret(config.sharedDir);
}

/** Builds the whole service graph for one process. */
export async function createAssay(config: Config = loadConfig()): Promise<Assay> {
  // Before anything opens: a broken sets file, plan catalog or playground setting stops the start with its name and problem.
  const feedbackSets = loadFeedbackSets(config.feedbackSetsFile);
  const plansOver = plansFor(config);
  const offer = playgroundOffer(config.playground);
  const guard = new NetworkGuard(config.allowPrivateTargets, addressResolverFor(config));
  const pool = BrowserPool.fromConfig(config);
  const { log, readModels, keyUsage, coordinator } = await openEventLog(config);
  const textReader = new TextReader({ ...DEFAULT_OCR_OPTIONS, command: config.tesseractPath });
  const webCapture = new WebCaptureEngine(pool, guard, textReader);
  const engines = new EngineCaptures(pool, guard, config.webkitOff, config.webkitSessions, {
    off: config.geckoOff,
    firefoxPath: config.firefoxPath,
  });
  const emailCapture = new EmailCaptureEngine(pool, config, guard, textReader, engines);
  const objects = objectStoreFor(config);
  const serverSecret = await shareLinkSecret(config, coordinator);
  const captures = new CaptureService({ config, readModels }, objects, serverSecret);
  const judge = judgeFor(config);
  const mail = new MailStore(objects);
  const plans = plansOver({ log, readModels });
  const emailClients = new EmailClientCatalog(config.emailClientsFile);
  const ctx: ServiceContext = {
    config,
    log,
    readModels,
    keyUsage,
    guard,
    pool,
    webCapture,
    engines,
    emailCapture,
    captures,
    judge,
    mail,
    plans,
    emailClients,
    ...(coordinator instanceof PgCoordinator ? { sharedCounts: coordinator } : {}),
    limits: new AddressLimits(config, coordinator instanceof PgCoordinator ? coordinator : undefined),
  };
  const accounts = new AccountService(ctx);
  const mailer = createMailer(config);
  const sessions = new SessionService(ctx, mailer);
  const quotes = new JobQuotes(ctx);
  const jobs = new JobService(ctx, quotes);
  const runs = new RunService(ctx, quotes, jobs);
  const webhooks = new WebhookService(ctx, jobs, runs, serverSecret);
  return {
    config,
    accounts,
    sessions,
    oidc: new OidcSignIn(config, sessions),
    members: new MembersService(ctx, mailer, sessions),
    device: new DeviceService(ctx),
    jobs,
    runs,
    quotes,
    webhooks,
    node: new NodeDuties(ctx, coordinator, jobs, runs, plans, webhooks),
    playground: new PlaygroundService(ctx, offer),
    discovery: new DiscoveryService(ctx),
    captures,
    catalog: new CatalogService(ctx),
    feedback: new FeedbackService(ctx, feedbackSets),
    operator: new OperatorService(ctx, accounts),
    plans,
    pool,
    async close() {
      await engines.close();
      await pool.close();
      await log.close();
    },
  };
}

/**
 * The plan catalog and the billing provider, read and checked before anything opens (a bad catalog stops the
 * start); then a PlanService over a log and its read models.
 */
export function plansFor(config: Config): (over: { log: EventLog; readModels: ReadModels }) => PlanService {
  const catalog = loadPlanCatalog(config.plansFile);
  const provider = billingProvider(config, catalog);
  return ({ log, readModels }) => new PlanService({ config, log, readModels }, catalog, provider);
}

/** The billing provider ASSAY_BILLING_PROVIDER names; an unknown name stops the process at start. */
function billingProvider(config: Config, catalog: PlanCatalog): BillingProvider {
  if (config.billingProvider === "local") return new LocalBillingProvider(catalog);
  if (config.billingProvider === "stripe") {
    // Unconfigured, the server still starts (catalog, errors, signup); plan-dependent requests are SERVICE_UNAVAILABLE.
    if (!config.stripe.secretKey)
      console.error(
        "ASSAY_BILLING_PROVIDER=stripe without ASSAY_STRIPE_SECRET_KEY: plan-dependent requests answer SERVICE_UNAVAILABLE.",
      );
    return new StripeBillingProvider(config.stripe);
  }
  throw new Error(`ASSAY_BILLING_PROVIDER=${config.billingProvider} names no billing provider (known: local, stripe).`);
}

/** The operator's graph (the CLI's replay, ledger verify, key, credits, plan and billing commands): the log and what those commands need, no browser. */
export async function openOperator(
  config: Config = loadConfig(),
): Promise<{ operator: OperatorService; close(): Promise<void> }> {
  const plansOver = plansFor(config);
  const { log, readModels, keyUsage } = await openEventLog(config);
  const plans = plansOver({ log, readModels });
  const accounts = new AccountService({ config, log, readModels, keyUsage, plans, limits: new AddressLimits(config) });
  return { operator: new OperatorService({ log, readModels, plans }, accounts), close: () => log.close() };
}

/** What `assay migrate-store` reports: events copied, and the audit of the PostgreSQL log read back. */
export interface StoreMigration {
  events: number;
  head: { position: number; hash: string };
  verified: boolean;
  problems: Array<{ position?: number; message: string }>;
}

/**
 * Copies DATA_DIR's SQLite log into an empty PostgreSQL database (`to`), then reads it back and verifies the
 * chain end to end (every position, link and hash, and the same head as the source). The SQLite file is left as
 * it was; nodes then start with ASSAY_DATABASE_URL and pull their read models from the copy.
 */
export async function migrateStore(config: Config, to: string): Promise<StoreMigration> {
  const source = openSqliteLog(config.dataDir);
  try {
    const sourceHead = source.headOf();
    const target = await PgEventTable.open(to);
    try {
      const events = await copyLog(source.readAll(), target);
      const audit = await auditLog(target.readAll(), null);
      const problems = [...audit.problems];
      if (audit.head.position !== sourceHead.position || audit.head.hash !== sourceHead.hash) {
        problems.push({
          message: `the copy ends at ${audit.head.position} (${audit.head.hash.slice(0, 12)}…), the source at ${sourceHead.position} (${sourceHead.hash.slice(0, 12)}…)`,
        });
      }
      return { events, head: audit.head, verified: problems.length === 0, problems };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
