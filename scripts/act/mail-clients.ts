/**
 * The W3C ACT test cases as email: each case that a message can carry is the HTML part of a message sent over SMTP
 * to an email job's one-time address, through Assay's real interface, and email-accessibility-wcag runs axe-core on
 * the message as each mail-client profile shows it (after the client's sanitizer). A rule's outcome in a client is
 * decided from that client's findings as scripts/act/judge.ts decides a webpage's.
 */
import nodemailer from "nodemailer";
import { readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { startServer, type TestServer } from "../../test/support/harness";
import { settledEmailJob } from "../../test/support/fixture-runs";
import { ACT_MAPPING, type RuleMapping } from "./mapping";
import { decide, type CheckResult, type Decision, type TestCase } from "./judge";
import { ACT_ROOT } from "./run";

/** The check that runs axe-core per client render. */
export const MAIL_CHECK = "email-accessibility-wcag";

/**
 * One client per distinct sanitizer, light (a dark variant changes colours, not structure): the desktop clients at
 * desktop-md, the app-only profiles at mobile-sm. Left out as the same sanitizer as one here: Apple Mail on iPhone and
 * iPad (Apple Mail's rules), the new Outlook for Windows (Outlook on the web's rules and caniemail data), the Gmail
 * apps with a Google account (Gmail's rules; only caniemail's CSS data differ).
 */
export const MAIL_CLIENTS: Array<{ formFactor: "desktop-md" | "mobile-sm"; id: string }> = [
  { formFactor: "desktop-md", id: "apple-mail" },
  { formFactor: "desktop-md", id: "gmail-web" },
  { formFactor: "desktop-md", id: "outlook-web" },
  { formFactor: "desktop-md", id: "outlook-windows" },
  { formFactor: "desktop-md", id: "yahoo-web" },
  { formFactor: "desktop-md", id: "thunderbird" },
  { formFactor: "mobile-sm", id: "gmail-android-non-google" },
  { formFactor: "mobile-sm", id: "outlook-ios" },
  { formFactor: "mobile-sm", id: "samsung-mail" },
];

/** What a case's markup holds that no message can carry, and why: the first that matches skips the case. */
const NOT_IN_MAIL: Array<[RegExp, string]> = [
  [/<script\b/i, "runs a script: no mail client runs a message's scripts"],
  [/<i?frame\b/i, "embeds a frame: mail clients drop iframes and frames"],
  [/<(object|embed)\b/i, "embeds an object or plugin: mail clients drop <object> and <embed>"],
  [/<(video|audio)\b/i, "plays media: the cases' media is not vendored, and most clients drop <video> and <audio>"],
  [/<link\b[^>]*stylesheet/i, "loads a stylesheet from the case's site: a message cannot, clients drop <link>"],
];

/** Why a rule cannot be run as email, when it cannot: its webpage procedure has no per-client form. */
export function ruleNotInMail(mapping: RuleMapping | undefined): string | null {
  if (!mapping) return "no mapping: Assay does not claim the rule";
  const other = mapping.procedures.find((p) => !p.axe);
  if (other) return `decided by ${other.check}, a webpage check with no per-client form`;
  // email-accessibility-wcag holds a message to WCAG alone: axe's best-practice rules are not among its rules.
  const bestPractice = mapping.procedures.find((p) => p.parameters?.bestPractices === true);
  return bestPractice
    ? "an axe best-practice rule, outside WCAG: email-accessibility-wcag runs WCAG's rules only"
    : null;
}

/** Why a case is not sent as a message (null: it is). */
export function caseNotInMail(c: TestCase): string | null {
  const ext = extname(c.relativePath).toLowerCase();
  if (ext !== ".html" && ext !== ".htm") return `not an HTML document (${ext}): a message's HTML part is HTML`;
  const html = readFileSync(join(ACT_ROOT, c.relativePath), "utf8");
  return NOT_IN_MAIL.find(([re]) => re.test(html))?.[1] ?? null;
}

/** A client change cited for a broken guarantee, as the job's render record states it. */
interface RecordedChange {
  action: string;
  target: string;
  selector?: string;
  rule: string;
  source: string;
}

export interface ClientDecision extends Decision {
  /** The client's changes to the message (without the ones every render makes: images off, links rewritten). */
  changes: string[];
}

export interface MailCaseResult {
  testcase: TestCase;
  /** Per client id: its outcome; absent for a case not sent (see `skipped`). */
  clients: Record<string, ClientDecision>;
  skipped?: string;
}

const EVERY_RENDER = new Set(["images-blocked", "link-rewritten"]);
const changeLine = (c: RecordedChange) =>
  `${c.action} ${c.target}${c.selector && c.selector !== c.target ? ` on ${c.selector}` : ""}: ${c.rule} (${c.source})`;

/** Each client's outcome for one case, from the email job's result: that client's findings, decided as a webpage's. */
export function decideClients(
  mapping: RuleMapping,
  result: any,
  clients = MAIL_CLIENTS,
): Record<string, ClientDecision> {
  const out: Record<string, ClientDecision> = {};
  for (const { id } of clients) {
    const record = (result?.renders ?? []).find((r: { clientId: string }) => r.clientId === id);
    if (!result || result.verdict === "error" || !record) {
      const why = result
        ? `not rendered in ${id}: ${result.undelivered?.reason ?? result.reason ?? "no render"}`
        : "no result";
      out[id] = { outcome: "cantTell", decidedBy: why, changes: [] };
      continue;
    }
    const findings = (result.findings as CheckResult["findings"]).filter((f) => f.measured?.client === id);
    // The procedures are accessibility-wcag's on a page; here the same axe rules are read from the client's render.
    const asPage: CheckResult[] = [{ validationId: "accessibility-wcag", verdict: "pass", reasoning: "", findings }];
    const decision = decide(mapping, asPage);
    // The changes the deciding findings cite (measured.explainedBy), else every change the client made to the case.
    const axeRules = mapping.procedures.flatMap((p) => p.axe ?? []);
    const cited = [
      ...new Set(
        findings
          .filter((f) => axeRules.includes(String(f.measured?.rule)))
          .flatMap((f) => (f.measured?.explainedBy as string[] | undefined) ?? []),
      ),
    ];
    const changes = cited.length
      ? cited
      : (record.changes as RecordedChange[]).filter((c) => !EVERY_RENDER.has(c.action)).map(changeLine);
    out[id] = { ...decision, decidedBy: decision.decidedBy.replace("accessibility-wcag", MAIL_CHECK), changes };
  }
  return out;
}

/** Sends one case as a message's HTML part to a fresh email job and waits for its result. */
async function runCase(server: TestServer, apiKey: string, c: TestCase, clients: typeof MAIL_CLIENTS) {
  const mapping = ACT_MAPPING[c.ruleId]!;
  const standard = mapping.procedures[0]!.parameters?.standard ?? "wcag22aa";
  const byFormFactor: Record<string, string[]> = {};
  for (const { formFactor, id } of clients) (byFormFactor[formFactor] ??= []).push(id);
  const created = await server.api("POST", "/api/jobs", {
    key: apiKey,
    body: { type: "email", validations: [{ id: MAIL_CHECK, parameters: { standard }, clients: byFormFactor }] },
  });
  if (created.status !== 200) throw new Error(`HTTP ${created.status} ${JSON.stringify(created.body)}`);
  await nodemailer
    .createTransport({ host: "127.0.0.1", port: server.smtpPort, secure: false, ignoreTLS: true })
    .sendMail({
      from: '"W3C ACT cases" <act@cases.example>',
      to: created.body.testEmail,
      subject: `${c.ruleName}: ${c.testcaseTitle}`,
      text: c.testcaseTitle,
      html: readFileSync(join(ACT_ROOT, c.relativePath), "utf8"),
    });
  const job = await settledEmailJob(server, apiKey, created.body.jobId);
  return job.results?.find((r: { validationId: string }) => r.validationId === MAIL_CHECK) ?? null;
}

/** Every case's outcome per client (or why it was not sent), in the order given, `width` jobs at a time. */
export async function runMailCases(
  cases: TestCase[],
  width = 2,
  clients = MAIL_CLIENTS,
  progress: (done: number) => void = () => {},
): Promise<MailCaseResult[]> {
  const server = await startServer({ ASSAY_SIGNUP_CREDITS: "100000000", ASSAY_BROWSER_POOL_SIZE: String(width) });
  try {
    const { apiKey } = await server.signup("act-mail@example.com");
    const results: MailCaseResult[] = new Array(cases.length);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: width }, async () => {
        for (let i = next++; i < cases.length; i = next++) {
          const c = cases[i]!;
          const skipped = ruleNotInMail(ACT_MAPPING[c.ruleId]) ?? caseNotInMail(c);
          if (skipped) results[i] = { testcase: c, clients: {}, skipped };
          else {
            const result = await runCase(server, apiKey, c, clients).catch((e: Error) => ({
              verdict: "error",
              reason: e.message,
            }));
            results[i] = { testcase: c, clients: decideClients(ACT_MAPPING[c.ruleId]!, result, clients) };
          }
          progress(++done);
        }
      }),
    );
    return results;
  } finally {
    await server.stop();
  }
}
