import type { PlannedValidation } from "../domain/planned-job";
import { JobStateError, mailboxState } from "../domain/jobs";
import type { JobAcceptedData } from "../../events/jobs";
import type { StreamWrite } from "../store/event-log";
import { findInboxAddress, receivedUnsettled } from "../../projections/inbox";
import { findValidation } from "../catalog/registry";
import { headline } from "../capture/email/email-artifacts";
import type { JobRunner } from "./job-runner";
import { crashPoint } from "../faults";
import type { JobWrites } from "./job-writes";
import type { RequestMeta, ServiceContext } from "./context";

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

/**
 * An email job's message: whether the inbox may take one for a recipient, keeping and recording it, then checking
 * it and settling the job (JobService's recipientStatus and receiveEmail). Recovery and the sweep of unheld jobs
 * check again, through checkReceived, what was received and never checked.
 */
export class EmailJobMessages {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly writes: JobWrites,
    private readonly runner: JobRunner,
  ) {}

  /**
   * Whether the inbox should take a message for this recipient now (asked at RCPT). The read models are brought
   * to the log's head first: the job may have been created a moment ago on another node.
   */
  async recipientStatus(address: string, now = new Date()): Promise<RecipientStatus> {
    if ((address.split("@")[1] ?? "").toLowerCase() !== this.ctx.config.inboxDomain.toLowerCase()) return "foreign";
    await this.ctx.log.catchUp();
    const inbox = findInboxAddress(this.ctx.readModels, address);
    return inbox ? mailboxState(this.writes.readJob(inbox.jobId), now) : "unknown";
  }

  /**
   * A message the inbox received: kept and recorded for every recipient still waiting for one, then checked
   * and settled in the background. Answers how many jobs took it (none: the inbox refuses the message).
   */
  async receive(message: InboundMessage): Promise<number> {
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

  /** Checks messages that arrived but were not checked (those `nodes` took, when named). */
  async checkReceived(nodes?: readonly string[]): Promise<void> {
    for (const address of receivedUnsettled(this.ctx.readModels, nodes)) await this.checkEmail(address.jobId);
  }

  /**
   * Stores the message for one recipient's job and records its arrival; null when that job is not waiting for one.
   * The job is held from before the arrival is appended (see JobWrites.held); the caller hands it to checkHeld.
   */
  private async keepMessage(recipient: string, message: InboundMessage): Promise<string | null> {
    const inbox = findInboxAddress(this.ctx.readModels, recipient);
    // A job held here is taking or checking a message already.
    if (!inbox || this.writes.held.has(inbox.jobId)) return null;
    const storageKey = `${inbox.jobId}.eml`;
    let arrival: StreamWrite[];
    try {
      arrival = this.writes.decide(inbox.jobId, inbox.customerId, {
        kind: "receiveEmail",
        message: { raw: message.raw, storageKey, envelope: message.envelope, ...headline(message.raw) },
        now: new Date(),
      });
    } catch (e) {
      if (e instanceof JobStateError) return null;
      throw e;
    }
    // Both on disk before the inbox answers 250: the bytes, then the arrival (synced), so no accepted message is lost.
    this.writes.held.add(inbox.jobId);
    try {
      await this.ctx.mail.write(inbox.customerId, storageKey, message.raw);
      await this.ctx.log.append(arrival, SMTP, { durable: true });
    } catch (e) {
      this.writes.held.delete(inbox.jobId);
      throw e;
    }
    return inbox.jobId;
  }

  /** Checks the message an email job received, unless this process holds the job already (takes or checks its message). */
  private async checkEmail(jobId: string): Promise<void> {
    if (this.writes.held.has(jobId)) return;
    this.writes.held.add(jobId);
    await this.checkHeld(jobId);
  }

  /**
   * Checks the message an email job received and settles the job, then lets the job go (it was held by the caller).
   * A run that fails (the stored message cannot be read, no browser) closes the job as interrupted and refunded, as a
   * webpage job's does, rather than leaving it received: recovery at the next start would fail on it again.
   */
  private async checkHeld(jobId: string): Promise<void> {
    const { accepted: job, email: arrival, status } = this.writes.readJob(jobId);
    if (!job || !arrival || status !== "received") {
      this.writes.held.delete(jobId);
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
      await this.writes.settle(
        jobId,
        job.customerId,
        { kind: "settle", results: run.rows, captures: run.captures, email },
        SMTP,
      );
    } catch (e) {
      console.error(`email job ${jobId} failed while checking:`, e);
      await this.writes.interrupt(
        jobId,
        job.customerId,
        `The job could not run: ${(e as Error).message.split("\n")[0]}`,
        SMTP,
      );
    } finally {
      this.writes.held.delete(jobId);
    }
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
