import { AppError } from "../errors/app-error";
import type { PlannedValidation } from "../domain/planned-job";
import {
  decide,
  jobState,
  JobStateError,
  mailboxState,
  type JobCommand,
  type JobEvent,
  type JobState,
} from "../domain/jobs";
import type { JobAcceptedData } from "../../events/jobs";
import { streams } from "../domain/accounts";
import { ConcurrencyError, type StreamWrite } from "../store/event-log";
import { chargeForJob, creditState } from "../../projections/credits";
import { findJobs, resultsFor, runningJobs } from "../../projections/jobs";
import { findInboxAddress, overdueAddresses, receivedUnsettled } from "../../projections/inbox";
import { findValidation } from "../catalog/registry";
import { headline } from "../capture/email/email-artifacts";
import { JobRunner, browserReady, type Execution } from "./job-runner";
import { crashPoint } from "../faults";
import { timed, timedSync } from "../phases";
import { decodeCursor, encodeCursor, jobView } from "./job-views";
import type { JobQuotes } from "./job-quotes";
import { newJobId, newTestAddressToken } from "./ids";
import type { RequestMeta, ServiceContext } from "./context";

export interface JobListQuery {
  jobId?: string;
  status?: string;
  limit?: number;
  cursor?: string;
  detail?: "brief" | "verbose";
}

/** A message as the SMTP inbox received it: the raw bytes and the envelope the client gave. */
export interface InboundMessage {
  raw: Uint8Array;
  envelope: { mailFrom: string; rcptTo: string[]; remoteAddress?: string; helo?: string };
}

/**
 * Whether a recipient may receive a message now: waiting, or why not (an address outside the inbox domain,
 * an address no job has, one that already received its message, one whose window passed).
 */
export type RecipientStatus = "waiting" | "foreign" | "unknown" | "used" | "expired";

const SMTP: RequestMeta = { actor: { kind: "system" }, channel: "smtp" };
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
 * src/domain/jobs.ts), runs it (JobRunner), settles it, takes an email job's message from the inbox,
 * expires email jobs whose message never came, closes at start what a stopped process left running, and shows
 * jobs (job-views.ts).
 */
export class JobService {
  private readonly runner: JobRunner;
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
  private readonly held = new Set<string>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly quotes: JobQuotes,
  ) {
    this.runner = new JobRunner(ctx);
  }

  async run(customerId: string, body: unknown, meta: RequestMeta) {
    const job = await timed("plan", async () =>
      this.quotes.planned(body, (await this.ctx.plans.entitle(customerId)).plan),
    );
    await browserReady(this.ctx, { rendersNow: job.type !== "email" });
    const jobId = newJobId();
    if (job.type === "email") {
      const testEmail = `t-${newTestAddressToken()}@${this.ctx.config.inboxDomain}`;
      const expiresAt = new Date(Date.now() + this.ctx.config.emailWindowSeconds * 1000).toISOString();
      await this.apply(
        jobId,
        customerId,
        { kind: "accept", jobId, customerId, job, inbox: { testEmail, expiresAt } },
        meta,
      );
      crashPoint("job-accepted");
      return this.get(customerId, jobId, job.detail);
    }
    this.held.add(jobId);
    try {
      await this.apply(jobId, customerId, { kind: "accept", jobId, customerId, job }, meta);
      crashPoint("job-accepted");
      let execution: Execution;
      try {
        execution = await this.runner.runWeb(jobId, customerId, job);
      } catch (e) {
        // Charged but not delivered: settle with every row errored and refunded, then say so.
        console.error(`[${meta.requestId}] job ${jobId} failed after charge:`, e);
        await this.interrupt(jobId, customerId, `The job could not run: ${(e as Error).message.split("\n")[0]}`, meta);
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
      crashPoint("checks-done");
      await this.settle(
        jobId,
        customerId,
        { kind: "settle", results: execution.rows, captures: execution.captures, interruption: execution.interruption },
        meta,
      );
    } finally {
      this.held.delete(jobId);
    }
    return timedSync("job view", () => this.get(customerId, jobId, job.detail));
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
    const arrival = this.readJob(jobId).email;
    if (!arrival) {
      throw new AppError(
        "STORAGE_OBJECT_NOT_FOUND",
        `Job ${jobId} holds no received email: ${row.type === "email" ? "none has arrived yet" : "it is not an email job"}.`,
        { jobId },
      );
    }
    return { jobId, raw: await this.ctx.mail.read(customerId, arrival.storageKey) };
  }

  /**
   * Whether the inbox should take a message for this recipient now (asked at RCPT). The read models are brought
   * to the log's head first: the job may have been created a moment ago on another node.
   */
  async recipientStatus(address: string, now = new Date()): Promise<RecipientStatus> {
    if ((address.split("@")[1] ?? "").toLowerCase() !== this.ctx.config.inboxDomain.toLowerCase()) return "foreign";
    await this.ctx.log.catchUp();
    const inbox = findInboxAddress(this.ctx.readModels, address);
    return inbox ? mailboxState(this.readJob(inbox.jobId), now) : "unknown";
  }

  /**
   * A message the inbox received: kept and recorded for every recipient still waiting for one, then checked
   * and settled in the background. Answers how many jobs took it (none: the inbox refuses the message).
   */
  async receiveEmail(message: InboundMessage): Promise<number> {
    await this.ctx.log.catchUp();
    const accepted: string[] = [];
    for (const rcpt of message.envelope.rcptTo) {
      const jobId = await this.keepMessage(rcpt, message);
      if (jobId) accepted.push(jobId);
    }
    // Checking starts once the inbox has written its answer to the client (a later turn of the event loop), not before.
    for (const jobId of accepted) {
      setImmediate(() => {
        crashPoint("email-received");
        this.checkHeld(jobId).catch((e) => console.error(`email job ${jobId} could not be closed:`, e));
      });
    }
    return accepted.length;
  }

  /** Closes email jobs whose window passed without a message, refunding them in full. */
  async expireOverdue(now = new Date()): Promise<number> {
    let expired = 0;
    for (const address of overdueAddresses(this.ctx.readModels, now.toISOString())) {
      if (await this.settle(address.jobId, address.customerId, { kind: "expire", now }, SYSTEM)) expired++;
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
      if (this.held.has(job.jobId)) continue;
      if (await this.interrupt(job.jobId, job.customerId, cause, SYSTEM)) closed++;
    }
    return closed;
  }

  /** Checks messages that arrived but were not checked (those `nodes` took, when named), and expires what ran out. */
  async recoverEmailJobs(nodes?: readonly string[]): Promise<void> {
    await this.checkReceived(nodes);
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
    await this.checkReceived(nodes);
    return closed;
  }

  /** Checks messages that arrived but were not checked (those `nodes` took, when named). */
  private async checkReceived(nodes?: readonly string[]): Promise<void> {
    for (const address of receivedUnsettled(this.ctx.readModels, nodes)) await this.checkEmail(address.jobId);
  }

  /**
   * Stores the message for one recipient's job and records its arrival; null when that job is not waiting for one.
   * The job is held from before the arrival is appended (see `held`); the caller hands it to checkHeld.
   */
  private async keepMessage(recipient: string, message: InboundMessage): Promise<string | null> {
    const inbox = findInboxAddress(this.ctx.readModels, recipient);
    // A job held here is taking or checking a message already.
    if (!inbox || this.held.has(inbox.jobId)) return null;
    const storageKey = `${inbox.jobId}.eml`;
    let writes: StreamWrite[];
    try {
      writes = this.decide(inbox.jobId, inbox.customerId, {
        kind: "receiveEmail",
        message: { raw: message.raw, storageKey, envelope: message.envelope, ...headline(message.raw) },
        now: new Date(),
      });
    } catch (e) {
      if (e instanceof JobStateError) return null;
      throw e;
    }
    // Both on disk before the inbox answers 250: the bytes, then the arrival (synced), so no accepted message is lost.
    this.held.add(inbox.jobId);
    try {
      await this.ctx.mail.write(inbox.customerId, storageKey, message.raw);
      await this.ctx.log.append(writes, SMTP, { durable: true });
    } catch (e) {
      this.held.delete(inbox.jobId);
      throw e;
    }
    return inbox.jobId;
  }

  /** Checks the message an email job received, unless this process holds the job already (takes or checks its message). */
  private async checkEmail(jobId: string): Promise<void> {
    if (this.held.has(jobId)) return;
    this.held.add(jobId);
    await this.checkHeld(jobId);
  }

  /**
   * Checks the message an email job received and settles the job, then lets the job go (it was held by the caller).
   * A run that fails (the stored message cannot be read, no browser) closes the job as interrupted and refunded, as a
   * webpage job's does, rather than leaving it received: recovery at the next start would fail on it again.
   */
  private async checkHeld(jobId: string): Promise<void> {
    const { accepted: job, email: arrival, status } = this.readJob(jobId);
    if (!job || !arrival || status !== "received") {
      this.held.delete(jobId);
      return;
    }
    try {
      const expectedSubject = job.subject.emailSubject;
      const raw = await this.ctx.mail.read(job.customerId, arrival.storageKey);
      const run = await this.runner.runEmail(jobId, job.customerId, plannedOf(job), {
        raw,
        envelope: arrival.envelope,
        expectedSubject: expectedSubject ?? null,
      });
      const received = run.email
        ? {
            from: run.email.from ? `${run.email.from.name} <${run.email.from.address}>`.trim() : arrival.from,
            subject: run.email.subject ?? "",
          }
        : { from: arrival.from, subject: arrival.subject };
      const email = {
        ...received,
        ...(expectedSubject !== undefined
          ? {
              expectedSubject,
              subjectMatches: normaliseSubject(received.subject) === normaliseSubject(expectedSubject),
            }
          : {}),
      };
      crashPoint("checks-done");
      await this.settle(
        jobId,
        job.customerId,
        { kind: "settle", results: run.rows, captures: run.captures, email },
        SMTP,
      );
    } catch (e) {
      console.error(`email job ${jobId} failed while checking:`, e);
      await this.interrupt(
        jobId,
        job.customerId,
        `The job could not run: ${(e as Error).message.split("\n")[0]}`,
        SMTP,
      );
    } finally {
      this.held.delete(jobId);
    }
  }

  /** Closes a job being checked as interrupted, once, and drops the screenshots its run wrote (none is recorded). */
  private async interrupt(jobId: string, customerId: string, cause: string, meta: RequestMeta): Promise<boolean> {
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
  private async settle(
    jobId: string,
    customerId: string,
    cmd: Extract<JobCommand, { kind: "settle" | "expire" | "interrupt" }>,
    meta: RequestMeta,
  ): Promise<boolean> {
    try {
      await this.apply(jobId, customerId, cmd, meta);
      return true;
    } catch (e) {
      if (e instanceof JobStateError) return false;
      throw e;
    }
  }

  /**
   * Decides and appends in one step of a group commit (jobs accepted or settled in the same turn share a commit,
   * each decided on the state the ones before it left); when another process moved the job's stream or the ledger
   * first, the decision is remade (a few attempts, then the conflict surfaces).
   */
  private async apply(jobId: string, customerId: string, cmd: JobCommand, meta: RequestMeta): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await timed(`job ${cmd.kind}`, () => this.ctx.log.appendSoon(() => this.decide(jobId, customerId, cmd), meta));
        return;
      } catch (e) {
        if (!(e instanceof ConcurrencyError) || attempt >= 5) throw e;
      }
    }
  }

  /** The job decider on the job's own stream and the organization's ledger. */
  private decide(jobId: string, customerId: string, cmd: JobCommand): StreamWrite[] {
    const credits = creditState(this.ctx.readModels, customerId);
    return decide(cmd, {
      job: this.readJob(jobId),
      credits:
        cmd.kind === "accept" ? { ...credits, existingCharge: chargeForJob(this.ctx.readModels, jobId) } : credits,
    });
  }

  private readJob(jobId: string): JobState {
    return jobState(this.ctx.log.readStream(streams.job(jobId)) as unknown as JobEvent[]);
  }
}

/** The planned checks of an accepted job, as the runner reads them. */
function plannedOf(job: JobAcceptedData): PlannedValidation[] {
  return job.validations.map((v) => ({
    module: findValidation(v.id)!,
    severity: v.severity,
    parameters: v.parameters,
    credits: v.credits,
    fromSet: v.fromSet,
    ...(v.clients ? { clients: v.clients } : {}),
  }));
}

/** Subjects compare after Unicode normalisation, white-space folding and trimming; case matters. */
const normaliseSubject = (s: string) => s.normalize("NFC").replace(/\s+/g, " ").trim();
