import { withDefaults } from "./check-run";
import { parseEmail, type EmailArtifacts } from "../../../src/capture/email/email-artifacts";
import type { EmailHtmlSnapshot } from "../../../src/capture/email/snapshot-email-html";
import type {
  DkimOutcome,
  DmarcOutcome,
  EmailAuthentication,
  SpfOutcome,
} from "../../../src/capture/email/authentication";
import type { EmailRender, RenderOutcome } from "../../../src/capture/mail-clients/render";
import type { RenderChange } from "../../../src/capture/mail-clients/sanitize-record";
import type { EmailRenderSnapshot } from "../../../src/capture/mail-clients/gather-render";
import type { AxeSummary, LayoutSnapshot } from "../../../src/capture/artifacts";
import { findEmailClient } from "../../../src/catalog/email-clients";
import type { EmailValidation, Outcome } from "../../../src/validations/types";
import { DARK_METHODS, type CaptureSize, type DarkRendering } from "../../../src/capture/vocabulary";

/**
 * Hand-built EmailArtifacts for the email checks' unit tests, typed against the real interfaces so a change of
 * their shape breaks these tests. The MIME is real: `email()` writes an RFC 5322 message and runs the real
 * parseEmail on it (pure, no Chromium). What Chromium would gather (htmlDom, renders) and what mailauth would
 * compute (authentication) are built by hand, every field an empty or passing default, overridden per test.
 */

export const FROM = '"Northwind Coffee" <news@mail.northwind.example>';

export interface MessageSpec {
  /**
   * Top-level headers, in order, replacing the defaults of the same name (compared case-insensitively); null
   * drops a default, an array sends the header once per value. Defaults: From, To, Subject, Date, Message-ID,
   * MIME-Version.
   */
  headers?: Record<string, string | string[] | null>;
  html?: string;
  text?: string;
  /** Attached (Content-Disposition: attachment) parts. */
  attachments?: Array<{ filename: string; mimeType: string; content: string }>;
  expectedSubject?: string | null;
}

const DEFAULT_HEADERS: Record<string, string> = {
  From: FROM,
  To: "inbox@assay.test",
  Subject: "Our spring roast is here",
  Date: "Tue, 04 Mar 2025 07:42:00 +0000",
  "Message-ID": "<spring-roast.4e9db08c68@mail.northwind.example>",
  "MIME-Version": "1.0",
};

const BOUNDARY = "unit-boundary-5a7f";

/** The raw RFC 5322 message a spec describes (CRLF, UTF-8 bodies sent 8bit). */
export function mime(spec: MessageSpec): string {
  const given = spec.headers ?? {};
  const givenLower = new Map(Object.keys(given).map((k) => [k.toLowerCase(), k]));
  const lines: string[] = [];
  for (const [name, value] of Object.entries(DEFAULT_HEADERS))
    if (!givenLower.has(name.toLowerCase())) lines.push(`${name}: ${value}`);
  for (const [name, value] of Object.entries(given)) {
    if (value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${v}`);
  }
  const part = (type: string, body: string) =>
    [`Content-Type: ${type}; charset="utf-8"`, "Content-Transfer-Encoding: 8bit", "", body].join("\r\n");
  const bodies = [
    ...(spec.text !== undefined ? [part("text/plain", spec.text)] : []),
    ...(spec.html !== undefined ? [part("text/html", spec.html)] : []),
  ];
  const attachments = (spec.attachments ?? []).map((a) =>
    [
      `Content-Type: ${a.mimeType}; name="${a.filename}"`,
      `Content-Disposition: attachment; filename="${a.filename}"`,
      "Content-Transfer-Encoding: 8bit",
      "",
      a.content,
    ].join("\r\n"),
  );
  const multipart = (subtype: string, parts: string[]) =>
    [
      `Content-Type: multipart/${subtype}; boundary="${subtype}-${BOUNDARY}"`,
      "",
      ...parts.map((p) => `--${subtype}-${BOUNDARY}\r\n${p}`),
      `--${subtype}-${BOUNDARY}--`,
      "",
    ].join("\r\n");
  const body = bodies.length > 1 ? multipart("alternative", bodies) : (bodies[0] ?? part("text/plain", ""));
  const whole = attachments.length ? multipart("mixed", [body, ...attachments]) : body;
  return `${lines.join("\r\n")}\r\n${whole}`;
}

/** The message a spec describes, parsed by the real parseEmail, with the hand-built artifacts laid over it. */
export async function email(
  spec: MessageSpec = {},
  gathered: Pick<EmailArtifacts, "htmlDom" | "authentication" | "renders" | "imageText"> = {},
): Promise<EmailArtifacts> {
  const raw = new TextEncoder().encode(mime(spec));
  const parsed = await parseEmail(
    raw,
    { mailFrom: "bounce@bounce.northwind.example", rcptTo: ["inbox@assay.test"] },
    spec.expectedSubject ?? null,
  );
  return { ...parsed, ...gathered };
}

/** A message with an HTML part whose structure (as Chromium would read it) is the given snapshot. */
export const withDom = (over: Partial<EmailHtmlSnapshot>, spec: MessageSpec = {}): Promise<EmailArtifacts> =>
  email(
    { html: "<!DOCTYPE html><html><body><p>Hand-built structure</p></body></html>", ...spec },
    { htmlDom: htmlDom(over), imageText: { read: {}, skipped: 0, ms: 0 } },
  );

/** The structure of a clean HTML part: language, dark-mode declarations and preheader present, no links, images or tables. */
export function htmlDom(over: Partial<EmailHtmlSnapshot> = {}): EmailHtmlSnapshot {
  return {
    lang: "en",
    colorSchemeMetas: [{ name: "color-scheme", content: "light dark" }],
    prefersColorSchemeRules: ["(prefers-color-scheme: dark)"],
    preheader: {
      text: "Three single-origin beans, roasted this week.",
      selector: "html > body > div",
      hiddenBy: "display:none",
    },
    shortHiddenLead: null,
    firstVisibleText: { text: "Our spring roast is here", selector: "html > body > h1" },
    visibleText: "Our spring roast is here",
    visibleTextOutsideCode: "Our spring roast is here",
    links: [],
    headings: [],
    images: [],
    tables: [],
    textRuns: [],
    elementCount: 10,
    ...over,
  };
}

type Link = EmailHtmlSnapshot["links"][number];
export const link = (selector: string, href: string, text: string, over: Partial<Link> = {}): Link => ({
  selector,
  href,
  text,
  imageAlt: "",
  visible: true,
  button: false,
  ...over,
});

type Image = EmailHtmlSnapshot["images"][number];
export const image = (selector: string, src: string, alt: string | null, over: Partial<Image> = {}): Image => ({
  selector,
  src,
  alt,
  width: 600,
  height: 300,
  visible: true,
  ...over,
});

type Table = EmailHtmlSnapshot["tables"][number];
export const table = (selector: string, over: Partial<Table> = {}): Table => ({
  selector,
  role: "presentation",
  dataTable: false,
  depth: 0,
  ...over,
});

type TextRun = EmailHtmlSnapshot["textRuns"][number];
export const textRun = (selector: string, text: string, fontSizePx = 16, over: Partial<TextRun> = {}): TextRun => ({
  selector,
  text,
  fontSizePx,
  inCode: false,
  ...over,
});

export const heading = (selector: string, text: string, level = 1): EmailHtmlSnapshot["headings"][number] => ({
  selector,
  text,
  level,
});

/** SPF, DKIM and DMARC all passing and aligned for northwind.example, with the given parts replaced. */
export function authentication(
  over: {
    fromDomain?: string | null;
    spf?: Partial<SpfOutcome> | null;
    spfSkipped?: string;
    dkim?: Array<Partial<DkimOutcome>>;
    dmarc?: Partial<DmarcOutcome> | null;
  } = {},
): EmailAuthentication {
  const fromDomain = over.fromDomain === undefined ? "northwind.example" : over.fromDomain;
  const spf: SpfOutcome = {
    result: "pass",
    domain: "bounce.northwind.example",
    mailFrom: "bounce@bounce.northwind.example",
    clientIp: "192.0.2.10",
    helo: "mta.northwind.example",
    record: "v=spf1 ip4:192.0.2.10 -all",
    comment: null,
    aligned: true,
  };
  const dkim: DkimOutcome = {
    result: "pass",
    signingDomain: "northwind.example",
    selector: "s1",
    algorithm: "rsa-sha256",
    comment: null,
    aligned: true,
  };
  const dmarc: DmarcOutcome = {
    result: "pass",
    domain: "northwind.example",
    record: "v=DMARC1; p=reject",
    policy: "reject",
    error: null,
    strict: { spf: false, dkim: false },
  };
  return {
    fromDomain,
    spf: over.spf === null ? null : { ...spf, ...over.spf },
    ...(over.spfSkipped !== undefined ? { spfSkipped: over.spfSkipped } : {}),
    dkim: (over.dkim ?? [{}]).map((d) => ({ ...dkim, ...d })),
    dmarc: over.dmarc === null ? null : { ...dmarc, ...over.dmarc },
  };
}

/** A client of the catalog by form factor and id (e.g. "mobile-sm", "apple-mail-ios"). */
export function client(formFactor: CaptureSize, id: string) {
  const found = findEmailClient(formFactor, id);
  if (!found) throw new Error(`no email client ${id} at ${formFactor}`);
  return found;
}

/** What a test sets on one render: the fields of its layout and of its snapshot that the check reads. */
export interface RenderFields {
  layout?: Partial<LayoutSnapshot>;
  snapshot?: Partial<EmailRenderSnapshot>;
  /** Dark renders: how the client darkened it (by default its catalog method, darkened). */
  darkMode?: DarkRendering | null;
  /** What the client's profile changed, and which of it applies where (by selector). */
  changes?: RenderChange[];
  changesAt?: Record<string, number[]>;
  /** axe-core's results on the render (a check that reads "render-axe"). */
  axe?: AxeSummary;
}

/** One render in a catalog client: a layout that fits its width and an empty snapshot, with the given fields. */
export function render(formFactor: CaptureSize, clientId: string, over: RenderFields = {}): RenderOutcome {
  const c = client(formFactor, clientId);
  const rendered: EmailRender = {
    client: c,
    engine: "chromium",
    formFactor,
    dark: c.colorScheme === "dark",
    darkMode:
      over.darkMode !== undefined
        ? over.darkMode
        : c.colorScheme === "dark"
          ? { ...DARK_METHODS[c.darkMode], darkened: c.darkMode !== "none", how: `${c.darkMode} (test)` }
          : null,
    label: `${c.id}-${formFactor}`,
    screenshot: {
      viewport: formFactor,
      contentType: "image/jpeg",
      width: c.width,
      height: c.height,
      pageHeight: c.height,
      cut: false,
      data: new Uint8Array(),
    },
    layout: {
      viewport: { width: c.width, height: c.height },
      documentWidth: c.width,
      documentHeight: c.height,
      textOverlaps: [],
      controls: [],
      overflowing: [],
      brokenImages: [],
      brokenWords: [],
      visibleH1: null,
      ...over.layout,
    },
    snapshot: {
      canvas: [255, 255, 255],
      textBlocks: [],
      images: [],
      links: [],
      words: 0,
      altWords: 0,
      viewportWidth: c.width,
      ...over.snapshot,
    },
    notes: [],
    changes: over.changes ?? [],
    changesOmitted: 0,
    changesAt: over.changesAt ?? {},
    blocked: [],
    ...(over.axe ? { axe: over.axe } : {}),
  };
  return { ok: true, render: rendered };
}

/** A render that failed, as the render engine reports it. */
export function failedRender(formFactor: CaptureSize, clientId: string, error: string): RenderOutcome {
  return { ok: false, client: client(formFactor, clientId), formFactor, label: `${clientId}-${formFactor}`, error };
}

/** A message with a body whose renders for one check are the given outcomes. */
export const withRenders = (validationId: string, outcomes: RenderOutcome[]): Promise<EmailArtifacts> =>
  email(
    { html: "<!DOCTYPE html><html><body><p>Rendered by hand</p></body></html>" },
    // The renders' pictures were read and held no text, unless a test says otherwise.
    { renders: { [validationId]: outcomes }, imageText: { read: {}, skipped: 0, ms: 0 } },
  );

type TextBlock = EmailRenderSnapshot["textBlocks"][number];
export const textBlock = (
  selector: string,
  text: string,
  contrast: number,
  over: Partial<TextBlock> = {},
): TextBlock => ({
  selector,
  text,
  fontSizePx: 16,
  bold: false,
  color: [34, 34, 34],
  background: [255, 255, 255],
  contrast,
  ...over,
});

type RenderLink = EmailRenderSnapshot["links"][number];
export const renderLink = (
  selector: string,
  href: string,
  text: string,
  over: Partial<RenderLink> = {},
): RenderLink => ({
  selector,
  href,
  text,
  box: { x: 20, y: 400, width: 200, height: 48 },
  shown: true,
  buttonStyled: false,
  color: [0, 0, 0],
  background: [255, 255, 255],
  contrast: 8,
  visibleShare: 1,
  ...over,
});

type RenderImage = EmailRenderSnapshot["images"][number];
export const renderImage = (selector: string, url: string, over: Partial<RenderImage> = {}): RenderImage => ({
  selector,
  source: "remote",
  url,
  alt: null,
  box: { x: 0, y: 0, width: 600, height: 300 },
  shown: true,
  loaded: false,
  link: null,
  linkText: "",
  ...over,
});

/** Runs a check as the job service does: the parameters' defaults filled in, then the given ones. */
export async function evaluate(
  check: EmailValidation,
  input: EmailArtifacts,
  params: Record<string, unknown> = {},
): Promise<Outcome> {
  return check.evaluate(input, withDefaults(check.meta, params));
}
