import { readFileSync } from "node:fs";
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { findInboxAddress } from "../../projections/inbox";
import { streams } from "../domain/accounts";
import { sha256Hex } from "../store/canonical";
import type { ServiceContext } from "../services/context";
import type { JobService } from "../services/jobs";

/** An SMTP reply refusing a command: smtp-server sends `responseCode` and the message. */
function refusal(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * The inbox: accepts a message only for a one-time test address whose email job is waiting for one, once.
 * Every other recipient is refused at RCPT with a 5xx that says why; a message over the size cap is refused
 * while DATA streams in (552). What arrives is stored, recorded by EmailReceived, and checked.
 */
export class SmtpInbox {
  private server: SMTPServer | null = null;

  constructor(
    private readonly ctx: Pick<ServiceContext, "config" | "store" | "mail">,
    private readonly jobs: JobService,
  ) {}

  start(port: number): Promise<number> {
    const { config } = this.ctx;
    const tls = config.smtpTls ? { key: readFileSync(config.smtpTls.keyPath), cert: readFileSync(config.smtpTls.certPath) } : null;
    this.server = new SMTPServer({
      name: config.inboxDomain,
      banner: "Assay test inbox",
      size: config.smtpMaxBytes,
      authOptional: true,
      disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
      ...(tls ?? {}),
      logger: false,
      onRcptTo: (address, _session, callback) => callback(this.checkRecipient(address) ?? undefined),
      onData: (stream, session, callback) => this.receive(stream, session, callback),
    });
    this.server.on("error", (e) => console.error("smtp inbox:", e.message));
    return new Promise((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, () => resolve((this.server!.server.address() as { port: number }).port));
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private checkRecipient(address: SMTPServerAddress): Error | null {
    const rcpt = address.address.toLowerCase();
    const domain = rcpt.split("@")[1] ?? "";
    if (domain !== this.ctx.config.inboxDomain.toLowerCase()) {
      return refusal(550, `5.1.2 This server only accepts mail for test addresses at ${this.ctx.config.inboxDomain}`);
    }
    const inbox = findInboxAddress(this.ctx.store.db, rcpt);
    if (!inbox) return refusal(550, "5.1.1 No email job has this test address");
    if (inbox.state !== "waiting") return refusal(550, "5.7.1 This test address already received its one message");
    if (inbox.expiresAt <= new Date().toISOString()) return refusal(550, "5.7.1 This test address has expired; create a new email job");
    return null;
  }

  private receive(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= this.ctx.config.smtpMaxBytes) chunks.push(chunk);
    });
    stream.on("error", (e) => callback(e));
    stream.on("end", () => {
      if (stream.sizeExceeded || size > this.ctx.config.smtpMaxBytes) {
        return callback(refusal(552, `5.3.4 Message exceeds the ${this.ctx.config.smtpMaxBytes}-byte limit`));
      }
      const raw = Buffer.concat(chunks);
      const accepted = session.envelope.rcptTo.map((r) => this.record(raw, r.address, session)).filter((id): id is string => !!id);
      if (accepted.length === 0) return callback(refusal(550, "5.7.1 No recipient of this message is still waiting for one"));
      callback(null);
      for (const jobId of accepted) {
        void this.jobs.processEmail(jobId).catch((e) => console.error(`email job ${jobId} failed while checking:`, e));
      }
    });
  }

  /** Stores the message for one recipient's job and records its arrival; null when that job stopped waiting. */
  private record(raw: Buffer, recipient: string, session: SMTPServerSession): string | null {
    if (this.checkRecipient({ address: recipient, args: {} } as SMTPServerAddress)) return null;
    const inbox = findInboxAddress(this.ctx.store.db, recipient)!;
    const storageKey = `${inbox.jobId}.eml`;
    this.ctx.mail.write(inbox.customerId, storageKey, raw);
    const header = (name: string) => {
      const head = raw.subarray(0, Math.min(raw.length, 64 * 1024)).toString("utf8").split(/\r?\n\r?\n/)[0] ?? "";
      const m = head.replace(/\r?\n[ \t]+/g, " ").match(new RegExp(`^${name}:[ \\t]*(.*)$`, "im"));
      return m?.[1]?.trim() ?? "";
    };
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
    this.ctx.store.append(
      [
        {
          streamId: streams.job(inbox.jobId),
          expectedVersion: this.ctx.store.streamVersion(streams.job(inbox.jobId)),
          events: [
            {
              type: "EmailReceived",
              data: {
                jobId: inbox.jobId,
                customerId: inbox.customerId,
                storageKey,
                sha256: sha256Hex(raw),
                bytes: raw.length,
                envelope: {
                  mailFrom,
                  rcptTo: session.envelope.rcptTo.map((r) => r.address),
                  ...(session.remoteAddress ? { remoteAddress: session.remoteAddress } : {}),
                  ...(session.hostNameAppearsAs ? { helo: String(session.hostNameAppearsAs).slice(0, 255) } : {}),
                },
                from: header("from").slice(0, 500),
                subject: header("subject").slice(0, 1000),
              },
            },
          ],
        },
      ],
      { actor: { kind: "system" }, channel: "smtp" },
    );
    return inbox.jobId;
  }
}
