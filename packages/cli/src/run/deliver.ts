import { readFileSync } from "node:fs";

/** Where the server's SMTP inbox listens: --smtp-host (else ASSAY_SMTP_HOST, else the server's host name) and --smtp-port (else ASSAY_SMTP_PORT, else 2525, the server's default). */
export function smtpEndpoint(
  baseUrl: string,
  opts: { smtpHost?: string; smtpPort?: string },
): { host: string; port: number } {
  const host = opts.smtpHost || process.env.ASSAY_SMTP_HOST || new URL(baseUrl).hostname;
  const port = Number(opts.smtpPort || process.env.ASSAY_SMTP_PORT || 2525);
  return { host, port };
}

/** The envelope sender: the message's own From address, else a placeholder the inbox accepts. */
function fromAddress(raw: string): string {
  const header = /^from:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(raw.split(/\r?\n\r?\n/)[0] ?? "")?.[1] ?? "";
  return (
    /<([^<>\s]+@[^<>\s]+)>/.exec(header)?.[1] ?? /([^\s<>",]+@[^\s<>",]+)/.exec(header)?.[1] ?? "assay-cli@localhost"
  );
}

/** Delivers the .eml file as it is (raw bytes) to the job's test address over SMTP (STARTTLS when offered, any certificate). nodemailer loads only here. */
export async function deliverMessage(
  emlPath: string,
  to: string,
  endpoint: { host: string; port: number },
): Promise<void> {
  const { default: nodemailer } = await import("nodemailer");
  const raw = readFileSync(emlPath);
  const transport = nodemailer.createTransport({
    host: endpoint.host,
    port: endpoint.port,
    secure: false,
    tls: { rejectUnauthorized: false },
  });
  try {
    await transport.sendMail({ envelope: { from: fromAddress(raw.toString("latin1")), to: [to] }, raw });
  } finally {
    transport.close();
  }
}
