import nodemailer from "nodemailer";
import type { Config } from "../config";
import { AppError } from "../errors/app-error";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends the service's own mail (sign-in links). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Through the relay ASSAY_MAIL_RELAY_URL names (nodemailer); with none, into the log, so one machine can still sign in. */
export function createMailer(config: Pick<Config, "mailRelayUrl" | "mailFrom">): Mailer {
  if (!config.mailRelayUrl) {
    return {
      async send({ to, subject, text }) {
        console.log(`[mail] no relay configured; to ${to}: ${subject}\n${text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(config.mailRelayUrl);
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: config.mailFrom, ...message });
      } catch (e) {
        console.error("[mail] the relay refused or could not be reached:", e);
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          "The mail relay could not take the message; try again.",
          { dependency: "mail relay" },
          undefined,
          true,
        );
      }
    },
  };
}
