import PostalMime from "postal-mime";
import type { EmailAuthentication } from "./authentication";
import type { EmailHtmlSnapshot } from "./snapshot-email-html";
import type { RenderOutcome } from "../mail-clients/render";
import type { ImageTexts } from "../image-text";

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
  /**
   * SPF, DKIM, DMARC and alignment (src/capture/email/authentication.ts), computed once per job only when a selected
   * check needs "authentication"; `{ error }` when they could not be evaluated at all.
   */
  authentication?: EmailAuthentication | { error: string };
  /**
   * Which inline (non-attachment) text parts the message really has: postal-mime fills `html` from a lone
   * text/plain part and `text` from a lone text/html part, so `html` and `text` alone cannot say.
   */
  bodyParts?: { html: boolean; plain: boolean };
  /**
   * The text/html part as Chromium parsed it (src/capture/email/email-html.ts), gathered once per job only when a
   * selected check needs "email-html"; `{ error }` when it could not be read. Absent without an HTML part.
   */
  htmlDom?: EmailHtmlSnapshot | { error: string };
  /**
   * Renders in emulated mail clients (src/capture/mail-clients), by validation id, made once per job only
   * when a selected check needs "render" (src/capture/email/email-capture.ts); a failed render says why.
   */
  renders?: Record<string, RenderOutcome[]>;
  /**
   * The text painted in the HTML part's pictures, read by OCR (src/capture/email/email-image-text.ts), by source as
   * the HTML writes it; gathered once per job only when a selected check needs "image-text" (with "email-html").
   */
  imageText?: ImageTexts;
}

export class UnparseableMessage extends Error {}

/** Parses raw RFC 5322 bytes with postal-mime. */
export async function parseEmail(
  raw: Uint8Array,
  envelope: EmailArtifacts["envelope"],
  expectedSubject: string | null,
): Promise<EmailArtifacts> {
  let parsed: Awaited<ReturnType<typeof PostalMime.parse>>;
  const parser = new PostalMime();
  try {
    parsed = await parser.parse(raw);
  } catch (e) {
    throw new UnparseableMessage(`The message could not be parsed as MIME: ${(e as Error).message}`);
  }
  if (!parsed.headers.length)
    throw new UnparseableMessage("The message has no headers: it is not an RFC 5322 message.");
  const mailbox = (m: { name?: string; address?: string } | undefined): Mailbox | null =>
    m && (m.address || m.name) ? { name: m.name ?? "", address: m.address ?? "" } : null;
  return {
    bytes: raw.byteLength,
    envelope,
    headers: parsed.headers.map((h) => ({ name: h.key, value: h.value })),
    from: mailbox(parsed.from as { name?: string; address?: string } | undefined),
    replyTo: (parsed.replyTo ?? [])
      .map((m) => mailbox(m as { name?: string; address?: string }))
      .filter((m): m is Mailbox => !!m),
    subject: parsed.subject ?? null,
    date: parsed.date ?? null,
    messageId: parsed.messageId ?? null,
    html: parsed.html ?? null,
    text: parsed.text ?? null,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      mimeType: a.mimeType,
      disposition: a.disposition ?? null,
    })),
    expectedSubject,
    ...bodyPartsOf(parser),
  };
}

/** The inline text parts postal-mime collected (its textMap: per MIME node, the html and plain parts it holds). */
function bodyPartsOf(parser: PostalMime): Pick<EmailArtifacts, "bodyParts"> {
  type Entries = Partial<Record<"plain" | "html", Array<{ type: string }>>>;
  const textMap = (parser as unknown as { textMap?: Map<unknown, Entries> }).textMap;
  if (!(textMap instanceof Map)) return {};
  const has = (kind: "plain" | "html") =>
    [...textMap.values()].some((e) => e[kind]?.some((item) => item.type === "text"));
  return { bodyParts: { html: has("html"), plain: has("plain") } };
}

/** Every value of a top-level header, by case-insensitive name. */
export function headerValues(email: EmailArtifacts, name: string): string[] {
  const n = name.toLowerCase();
  return email.headers.filter((h) => h.name === n).map((h) => h.value);
}

/**
 * The From and Subject header lines of a message as they arrived (unfolded, not decoded), read from the
 * head of the bytes without parsing the MIME: what the inbox records of a message before it is checked.
 */
export function headline(raw: Uint8Array): { from: string; subject: string } {
  const head =
    Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.length, 64 * 1024))
      .toString("utf8")
      .split(/\r?\n\r?\n/)[0] ?? "";
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const header = (name: string) => unfolded.match(new RegExp(`^${name}:[ \\t]*(.*)$`, "im"))?.[1]?.trim() ?? "";
  return { from: header("from"), subject: header("subject") };
}
