import { AppError } from "../errors/app-error";
import type { Coordinator, NodeRecord } from "../store/coordinator";
import type { LogBackend } from "../store/event-log";
import type { JobService } from "./jobs";
import type { RunService } from "./runs";
import type { PlanService } from "./plans";
import { DELIVERY_TIMEOUT_MS, type WebhookService } from "./webhooks";
import type { ServiceContext } from "./context";

/** What a pool tells /healthz about its browsers (local, or remote workers). */
type BrowserReport = ReturnType<ServiceContext["pool"]["describe"]>;

/** GET /healthz: which node this is, which log it reads, which browsers it renders with. */
export interface NodeHealth {
  status: "ok";
  node: string;
  store: { backend: LogBackend; position: number };
  /** Where screenshots and received messages are kept: a directory (shared by the nodes that mount it) or a bucket. */
  storage: ReturnType<ServiceContext["captures"]["storage"]>;
  browsers: BrowserReport;
}

/** GET /readyz: whether this node can take work now (its log answers). */
export interface NodeReadiness {
  ready: boolean;
  node: string;
  store: { backend: LogBackend; reachable: boolean; error?: string };
  nodes?: NodeRecord[];
}

/** The work done once across all nodes sharing a log, each under a lease of its own name. */
const LEASES = {
  expiry: "email-expiry",
  grant: "monthly-grant",
  recovery: "dead-node-recovery",
  webhooks: "webhook-deliveries",
} as const;

/** How often the node holding the deliveries' lease looks for webhook deliveries due. */
const WEBHOOK_SWEEP_MS = 1000;

/**
 * What this node does as one of the nodes sharing its log (one node alone on SQLite): its read models brought to
 * the log's head before each request, its health and readiness, and the background work: a heartbeat, the email expiry
 * sweep, the monthly grant's sweep, the webhook deliveries, the closing of jobs a silent node left running, and the
 * sweep of this node's own jobs that nothing in it runs. Each sweep but the last runs on the node holding its lease (a timer per node
 * tries; one holder runs), so it runs once across nodes.
 */
export class NodeDuties {
  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "log" | "readModels" | "pool" | "captures">,
    private readonly coordinator: Coordinator,
    private readonly jobs: JobService,
    private readonly runs: RunService,
    private readonly plans: PlanService,
    private readonly webhooks: WebhookService,
  ) {}

  get nodeId(): string {
    return this.coordinator.nodeId;
  }

  /** Read models at the log's head as it is now; SERVICE_UNAVAILABLE (nothing done) while the log cannot be read. */
  async catchUp(): Promise<void> {
    try {
      await this.ctx.log.catchUp();
    } catch (e) {
      console.error("the event log could not be read:", (e as Error).message);
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        "The event log cannot be reached right now; nothing was done. Retry shortly.",
        { dependency: "event-log", retryAfterSeconds: 5 },
        undefined,
        true,
      );
    }
  }

  health(): NodeHealth {
    return {
      status: "ok",
      node: this.nodeId,
      store: { backend: this.ctx.log.backend, position: this.ctx.log.position() },
      storage: this.ctx.captures.storage(),
      browsers: this.ctx.pool.describe(),
    };
  }

  async readiness(): Promise<NodeReadiness> {
    const backend = this.ctx.log.backend;
    try {
      await this.ctx.log.ping();
      return {
        ready: true,
        node: this.nodeId,
        store: { backend, reachable: true },
        ...(backend === "postgres" ? { nodes: await this.coordinator.nodes() } : {}),
      };
    } catch (e) {
      return {
        ready: false,
        node: this.nodeId,
        store: { backend, reachable: false, error: (e as Error).message.split("\n")[0] },
      };
    }
  }

  /**
   * Before this node takes a request: the webpage jobs it was running when it last stopped are closed as
   * interrupted (on SQLite every running job is this process's; on PostgreSQL only this node's own), and so the runs
   * they were pages of complete (as does any run whose pages had all settled when the process stopped).
   */
  async recoverOwnWebJobs(): Promise<number> {
    const closed = await this.jobs.recoverInterruptedJobs(this.owned());
    await this.runs.completeSettled();
    return closed;
  }

  /** Once it serves: the messages its inbox took and did not check, and email jobs past their window. */
  async recoverOwnEmailJobs(): Promise<void> {
    await this.jobs.recoverEmailJobs(this.owned());
  }

  /**
   * Starts the heartbeat and the sweeps; answers a stop that ends them and, on PostgreSQL, gives up this node's
   * leases and marks it silent, so another node takes over at once.
   */
  startBackground(): { stop(): Promise<void> } {
    const { config } = this.ctx;
    const timers: Array<ReturnType<typeof setInterval>> = [];
    const every = (ms: number, what: string, step: () => Promise<unknown>) => {
      let running = false;
      const tick = async () => {
        if (running) return;
        running = true;
        try {
          await step();
        } catch (e) {
          console.error(`${what} failed:`, (e as Error).message);
        } finally {
          running = false;
        }
      };
      timers.push(setInterval(() => void tick(), ms));
    };
    const timeout = config.nodeTimeoutSeconds;
    every((timeout * 1000) / 3, "heartbeat", () => this.coordinator.heartbeat());
    // Sweep often enough that a job expires within a quarter of its window (every 5 s at most).
    const expiryMs = Math.min(5000, Math.max(200, config.emailWindowSeconds * 250));
    every(expiryMs, "expiry sweep", () => this.underLease(LEASES.expiry, expiryMs, () => this.jobs.expireOverdue()));
    if (config.grantSweepSeconds > 0) {
      every(config.grantSweepSeconds * 1000, "monthly grant sweep", () => this.grantSweepNow());
    }
    every(WEBHOOK_SWEEP_MS, "webhook deliveries", () => this.deliverWebhooks());
    if (this.ctx.log.backend === "postgres") {
      every((timeout * 1000) / 2, "recovery of silent nodes' jobs", () => this.recoverSilentNodes());
    }
    every((timeout * 1000) / 2, "sweep of this node's own jobs", () => this.sweepOwnJobs());
    return {
      stop: async () => {
        for (const t of timers) clearInterval(t);
        await this.coordinator
          .leave()
          .catch((e: Error) => console.error("this node could not leave the cluster:", e.message));
      },
    };
  }

  /** Runs the monthly grant's sweep now, under its lease (at start, before the first period's requests, then each period). */
  grantSweepNow(): Promise<unknown> {
    return this.underLease(LEASES.grant, this.ctx.config.grantSweepSeconds * 1000, () => this.plans.sweep());
  }

  /**
   * Attempts the webhook deliveries due, on the node holding their lease: held for two deliveries' time and renewed
   * before each few it attempts, so it never lapses while this node sends and no other node sends the same delivery.
   */
  deliverWebhooks(): Promise<number | null> {
    return this.underLease(LEASES.webhooks, DELIVERY_TIMEOUT_MS, (renew) => this.webhooks.sweep(renew));
  }

  /**
   * Closes, refunded, the webpage jobs nodes gone silent were running, and checks the messages their inboxes took
   * but did not check (the shared directory holds them). Answers how many webpage jobs it closed.
   */
  async recoverSilentNodes(): Promise<number> {
    const silent = await this.coordinator.silentNodes(this.ctx.config.nodeTimeoutSeconds);
    if (silent.length === 0) return 0;
    return (
      (await this.underLease(LEASES.recovery, this.ctx.config.nodeTimeoutSeconds * 1000, async () => {
        const closed = await this.jobs.recoverInterruptedJobs(silent);
        if (closed > 0)
          console.log(
            `Closed ${closed} webpage job(s) left running by silent node(s) ${silent.join(", ")}, every credit refunded.`,
          );
        await this.jobs.recoverEmailJobs(silent);
        await this.runs.completeSettled();
        return closed;
      })) ?? 0
    );
  }

  /**
   * Closes this node's own work that nothing in this process holds (JobService.sweepUnheld): a job whose acceptance
   * reached the log while its caller heard an error would otherwise stay running until this node restarts. Each
   * node sweeps only its own jobs, so no lease; each close is decided on the job's stream with its expected version,
   * so a job is closed once whoever else (a survivor, if this node fell silent) closes it too.
   */
  async sweepOwnJobs(): Promise<number> {
    await this.ctx.log.catchUp();
    const closed = await this.jobs.sweepUnheld(this.owned());
    await this.runs.completeSettled();
    if (closed > 0)
      console.log(
        `Closed ${closed} webpage job(s) of this node that it was not running (their callers heard an error), every credit refunded.`,
      );
    return closed;
  }

  /**
   * Runs `work` if this node holds (or takes) the lease, with read models at the log's head; null when another holds
   * it. `work` may renew the lease as it goes (`renew`: true while this node still holds it).
   */
  private async underLease<T>(
    lease: string,
    periodMs: number,
    work: (renew: () => Promise<boolean>) => Promise<T>,
  ): Promise<T | null> {
    // Held a little longer than a period, so its holder renews it before another node may take it.
    const renew = () => this.coordinator.acquire(lease, Math.ceil((periodMs * 2) / 1000) + 1);
    if (!(await renew())) return null;
    await this.ctx.log.catchUp();
    return work(renew);
  }

  /** The nodes whose work this node closes at its own start: on SQLite, every job (undefined); on PostgreSQL, its own. */
  private owned(): string[] | undefined {
    return this.ctx.log.backend === "postgres" ? [this.nodeId] : undefined;
  }
}
