import { getDomain } from "tldts";
import { pass, type Outcome, type ValidationMeta } from "../types";
import type { EmailArtifacts } from "../../capture/email/email-artifacts";
import type { EmailHtmlSnapshot } from "../../capture/email/snapshot-email-html";
import { headerValues } from "../../capture/email/email-artifacts";

/** Defaults shared by the functional email checks: they read the MIME, render nothing, one credit. */
export function mimeCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta>,
): ValidationMeta & { subjectType: "email" } {
  return {
    slug: meta.id,
    kind: "functional",
    price: { credits: 1 },
    parameters: [],
    requiresConfiguration: false,
    capture: { offered: [], standard: [] },
    needs: [],
    method: "dom",
    ...meta,
    subjectType: "email",
  };
}

/** Defaults for the email checks that read the structure of the HTML part (EmailArtifacts.htmlDom). */
export function htmlCheck(
  meta: Pick<ValidationMeta, "id" | "name" | "category" | "severity" | "summary" | "judgment" | "references"> &
    Partial<ValidationMeta>,
): ValidationMeta & { subjectType: "email" } {
  return mimeCheck({ needs: ["email-html"], ...meta });
}

/** Whether the message has a real text/html part (not one postal-mime made from the text/plain part). */
export function hasHtmlPart(email: EmailArtifacts): boolean {
  return !!email.html && email.bodyParts?.html !== false;
}

/** The decoded text/plain part, or null when the message has none (postal-mime's text made from the HTML does not count). */
export function plainPart(email: EmailArtifacts): string | null {
  return email.text !== null && email.bodyParts?.plain !== false ? email.text : null;
}

/**
 * The HTML part's structure for a check that declared "email-html", or the outcome to give instead: a pass
 * when the message has no HTML part (nothing to check), an error when the structure could not be read.
 */
export function htmlDomOf(
  email: EmailArtifacts,
  whenNoHtml: string,
): { dom: EmailHtmlSnapshot } | { outcome: Outcome } {
  if (!hasHtmlPart(email)) return { outcome: pass(`The message has no text/html part: ${whenNoHtml}`) };
  const dom = email.htmlDom;
  if (!dom) {
    const cause = "The HTML part's structure was not gathered for this check.";
    return { outcome: { verdict: "error", reason: cause, reasoning: cause, findings: [] } };
  }
  if ("error" in dom) return { outcome: { verdict: "error", reason: dom.error, reasoning: dom.error, findings: [] } };
  return { dom };
}

/** The registrable domain (eTLD+1, ICANN section of the Public Suffix List) of a host or address; null for IPs and bare suffixes. */
export function registrableDomain(hostOrAddress: string): string | null {
  const host = hostOrAddress.includes("@") ? hostOrAddress.slice(hostOrAddress.lastIndexOf("@") + 1) : hostOrAddress;
  return getDomain(host.trim().replace(/\.$/, "").toLowerCase(), { allowPrivateDomains: false }) ?? null;
}

/** Whether host is domain or one of its subdomains. */
export function hostWithin(host: string, domain: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  const d = domain
    .toLowerCase()
    .replace(/^\*?\./, "")
    .replace(/\.$/, "");
  return h === d || h.endsWith(`.${d}`);
}

/** http(s) URLs in plain text, with trailing punctuation trimmed. */
export function urlsInText(text: string): string[] {
  return [...text.matchAll(/\bhttps?:\/\/[^\s<>"'\])]+/gi)].map((m) => m[0].replace(/[.,;:!?]+$/, ""));
}

/** A URL reduced for comparison: scheme-less host (no www.) and path without trailing slash; query and fragment dropped. */
export function urlKey(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (!/^https?:$/.test(u.protocol)) return null;
    return `${u.hostname.replace(/^www\./, "")}${u.pathname.replace(/\/+$/, "")}`.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * One mailbox of an address header, as written: the display name (quotes removed, RFC 2047 words left
 * encoded), the addr-spec (comments removed) and whether the angle brackets balance.
 */
export interface RawMailbox {
  raw: string;
  displayName: string;
  addrSpec: string;
  angle: boolean;
  problem: string | null;
}

/** Splits an address-list header value into mailboxes (commas inside quotes, comments and <> do not split; groups are opened). */
export function parseAddressList(value: string): RawMailbox[] {
  const items: string[] = [];
  let current = "";
  let quoted = false;
  let comment = 0;
  let angle = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted) {
      current += c;
      if (c === "\\" && i + 1 < value.length) current += value[++i];
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === "(") comment++;
    else if (c === ")" && comment > 0) comment--;
    else if (c === "<" && !comment) angle++;
    else if (c === ">" && !comment && angle > 0) angle--;
    if (!comment && !angle && (c === "," || c === ";")) {
      items.push(current);
      current = "";
      continue;
    }
    // A group's name ("Team: a@x, b@y;") opens the group; its members follow.
    if (c === ":" && !comment && !angle && !/@|</.test(current) && /^[^"]*$/.test(current) && current.trim()) {
      current = "";
      continue;
    }
    current += c;
  }
  items.push(current);
  return items.filter((s) => s.trim()).map(parseMailbox);
}

function parseMailbox(raw: string): RawMailbox {
  const stripComments = (s: string) => {
    let out = "";
    let depth = 0;
    let quoted = false;
    for (let i = 0; i < s.length; i++) {
      const c = s[i]!;
      if (quoted) {
        out += c;
        if (c === "\\" && i + 1 < s.length) out += s[++i];
        else if (c === '"') quoted = false;
      } else if (c === '"' && depth === 0) {
        quoted = true;
        out += c;
      } else if (c === "(") depth++;
      else if (c === ")" && depth > 0) depth--;
      else if (depth === 0) out += c;
    }
    return out;
  };
  const text = stripComments(raw).trim();
  const opens = (text.match(/</g) ?? []).length;
  const closes = (text.match(/>/g) ?? []).length;
  if (opens !== closes || opens > 1) {
    return {
      raw: raw.trim(),
      displayName: "",
      addrSpec: text,
      angle: opens > 0,
      problem: "unbalanced or repeated angle brackets",
    };
  }
  if (opens === 1) {
    const m = /^(.*)<([^<>]*)>\s*$/s.exec(text);
    if (!m)
      return {
        raw: raw.trim(),
        displayName: "",
        addrSpec: text,
        angle: true,
        problem: "text after the closing angle bracket",
      };
    const displayName = m[1]!
      .trim()
      .replace(/^"(.*)"$/s, "$1")
      .replace(/\\(.)/g, "$1")
      .trim();
    return { raw: raw.trim(), displayName, addrSpec: m[2]!.trim(), angle: true, problem: null };
  }
  return { raw: raw.trim(), displayName: "", addrSpec: text, angle: false, problem: null };
}

const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\u0080-\\uFFFF-]";
const DOT_ATOM = new RegExp(`^${ATEXT}+(?:\\.${ATEXT}+)*$`);
const QUOTED_LOCAL = /^"(?:[^"\\\r\n]|\\.)*"$/;
const LABEL = /^(?!-)[A-Za-z0-9\u0080-\uFFFF-]{1,63}(?<!-)$/;

/** Why an addr-spec is not a deliverable RFC 5322 address (local@domain, domain of 2+ non-empty labels), or null when it is. */
export function addrSpecProblem(addrSpec: string): string | null {
  const spec = addrSpec.trim();
  if (!spec) return "it is empty";
  const at = spec.lastIndexOf("@");
  if (at < 0) return "it has no @";
  const local = spec.slice(0, at);
  const domain = spec.slice(at + 1);
  if (!local) return "the part before @ is empty";
  if (!DOT_ATOM.test(local) && !QUOTED_LOCAL.test(local))
    return `the local part ${JSON.stringify(local)} is not a valid atom or quoted string`;
  if (!domain) return "the domain is empty";
  if (/^\[.*\]$/.test(domain)) return null;
  const labels = domain.replace(/\.$/, "").split(".");
  if (labels.some((l) => l === "")) return `the domain ${JSON.stringify(domain)} has an empty label`;
  if (labels.length < 2)
    return `the domain ${JSON.stringify(domain)} is not fully qualified (it needs a dot, e.g. brand.com)`;
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad) return `the domain label ${JSON.stringify(bad)} is not a valid host name label`;
  return null;
}

/** The first few items joined for a reason ("a; b; c; +4 more"). */
export function listed(items: string[], max = 3): string {
  return items.slice(0, max).join("; ") + (items.length > max ? `; +${items.length - max} more` : "");
}

/** The List-Unsubscribe and List-Unsubscribe-Post headers as RFC 8058 reads them. */
export function unsubscribeHeaders(email: EmailArtifacts): {
  lists: string[];
  posts: string[];
  /** The <https://…> URIs of List-Unsubscribe, where a one-click POST can go. */
  https: string[];
  /** A List-Unsubscribe-Post header is exactly "List-Unsubscribe=One-Click". */
  oneClick: boolean;
} {
  const lists = headerValues(email, "list-unsubscribe");
  const posts = headerValues(email, "list-unsubscribe-post").map((v) => v.trim());
  const https = lists
    .flatMap((v) => [...v.matchAll(/<\s*([^>]+?)\s*>/g)].map((m) => m[1]!))
    .filter((u) => /^https:\/\//i.test(u));
  return { lists, posts, https, oneClick: posts.some((v) => v === "List-Unsubscribe=One-Click") };
}
