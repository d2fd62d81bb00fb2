import { readFileSync } from "node:fs";
import type { Socket } from "node:net";
import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { Config } from "../config";
import type { JobService, RecipientStatus } from "../services/jobs";

/** An SMTP reply refusing a command: smtp-server sends `responseCode` and the message. */
function refusal(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/** The 5xx text refusing a recipient at RCPT, by the job service's answer. */
/** While the event log cannot be read or written (its database unreachable): the sender tries again later. */
const TEMPORARY_FAILURE = "4.3.0 The test inbox cannot take messages right now; try again later";

const REFUSALS: Record<Exclude<RecipientStatus, "waiting">, (inboxDomain: string) => string> = {
  foreign: (inboxDomain) => `5.1.2 This server only accepts mail for test addresses at ${inboxDomain}`,
  unknown: () => "5.1.1 No email job has this test address",
  used: () => "5.7.1 This test address already received its one message",
  expired: () => "5.7.1 This test address has expired; create a new email job",
};

/** Recipients one message may name; past it each RCPT is answered 452 (a message is for its test addresses). */
export const SMTP_MAX_RECIPIENTS = 100;

/**
 * The inbox: accepts a message only for a one-time test address whose email job is waiting for one, once.
 * Every other recipient is refused at RCPT with a 5xx that says why; a message over the size cap is refused
 * while DATA streams in (552). It is an adapter: the job service says who is waiting, and takes what arrives.
 */
export class SmtpInbox {
  private server: SMTPServer | null = null;

  constructor(
    private readonly config: Config,
    private readonly jobs: Pick<JobService, "recipientStatus" | "receiveEmail">,
  ) {}

  start(port: number): Promise<number> {
    const { config } = this;
    const tls = config.smtpTls
      ? { key: readFileSync(config.smtpTls.keyPath), cert: readFileSync(config.smtpTls.certPath) }
      : null;
    this.server = new SMTPServer({
      name: config.inboxDomain,
      banner: "Assay test inbox",
      size: config.smtpMaxBytes,
      maxRecipients: SMTP_MAX_RECIPIENTS,
      authOptional: true,
      disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
      ...(tls ?? {}),
      logger: false,
      onRcptTo: (address, _session, callback) =>
        void this.checkRecipient(address).then((refused) => callback(refused ?? undefined)),
      onData: (stream, session, callback) => this.receive(stream, session, callback),
    });
    this.server.on("error", (e) => console.error("smtp inbox:", e.message));
    this.server.server.on("connection", (socket: Socket) => this.limitSession(socket));
    return new Promise((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, () => resolve((this.server!.server.address() as { port: number }).port));
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /**
   * The idle time-out (smtp-server's) closes a sender that stops; this closes one that dribbles a byte at a time and
   * so is never idle: every connection ends smtpSessionSeconds after it opened, with 421 4.4.2, whatever it is doing.
   */
  private limitSession(socket: Socket): void {
    const timer = setTimeout(() => {
      socket.end(
        `421 4.4.2 ${this.config.inboxDomain} Session time limit of ${this.config.smtpSessionSeconds} s reached, closing connection\r\n`,
      );
      // A sender that does not read cannot hold the socket either: it is gone a second later.
      setTimeout(() => socket.destroy(), 1000).unref();
    }, this.config.smtpSessionSeconds * 1000);
    socket.once("close", () => clearTimeout(timer));
  }

  /** Null when the recipient is waiting; else the refusal (451, to try again later, while the event log cannot be read). */
  private async checkRecipient(address: SMTPServerAddress): Promise<Error | null> {
    let why: Awaited<ReturnType<JobService["recipientStatus"]>>;
    try {
      why = await this.jobs.recipientStatus(address.address);
    } catch (e) {
      console.error("smtp inbox: recipient could not be looked up:", (e as Error).message);
      return refusal(451, TEMPORARY_FAILURE);
    }
    if (why === "waiting") return null;
    return refusal(550, REFUSALS[why](this.config.inboxDomain));
  }

  private receive(
    stream: SMTPServerDataStream,
    session: SMTPServerSession,
    callback: (err?: Error | null) => void,
  ): void {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= this.config.smtpMaxBytes) chunks.push(chunk);
    });
    stream.on("error", (e) => callback(e));
    stream.on("end", () => {
      if (stream.sizeExceeded || size > this.config.smtpMaxBytes) {
        return callback(refusal(552, `5.3.4 Message exceeds the ${this.config.smtpMaxBytes}-byte limit`));
      }
      this.jobs
        .receiveEmail({
          raw: Buffer.concat(chunks),
          envelope: {
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            ...(session.remoteAddress ? { remoteAddress: session.remoteAddress } : {}),
            ...(session.hostNameAppearsAs ? { helo: String(session.hostNameAppearsAs).slice(0, 255) } : {}),
          },
        })
        .then(
          (taken) =>
            callback(taken === 0 ? refusal(550, "5.7.1 No recipient of this message is still waiting for one") : null),
          (e: Error) => {
            // Nothing was acknowledged: the sender keeps the message and tries again.
            console.error("smtp inbox: message could not be kept:", e.message);
            callback(refusal(451, TEMPORARY_FAILURE));
          },
        );
    });
  }
}
