import { Type } from "@sinclair/typebox";
import type { EmailArtifacts } from "../../capture/email/email-artifacts";
import type { EmailAuthentication } from "../../capture/email/authentication";
import type { EmailValidation, Finding, Outcome } from "../types";
import { mimeCheck, unsubscribeHeaders } from "./_helpers";

/**
 * What Gmail, Yahoo and Outlook.com require of bulk senders, judged per provider from the message as it arrived
 * and the sender's DNS (the same mailauth evaluation email-authentication reads). The rules are data: one entry
 * per provider, naming the requirements it enforces and what happens to a message that misses one.
 */

type MessageType = "auto" | "marketing" | "transactional";

type RequirementId =
  | "spf-pass"
  | "dkim-pass"
  | "dmarc-published"
  | "dmarc-aligned"
  | "one-click-unsubscribe"
  | "spam-rate";

interface Provider {
  id: "gmail" | "yahoo" | "outlook";
  name: string;
  /** Who the rules apply to, as the provider words it. */
  scope: string;
  since: string;
  /** What the provider does to a message that misses a required requirement. */
  consequence: string;
  required: RequirementId[];
  /** Asked for but never the cause of a rejection. */
  recommended: RequirementId[];
  /** Required, but not something one message shows. */
  notCheckable: RequirementId[];
  source: string;
}

const GOOGLE_GUIDELINES = "https://support.google.com/a/answer/81126";
const YAHOO_PRACTICES = "https://senders.yahooinc.com/best-practices/";
const OUTLOOK_REQUIREMENTS =
  "https://techcommunity.microsoft.com/blog/microsoftdefenderforoffice365blog/strengthening-email-ecosystem-outlook%E2%80%99s-new-requirements-for-high%E2%80%90volume-senders/4399730";

const AUTHENTICATION: RequirementId[] = ["spf-pass", "dkim-pass", "dmarc-published", "dmarc-aligned"];

export const PROVIDERS: readonly Provider[] = [
  {
    id: "gmail",
    name: "Gmail",
    scope: "senders of more than 5,000 messages a day to personal Gmail accounts",
    since: "February 2024",
    consequence: "Gmail rejects it or sends it to spam",
    required: [...AUTHENTICATION, "one-click-unsubscribe"],
    recommended: [],
    notCheckable: ["spam-rate"],
    source: GOOGLE_GUIDELINES,
  },
  {
    id: "yahoo",
    name: "Yahoo Mail",
    scope: "bulk senders to Yahoo Mail",
    since: "February 2024",
    consequence: "Yahoo defers, rejects or junks it",
    required: [...AUTHENTICATION, "one-click-unsubscribe"],
    recommended: [],
    notCheckable: ["spam-rate"],
    source: YAHOO_PRACTICES,
  },
  {
    id: "outlook",
    name: "Outlook.com (outlook.com, hotmail.com, live.com)",
    scope: "domains sending more than 5,000 messages a day to Outlook.com consumer mailboxes",
    since: "May 2025",
    consequence:
      'Outlook.com rejects it with "550 5.7.515 Access denied, sending domain does not meet the required authentication level"',
    required: AUTHENTICATION,
    recommended: ["one-click-unsubscribe"],
    notCheckable: [],
    source: OUTLOOK_REQUIREMENTS,
  },
];

const TITLES: Record<RequirementId, string> = {
  "spf-pass": "SPF passes",
  "dkim-pass": "DKIM passes",
  "dmarc-published": "a DMARC record (p=none at least) is published for the From domain",
  "dmarc-aligned": "the From domain aligns with the passing SPF or DKIM domain (DMARC passes)",
  "one-click-unsubscribe":
    "one-click unsubscribe (List-Unsubscribe with an https URI and List-Unsubscribe-Post, RFC 8058)",
  "spam-rate": "a spam complaint rate below 0.3% (Postmaster Tools)",
};

interface Judged {
  met: boolean | null;
  detail: string;
  fix?: string;
}

/** One requirement on this message; met null: cannot be told from one message (or is not asked of this kind of mail). */
function judgeRequirement(
  id: RequirementId,
  auth: EmailAuthentication,
  email: EmailArtifacts,
  messageType: MessageType,
): Judged {
  const from = auth.fromDomain ?? "the From domain";
  switch (id) {
    case "spf-pass": {
      const spf = auth.spf!;
      return spf.result === "pass"
        ? { met: true, detail: `SPF pass for ${spf.domain} from ${spf.clientIp}` }
        : {
            met: false,
            detail: `SPF ${spf.result} for ${spf.domain} from ${spf.clientIp}`,
            fix: `list the sending server ${spf.clientIp} in the SPF record of ${spf.domain} (or send through a server it lists)`,
          };
    }
    case "dkim-pass": {
      const passing = auth.dkim.find((d) => d.result === "pass");
      if (passing) return { met: true, detail: `DKIM pass for d=${passing.signingDomain}` };
      const first = auth.dkim[0];
      return {
        met: false,
        detail: first
          ? `DKIM ${first.result} for d=${first.signingDomain}${first.comment ? ` (${first.comment})` : ""}`
          : "the message is not DKIM-signed",
        fix: first
          ? `make the DKIM signature by ${first.signingDomain} verify (sign last, after every change, with the key published at ${first.selector}._domainkey.${first.signingDomain})`
          : `sign the message with DKIM (d=${from})`,
      };
    }
    case "dmarc-published": {
      const dmarc = auth.dmarc;
      if (!dmarc)
        return {
          met: false,
          detail: "no single From address to look a DMARC record up for",
          fix: "give the message exactly one From address",
        };
      const policy = dmarc.policy;
      if (dmarc.record && policy && ["none", "quarantine", "reject"].includes(policy))
        return { met: true, detail: `_dmarc.${dmarc.domain}: p=${policy}` };
      return {
        met: false,
        detail: dmarc.record
          ? `the DMARC record of ${dmarc.domain} has no valid policy (${dmarc.result})`
          : `no DMARC record at _dmarc.${dmarc.domain}`,
        fix: `publish a DMARC record at _dmarc.${dmarc.domain} (at least "v=DMARC1; p=none")`,
      };
    }
    case "dmarc-aligned": {
      const spf = auth.spf;
      const viaSpf = spf?.result === "pass" && spf.aligned ? `SPF (${spf.domain})` : null;
      const dkim = auth.dkim.find((d) => d.result === "pass" && d.aligned);
      const viaDkim = dkim ? `DKIM (d=${dkim.signingDomain})` : null;
      if (viaSpf || viaDkim)
        return { met: true, detail: `${[viaSpf, viaDkim].filter(Boolean).join(" and ")} aligned with ${from}` };
      return {
        met: false,
        detail: `neither a passing SPF nor a passing DKIM domain aligns with ${from}`,
        fix: `sign with DKIM as d=${from} (or send with a MAIL FROM at ${from}) so that DMARC passes`,
      };
    }
    case "one-click-unsubscribe": {
      if (messageType === "transactional")
        return { met: null, detail: "not asked of transactional mail (messageType: transactional)" };
      const headers = unsubscribeHeaders(email);
      if (messageType === "auto" && headers.lists.length === 0)
        return {
          met: null,
          detail:
            'not judged: the message has no List-Unsubscribe, so it does not present itself as subscribed mail (a receipt needs none); give messageType "marketing" to require it',
        };
      if (headers.https.length && headers.oneClick)
        return {
          met: true,
          detail: `List-Unsubscribe ${headers.https[0]} with List-Unsubscribe-Post: List-Unsubscribe=One-Click`,
        };
      const missing =
        headers.lists.length === 0
          ? "no List-Unsubscribe header"
          : headers.https.length === 0
            ? "List-Unsubscribe has no https URI"
            : "no List-Unsubscribe-Post: List-Unsubscribe=One-Click";
      return {
        met: false,
        detail: missing,
        fix: 'send "List-Unsubscribe: <https://…>" and "List-Unsubscribe-Post: List-Unsubscribe=One-Click", both signed by DKIM',
      };
    }
    case "spam-rate":
      return {
        met: null,
        detail:
          "not checked: the rate is measured over the sender's traffic (Google Postmaster Tools, Yahoo's feedback loop), not on one message",
      };
  }
}

export const emailProviderRequirements: EmailValidation = {
  meta: mimeCheck({
    id: "email-provider-requirements",
    name: "Gmail, Yahoo and Outlook.com sender requirements",
    category: "deliverability",
    severity: "critical",
    summary:
      "One verdict per mailbox provider: the message meets what Gmail and Yahoo (since February 2024) and Outlook.com (since May 2025) require of bulk senders.",
    judgment:
      "Evaluated on the message as it arrived and the sender's DNS (mailauth, as email-authentication). Gmail and Yahoo require of bulk senders: SPF pass, DKIM pass, " +
      "a DMARC record with at least p=none, the From domain aligned with the passing SPF or DKIM domain (DMARC pass), and RFC 8058 one-click unsubscribe " +
      "(List-Unsubscribe with an https URI and List-Unsubscribe-Post: List-Unsubscribe=One-Click) on marketing and subscribed mail; their spam-rate limit " +
      "(below 0.3%) is measured over the sender's traffic, so it is reported as not checked. Outlook.com requires of domains sending over 5,000 messages a " +
      "day to outlook.com, hotmail.com and live.com: SPF pass, DKIM pass, DMARC at least p=none and aligned, and rejects the rest with 550 5.7.515; " +
      "unsubscribe is recommended there, never a fail. Each provider's finding lists every requirement met or not; the check fails when any provider " +
      "has an unmet requirement, and its reason names the provider, what it does with the message, and what to fix. " +
      'One-click unsubscribe is judged on a message that carries List-Unsubscribe (it presents itself as subscribed mail) or with messageType "marketing"; a message without the header is not judged on it by default (a receipt needs none), and with messageType "transactional" never. A DNS lookup that could not be answered is an error, not a fail.',
    needs: ["authentication"],
    parameters: [
      {
        name: "messageType",
        description:
          'What the message is: "marketing" (marketing or subscribed mail, which must offer one-click unsubscribe at Gmail and Yahoo), "transactional" (receipts, password resets: exempt), or "auto" (marketing when it carries List-Unsubscribe).',
        format: '"auto", "marketing" or "transactional"',
        schema: Type.Union([Type.Literal("auto"), Type.Literal("marketing"), Type.Literal("transactional")]),
        default: "auto",
        example: "transactional",
      },
    ],
    references: [
      { title: "Google: Email sender guidelines", url: GOOGLE_GUIDELINES },
      { title: "Google: Email sender guidelines FAQ", url: "https://support.google.com/a/answer/14229414" },
      { title: "Yahoo Sender Hub: Sender Best Practices", url: YAHOO_PRACTICES },
      { title: "Microsoft: Outlook's New Requirements for High-Volume Senders", url: OUTLOOK_REQUIREMENTS },
      {
        title: "RFC 8058 Signaling One-Click Functionality for List Email Headers",
        url: "https://www.rfc-editor.org/rfc/rfc8058",
      },
    ],
  }),
  evaluate(email, params) {
    const auth = email.authentication;
    if (!auth) return errorOutcome("The authentication results were not computed for this message.");
    if ("error" in auth) return errorOutcome(auth.error);
    const dns = dnsFailures(auth);
    if (dns)
      return errorOutcome(
        `DNS could not answer, so the providers' requirements were not judged: ${dns}. Retry the job.`,
      );
    return judge(auth, email, (params.messageType as MessageType | undefined) ?? "auto");
  },
};

function judge(auth: EmailAuthentication, email: EmailArtifacts, messageType: MessageType): Outcome {
  const cache = new Map<RequirementId, Judged>();
  const judged = (id: RequirementId) => {
    if (!cache.has(id)) cache.set(id, judgeRequirement(id, auth, email, messageType));
    return cache.get(id)!;
  };
  const findings: Finding[] = [];
  const refusals: string[] = [];
  const fixes = new Set<string>();
  for (const p of PROVIDERS) {
    const rows = [
      ...p.required.map((id) => ({ id, level: "required" as const, ...judged(id) })),
      ...p.recommended.map((id) => ({ id, level: "recommended" as const, ...judged(id) })),
      ...p.notCheckable.map((id) => ({ id, level: "required" as const, ...judged(id) })),
    ];
    const unmet = rows.filter((r) => r.level === "required" && r.met === false);
    const verdict = unmet.length ? "fail" : "pass";
    const notChecked = rows.filter((r) => r.met === null).map((r) => TITLES[r.id]);
    findings.push({
      message: `${p.name}: ${verdict === "pass" ? "meets" : "misses"} ${verdict === "pass" ? "every requirement checked" : unmet.map((r) => TITLES[r.id]).join("; ")}`,
      url: p.source,
      ...(notChecked.length ? { text: `Not checked: ${notChecked.join("; ")}` } : {}),
      measured: {
        provider: p.id,
        verdict,
        scope: p.scope,
        since: p.since,
        ...(verdict === "fail" ? { consequence: p.consequence } : {}),
        requirements: rows.map((r) => ({
          requirement: r.id,
          level: r.level,
          met: r.met,
          detail: r.detail,
          ...(r.met === false && r.fix ? { fix: r.fix } : {}),
        })),
      },
    });
    if (unmet.length) {
      refusals.push(`${p.consequence} (${unmet.map((r) => r.detail).join("; ")})`);
      for (const r of unmet) if (r.fix) fixes.add(r.fix);
    }
  }
  const summary = findings.map((f) => f.message).join(". ");
  if (refusals.length === 0)
    return {
      verdict: "pass",
      reasoning: `${summary}. The spam-rate limit of Gmail and Yahoo is not something one message shows: watch it in Google Postmaster Tools.`,
      findings,
    };
  const fixList = [...fixes];
  return {
    verdict: "fail",
    reason: `${refusals.join(". ")}. Fix: ${fixList.join("; ")}`,
    reasoning: `${summary}.`,
    findings,
  };
}

/** The DNS failures that leave a requirement undecided, or null. A DKIM key failure matters only when no signature passes. */
function dnsFailures(auth: EmailAuthentication): string | null {
  const out: string[] = [];
  if (!auth.spf) out.push(auth.spfSkipped ?? "SPF could not be evaluated");
  else if (auth.spf.result === "temperror")
    out.push(`SPF lookup for ${auth.spf.domain} failed (${auth.spf.comment ?? "DNS error"})`);
  if (!auth.dkim.some((d) => d.result === "pass"))
    for (const d of auth.dkim.filter((k) => k.result === "temperror"))
      out.push(`DKIM key lookup for d=${d.signingDomain} failed (${d.comment ?? "DNS error"})`);
  if (auth.dmarc?.result === "temperror")
    out.push(`DMARC lookup for ${auth.dmarc.domain} failed (${auth.dmarc.error ?? "DNS error"})`);
  return out.length ? out.join("; ") : null;
}

function errorOutcome(cause: string): Outcome {
  return { verdict: "error", reason: cause, reasoning: cause, findings: [] };
}
