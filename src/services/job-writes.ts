import { decide, jobState, JobStateError, type JobCommand, type JobEvent, type JobState } from "../domain/jobs";
import { streams } from "../domain/accounts";
import { ConcurrencyError, type EventLog, type StoredEvent, type StreamWrite } from "../store/event-log";
import { chargeForJob, creditState } from "../../projections/credits";
import { timed } from "../phases";
import type { RequestMeta, ServiceContext } from "./context";

/**
 * What every part of a job's life writes through (JobService: accept, run, expire, recover; EmailJobMessages: an
 * email job's message): the job's own stream read and decided on with the organization's ledger, a decision
 * appended and remade on a conflict, a job closed once; and the jobs this process holds while it works on them.
 */
export class JobWrites {
  /**
   * The jobs this process is working on: a webpage job from before its acceptance is appended until it is settled
   * or given up, an email job from before its message's arrival is appended until its check is. A recovery or a
   * sweep leaves these alone (and never starts a second check of a message).
   *
   * A job enters before the event that makes it running (JobAccepted, EmailReceived) is appended, not after. So a
   * job of this node that the read models show running or received and that is not here is one no code in this
   * process will touch again (its caller heard an error, say an append whose acknowledgement was lost, or its
   * settlement failed), and the sweep may close it at once. Registering after the append would leave a gap in
   * which the copy already shows the job (it is applied before the append's promise settles) while nothing holds
   * it, and a sweep then would close a job about to run; a grace period would only guess how long that gap lasts
   * under load.
   */
  readonly held = new Set<string>();

  /** Told of every job this process closes (settled, expired, interrupted), after its close is appended. */
  private readonly closeListeners: Array<(jobId: string) => Promise<void>> = [];

  constructor(private readonly ctx: Pick<ServiceContext, "log" | "readModels" | "captures">) {}

  /**
   * Calls `listener` after each job this process closes (a run completes once its last page closes). What it throws
   * is logged, not the close's: the job is closed either way.
   */
  onClose(listener: (jobId: string) => Promise<void>): void {
    this.closeListeners.push(listener);
  }

  /** Closes a job being checked as interrupted, once, and drops the screenshots its run wrote (none is recorded). */
  async interrupt(jobId: string, customerId: string, cause: string, meta: RequestMeta): Promise<boolean> {
    if (!(await this.settle(jobId, customerId, { kind: "interrupt", cause }, meta))) return false;
    try {
      await this.ctx.captures.discardUnrecorded(customerId, jobId);
    } catch (e) {
      // The job is closed and refunded; files left behind are unreachable (no CaptureStored names them), not wrong.
      console.error(`job ${jobId}: its unrecorded screenshots could not be removed: ${(e as Error).message}`);
    }
    return true;
  }

  /** Settles, expires or interrupts a job once: false when the job decider refuses because it is already closed. */
  async settle(
    jobId: string,
    customerId: string,
    cmd: Extract<JobCommand, { kind: "settle" | "expire" | "interrupt" }>,
    meta: RequestMeta,
  ): Promise<boolean> {
    try {
      await this.apply(jobId, customerId, cmd, meta);
    } catch (e) {
      if (e instanceof JobStateError) return false;
      throw e;
    }
    for (const listener of this.closeListeners) {
      await listener(jobId).catch((e: Error) => console.error(`after job ${jobId} closed:`, e.message));
    }
    return true;
  }

  /**
   * Decides and appends in one step of a group commit (jobs accepted or settled in the same turn share a commit,
   * each decided on the state the ones before it left); when another process moved the job's stream or the ledger
   * first, the decision is remade (a few attempts, then the conflict surfaces).
   */
  async apply(jobId: string, customerId: string, cmd: JobCommand, meta: RequestMeta): Promise<void> {
    await timed(`job ${cmd.kind}`, () => appendDecided(this.ctx.log, () => this.decide(jobId, customerId, cmd), meta));
  }

  /** The job decider on the job's own stream and the organization's ledger. */
  decide(jobId: string, customerId: string, cmd: JobCommand): StreamWrite[] {
    const credits = creditState(this.ctx.readModels, customerId);
    return decide(cmd, {
      job: this.readJob(jobId),
      credits:
        cmd.kind === "accept" ? { ...credits, existingCharge: chargeForJob(this.ctx.readModels, jobId) } : credits,
    });
  }

  readJob(jobId: string): JobState {
    return jobState(this.ctx.log.readStream(streams.job(jobId)) as unknown as JobEvent[]);
  }
}

/**
 * Decides and appends in one step of a group commit, the decision made at the log's head; when another process moved
 * a stream it expects first (PostgreSQL), the decision is remade, a few times, then the conflict surfaces.
 */
export async function appendDecided(
  log: EventLog,
  decide: () => StreamWrite[],
  meta: RequestMeta,
): Promise<StoredEvent[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await log.appendSoon(decide, meta);
    } catch (e) {
      if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
    }
  }
}
