import PostalMime from "postal-mime";

export interface Mailbox {
  name: string;
  address: string;
}

/** A received message as the email checks read it: its MIME, decoded; each check reads, none re-parses. */
export interface EmailArtifacts {
  bytes: number;
  envelope: { mailFrom: string; rcptTo: string[] };
  /** Top-level headers in order; names lower-cased, values unfolded as received (not RFC 2047-decoded). */
  headers: Array<{ name: string; value: string }>;
  from: Mailbox | null;
  replyTo: Mailbox[];
  /** RFC 2047-decoded, unfolded. */
  subject: string | null;
  date: string | null;
  messageId: string | null;
  /** Decoded (after Content-Transfer-Encoding) bodies of the first text/html and text/plain parts. */
  html: string | null;
  text: string | null;
  attachments: Array<{ filename: string | null; mimeType: string; disposition: string | null }>;
  /** The subject line the job request expected, when it named one. */
  expectedSubject: string | null;
}

export class UnparseableMessage extends Error {}

/** Parses raw RFC 5322 bytes with postal-mime. */
export async function parseEmail(raw: Uint8Array, envelope: EmailArtifacts["envelope"], expectedSubject: string | null): Promise<EmailArtifacts> {
  let parsed: Awaited<ReturnType<typeof PostalMime.parse>>;
  try {
    parsed = await PostalMime.parse(raw);
  } catch (e) {
    throw new UnparseableMessage(`The message could not be parsed as MIME: ${(e as Error).message}`);
  }
  if (!parsed.headers.length) throw new UnparseableMessage("The message has no headers: it is not an RFC 5322 message.");
  const mailbox = (m: { name?: string; address?: string } | undefined): Mailbox | null =>
    m && (m.address || m.name) ? { name: m.name ?? "", address: m.address ?? "" } : null;
  return {
    bytes: raw.byteLength,
    envelope,
    headers: parsed.headers.map((h) => ({ name: h.key, value: h.value })),
    from: mailbox(parsed.from as { name?: string; address?: string } | undefined),
    replyTo: (parsed.replyTo ?? []).map((m) => mailbox(m as { name?: string; address?: string })).filter((m): m is Mailbox => !!m),
    subject: parsed.subject ?? null,
    date: parsed.date ?? null,
    messageId: parsed.messageId ?? null,
    html: parsed.html ?? null,
    text: parsed.text ?? null,
    attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? null, mimeType: a.mimeType, disposition: a.disposition ?? null })),
    expectedSubject,
  };
}

/** Every value of a top-level header, by case-insensitive name. */
export function headerValues(email: EmailArtifacts, name: string): string[] {
  const n = name.toLowerCase();
  return email.headers.filter((h) => h.name === n).map((h) => h.value);
}
