import { AppError } from "../errors/app-error";
import { findJobs, resultsFor, runningJobs } from "../../projections/jobs";
import { overdueAddresses } from "../../projections/inbox";
import { JobRunner, browserReady, type CaptureExtras, type Execution } from "./job-runner";
import { crashPoint } from "../faults";
import { timed, timedSync } from "../phases";
import { decodeCursor, encodeCursor, jobView } from "./job-views";
import type { JobQuotes } from "./job-quotes";
import type { PlannedJob } from "../domain/planned-job";
import { newJobId, newTestAddressToken } from "./ids";
import { JobWrites } from "./job-writes";
import { EmailJobMessages, type InboundMessage, type RecipientStatus } from "./email-job-messages";
import type { RequestMeta, ServiceContext } from "./context";

export type { InboundMessage, RecipientStatus };

export interface JobListQuery {
  jobId?: string;
  status?: string;
  limit?: number;
  cursor?: string;
  detail?: "brief" | "verbose";
}

const SYSTEM: RequestMeta = { actor: { kind: "system" }, channel: "system" };

/**
 * Why a job that was running when the process stopped has no verdicts, as its caller reads it on the job (the
 * prefix is an execution failure's, which the job view names `execution_failed`).
 */
const CUT_OFF_BY_RESTART =
  "The job could not run: the server restarted while it ran, so it has no verdicts and every check is refunded in full. Run it again.";

/** Why a job its own live node closed has no verdicts (JobService.sweepUnheld). */
const LEFT_BY_ITS_SERVER =
  "The job could not run: the server that took it answered its caller with an error and did not finish it, so it has no verdicts and every check is refunded in full. Run it again.";

/**
 * The job engine's application service: plans and prices a body, accepts and charges it (the job decider,
 * src/domain/jobs.ts), runs it (JobRunner), settles it, takes an email job's message from the inbox
 * (EmailJobMessages), expires email jobs whose message never came, closes at start what a stopped process left
 * running, and shows jobs (job-views.ts). Every write to a job's stream goes through JobWrites.
 */
export class JobService {
  private readonly runner: JobRunner;
  private readonly writes: JobWrites;
  private readonly messages: EmailJobMessages;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly quotes: JobQuotes,
  ) {
    this.runner = new JobRunner(ctx);
    this.writes = new JobWrites(ctx);
    this.messages = new EmailJobMessages(ctx, this.writes, this.runner);
  }

  async run(customerId: string, body: unknown, meta: RequestMeta) {
    const job = await timed("plan", async () =>
      this.quotes.planned(body, (await this.ctx.plans.entitle(customerId)).plan),
    );
    await browserReady(this.ctx, { rendersNow: job.type !== "email", run: job.run });
    const jobId = newJobId();
    if (job.type === "email") {
      await this.writes.apply(
        jobId,
        customerId,
        { kind: "accept", jobId, customerId, job, inbox: this.newInbox() },
        meta,
      );
      crashPoint("job-accepted");
      return this.get(customerId, jobId, job.detail);
    }
    this.writes.held.add(jobId);
    try {
      await this.writes.apply(jobId, customerId, { kind: "accept", jobId, customerId, job }, meta);
    } catch (e) {
      this.writes.held.delete(jobId);
      throw e;
    }
    crashPoint("job-accepted");
    if (!(await this.execute(jobId, customerId, job, meta))) {
      throw new AppError(
        "JOB_EXECUTION_FAILED",
        "The job failed after it was charged; every credit was refunded. Retry it.",
        {
          jobId,
          refunded: job.totalCredits,
        },
        undefined,
        true,
      );
    }
    return timedSync("job view", () => this.get(customerId, jobId, job.detail));
  }

  /** A one-time test address of this server's inbox for an email job, and the end of its window. */
  newInbox(): { testEmail: string; expiresAt: string } {
    return {
      testEmail: `t-${newTestAddressToken()}@${this.ctx.config.inboxDomain}`,
      expiresAt: new Date(Date.now() + this.ctx.config.emailWindowSeconds * 1000).toISOString(),
    };
  }

  /**
   * Registers webpage jobs as held by this process before their acceptance is appended (JobWrites.held): a run
   * accepts its pages in its own append, then executes them over time, and neither a recovery nor a sweep may close
   * them meanwhile. Each is let go by execute, or by release when the append failed.
   */
  hold(jobIds: readonly string[]): void {
    for (const id of jobIds) this.writes.held.add(id);
  }

  release(jobIds: readonly string[]): void {
    for (const id of jobIds) this.writes.held.delete(id);
  }

  /** Calls `listener` after each job this process closes (JobWrites.onClose). */
  onJobClosed(listener: (jobId: string) => Promise<void>): void {
    this.writes.onClose(listener);
  }

  /**
   * Runs an accepted webpage job this process holds and settles it, then lets it go. A run that throws is charged but
   * not delivered: the job is closed interrupted with every row errored and refunded, and false is answered. What a
   * settlement's append throws (the log unreachable) is the caller's; the job is let go either way, so this node's
   * sweep closes it, refunded, once the log answers. `extras`: what the capture gathers beyond the checks' needs (a
   * run's visual comparison: screenshots, its mask selectors' boxes).
   */
  async execute(
    jobId: string,
    customerId: string,
    job: PlannedJob,
    meta: RequestMeta,
    extras: CaptureExtras = {},
  ): Promise<boolean> {
    try {
      let execution: Execution;
      try {
        execution = await this.runner.runWeb(jobId, customerId, job, extras);
      } catch (e) {
        console.error(`[${meta.requestId}] job ${jobId} failed after charge:`, e);
        await this.writes.interrupt(
          jobId,
          customerId,
          `The job could not run: ${(e as Error).message.split("\n")[0]}`,
          meta,
        );
        return false;
      }
      crashPoint("checks-done");
      await this.writes.settle(
        jobId,
        customerId,
        { kind: "settle", results: execution.rows, captures: execution.captures, interruption: execution.interruption },
        meta,
      );
      return true;
    } finally {
      this.writes.held.delete(jobId);
    }
  }

  list(customerId: string, q: JobListQuery) {
    const limit = Math.min(Math.max(q.limit ?? 20, 1), 100);
    const beforePosition = q.cursor ? decodeCursor(q.cursor) : undefined;
    const rows = findJobs(this.ctx.readModels, {
      customerId,
      jobId: q.jobId,
      status: q.status,
      beforePosition,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const results = resultsFor(
      this.ctx.readModels,
      page.map((j) => j.jobId),
    );
    return {
      jobs: page.map((j) => jobView(j, results.get(j.jobId)!, q.detail ?? "brief", this.ctx.captures)),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.position) : null,
    };
  }

  /**
   * One job of this organization at the detail asked for (brief unless verbose is asked, whatever the request
   * that created it asked); JOB_NOT_FOUND when it has none with this id.
   */
  get(customerId: string, jobId: string, detail: "brief" | "verbose" = "brief") {
    const [row] = findJobs(this.ctx.readModels, { customerId, jobId, limit: 1 });
    if (!row) throw new AppError("JOB_NOT_FOUND", `No job ${jobId} in this organization.`, { jobId });
    const results = resultsFor(this.ctx.readModels, [jobId]).get(jobId)!;
    return jobView(row, results, detail, this.ctx.captures);
  }

  /**
   * The raw message an email job received, as the inbox stored it: JOB_NOT_FOUND when this organization has no
   * such job, STORAGE_OBJECT_NOT_FOUND when the job holds no message (a webpage job, or none has arrived yet).
   */
  async receivedEmail(customerId: string, jobId: string): Promise<{ jobId: string; raw: Uint8Array }> {
    const [row] = findJobs(this.ctx.readModels, { customerId, jobId, limit: 1 });
    if (!row) throw new AppError("JOB_NOT_FOUND", `No job ${jobId} in this organization.`, { jobId });
    const arrival = this.writes.readJob(jobId).email;
    if (!arrival) {
      throw new AppError(
        "STORAGE_OBJECT_NOT_FOUND",
        `Job ${jobId} holds no received email: ${row.type === "email" ? "none has arrived yet" : "it is not an email job"}.`,
        { jobId },
      );
    }
    return { jobId, raw: await this.ctx.mail.read(customerId, arrival.storageKey) };
  }

  /** Whether the inbox should take a message for this recipient now (asked at RCPT). */
  recipientStatus(address: string, now = new Date()): Promise<RecipientStatus> {
    return this.messages.recipientStatus(address, now);
  }

  /** A message the inbox received, kept for the jobs waiting for it and checked: answers how many took it. */
  receiveEmail(message: InboundMessage): Promise<number> {
    return this.messages.receive(message);
  }

  /** Closes email jobs whose window passed without a message, refunding them in full. */
  async expireOverdue(now = new Date()): Promise<number> {
    let expired = 0;
    for (const address of overdueAddresses(this.ctx.readModels, now.toISOString())) {
      if (await this.writes.settle(address.jobId, address.customerId, { kind: "expire", now }, SYSTEM)) expired++;
    }
    return expired;
  }

  /**
   * Closes webpage jobs cut off by a process that stopped: its request is gone with it, and its raw HTML is not
   * kept to run it again, so each is closed as interrupted, every check refunded. At start, before this process
   * takes any request, every running job is such a job on SQLite; where several nodes share a log, `nodes` names
   * whose jobs are meant (this node's own after its restart; a node gone silent, by the recovery sweep). Each close
   * is decided on the job's own stream and appended with its expected version, so two recoveries racing close a
   * job once. Answers how many it closed.
   */
  async recoverInterruptedJobs(nodes?: readonly string[], cause = CUT_OFF_BY_RESTART): Promise<number> {
    let closed = 0;
    for (const job of runningJobs(this.ctx.readModels, nodes)) {
      if (this.writes.held.has(job.jobId)) continue;
      if (await this.writes.interrupt(job.jobId, job.customerId, cause, SYSTEM)) closed++;
    }
    return closed;
  }

  /** Checks messages that arrived but were not checked (those `nodes` took, when named), and expires what ran out. */
  async recoverEmailJobs(nodes?: readonly string[]): Promise<void> {
    await this.messages.checkReceived(nodes);
    await this.expireOverdue();
  }

  /**
   * A live node's sweep of its own work (NodeDuties; `nodes` names this node, or is undefined on SQLite, where
   * every job is this process's): closes, refunded, its running webpage jobs that this process does not hold, and
   * checks again the messages its inbox took that nothing here is checking, as for a node that died. Such a job
   * reached the log while its caller heard an error (an append whose acknowledgement was lost and could not be read
   * back), or its settlement failed. Answers how many webpage jobs it closed.
   */
  async sweepUnheld(nodes?: readonly string[]): Promise<number> {
    const closed = await this.recoverInterruptedJobs(nodes, LEFT_BY_ITS_SERVER);
    await this.messages.checkReceived(nodes);
    return closed;
  }
}
