/**
 * What `npm run act:mail` writes: every case's outcome per mail client, and per rule × client whether the rule's
 * accessibility guarantee survives the client (reports/act/mail-clients.json), and the same as Markdown
 * (docs/act-mail-clients.md). Pure, so the test rebuilds the summary from the committed cases.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { findEmailClient } from "../../src/catalog/email-clients";
import { ACT_MAPPING } from "./mapping";
import { isRight, mappingName, type Expected, type Outcome } from "./judge";
import { MAIL_CLIENTS, type MailCaseResult } from "./mail-clients";
import type { Summary } from "./report";

export interface MailRun {
  version: string;
  axeVersion: string;
  testcasesCommit: string;
  /** The full run's time, and the jobs it ran at a time. */
  seconds: number;
  width: number;
}

/** One case in the report: its outcome per client; what decided it where it is wrong or cantTell, the client's changes where it is wrong. */
export interface MailCase {
  ruleId: string;
  ruleName: string;
  testcaseId: string;
  title: string;
  expected: Expected;
  skipped?: string;
  clients: Record<string, { outcome: Outcome; decidedBy?: string; changes?: string[] }>;
}

export type Status = "survives" | "broken" | "not applicable";

export interface RuleInClient {
  status: Status;
  /** Cases sent, and those whose outcome in the client is the expected one (cantTell counts right, as the W3C counts it). */
  run: number;
  right: number;
  /** The cases the client gets wrong that are right as a webpage: what breaks the guarantee, with the client's changes. */
  broken: Array<{
    testcaseId: string;
    title: string;
    expected: Expected;
    outcome: Outcome;
    decidedBy: string;
    changes: string[];
  }>;
}

export interface MailRule {
  ruleId: string;
  ruleName: string;
  procedure: string;
  cases: number;
  sent: number;
  /** Cases Assay gets wrong as a webpage (reports/act/summary.json): not counted against a client. */
  wrongAsWebpage: string[];
  clients: Record<string, RuleInClient>;
}

export interface MailReport {
  run: MailRun;
  clients: Array<{ id: string; name: string; formFactor: string; profile: string }>;
  totals: {
    rules: number;
    rulesSent: number;
    cases: number;
    sent: number;
    skipped: number;
    survives: number;
    broken: number;
    notApplicable: number;
    /** (case, client) outcomes that are cantTell, and those of them because the client's render failed. */
    cantTell: number;
    notRendered: number;
    /** Broken (case, client) outcomes by direction: a case expected to pass that fails, one expected to fail that passes. */
    failedInClient: number;
    passedInClient: number;
  };
  /** Per client: the rules whose guarantee survives it and those it breaks. */
  byClient: Record<string, { survives: number; broken: number }>;
  rules: MailRule[];
  skipped: Array<{ reason: string; cases: number; rules: string[] }>;
  cases: MailCase[];
}

const compact = (r: MailCaseResult | MailCase): MailCase => {
  if (!("testcase" in r)) return r;
  const t = r.testcase;
  const clients = Object.fromEntries(
    Object.entries(r.clients).map(([id, d]) => [
      id,
      d.outcome === "cantTell"
        ? { outcome: d.outcome, decidedBy: d.decidedBy }
        : isRight(t.expected, d.outcome)
          ? { outcome: d.outcome }
          : { outcome: d.outcome, decidedBy: d.decidedBy, changes: d.changes },
    ]),
  );
  return {
    ruleId: t.ruleId,
    ruleName: t.ruleName,
    testcaseId: t.testcaseId,
    title: t.testcaseTitle,
    expected: t.expected,
    ...(r.skipped ? { skipped: r.skipped } : {}),
    clients,
  };
};

/** The webpage report's wrong cases by rule (reports/act/summary.json). */
function wrongAsWebpage(): Map<string, Set<string>> {
  const summary = JSON.parse(
    readFileSync(join(import.meta.dir, "..", "..", "reports", "act", "summary.json"), "utf8"),
  ) as Summary;
  return new Map(summary.rules.map((r) => [r.ruleId, new Set(r.wrong.map((w) => w.testcaseId))]));
}

export function summarizeMail(results: Array<MailCaseResult | MailCase>, run: MailRun): MailReport {
  const cases = results.map(compact).filter((c) => ACT_MAPPING[c.ruleId]);
  const webWrong = wrongAsWebpage();
  const byRule = new Map<string, MailCase[]>();
  for (const c of cases) byRule.set(c.ruleId, [...(byRule.get(c.ruleId) ?? []), c]);
  const rules: MailRule[] = [...byRule].map(([ruleId, rs]) => {
    const sent = rs.filter((c) => !c.skipped);
    const wrongWeb = webWrong.get(ruleId) ?? new Set<string>();
    const clients = Object.fromEntries(
      MAIL_CLIENTS.map(({ id }) => {
        const counted = sent.filter((c) => !wrongWeb.has(c.testcaseId));
        const wrong = counted.filter((c) => !isRight(c.expected, c.clients[id]!.outcome));
        const status: Status = counted.length === 0 ? "not applicable" : wrong.length ? "broken" : "survives";
        const inClient: RuleInClient = {
          status,
          run: sent.length,
          right: sent.filter((c) => isRight(c.expected, c.clients[id]!.outcome)).length,
          broken: wrong.map((c) => ({
            testcaseId: c.testcaseId,
            title: c.title,
            expected: c.expected,
            outcome: c.clients[id]!.outcome,
            decidedBy: c.clients[id]!.decidedBy ?? "",
            changes: c.clients[id]!.changes ?? [],
          })),
        };
        return [id, inClient];
      }),
    );
    return {
      ruleId,
      ruleName: rs[0]!.ruleName,
      procedure: mappingName(ACT_MAPPING[ruleId]!),
      cases: rs.length,
      sent: sent.length,
      wrongAsWebpage: sent.filter((c) => wrongWeb.has(c.testcaseId)).map((c) => c.testcaseId),
      clients,
    };
  });
  rules.sort((a, b) => a.ruleName.localeCompare(b.ruleName));
  const cells = rules.flatMap((r) => Object.values(r.clients));
  const outcomes = cases.flatMap((c) => Object.values(c.clients));
  const brokenCases = cells.flatMap((c) => c.broken);
  const count = (s: Status) => cells.filter((c) => c.status === s).length;
  const reasons = new Map<string, MailCase[]>();
  for (const c of cases.filter((c) => c.skipped)) reasons.set(c.skipped!, [...(reasons.get(c.skipped!) ?? []), c]);
  return {
    run,
    clients: MAIL_CLIENTS.map(({ id, formFactor }) => {
      const client = findEmailClient(formFactor, id)!;
      return { id, name: client.name, formFactor, profile: client.profile };
    }),
    totals: {
      rules: rules.length,
      rulesSent: rules.filter((r) => r.sent > 0).length,
      cases: cases.length,
      sent: cases.filter((c) => !c.skipped).length,
      skipped: cases.filter((c) => c.skipped).length,
      survives: count("survives"),
      broken: count("broken"),
      notApplicable: count("not applicable"),
      cantTell: outcomes.filter((o) => o.outcome === "cantTell").length,
      notRendered: outcomes.filter((o) => /^(not rendered|no result)/.test(o.decidedBy ?? "")).length,
      failedInClient: brokenCases.filter((b) => b.outcome === "failed").length,
      passedInClient: brokenCases.filter((b) => b.outcome !== "failed").length,
    },
    byClient: Object.fromEntries(
      MAIL_CLIENTS.map(({ id }) => [
        id,
        {
          survives: rules.filter((r) => r.clients[id]!.status === "survives").length,
          broken: rules.filter((r) => r.clients[id]!.status === "broken").length,
        },
      ]),
    ),
    rules,
    skipped: [...reasons]
      .map(([reason, cs]) => ({ reason, cases: cs.length, rules: [...new Set(cs.map((c) => c.ruleId))].sort() }))
      .sort((a, b) => b.cases - a.cases),
    cases,
  };
}

const MARK: Record<Status, string> = { survives: "✓", broken: "✗", "not applicable": "–" };
/** Text in a table cell or a list item: one line, pipes escaped, tags shown as text. */
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").replace(/</g, "&lt;");
/** A client's change as code: its markup and CSS as written. */
const code = (s: string) => `\`${s.replace(/\s+/g, " ").replace(/`/g, "'")}\``;

/** Broken cases listed per rule and client in the Markdown (the JSON holds them all). */
const LISTED = 4;

/** The report as Markdown (docs/act-mail-clients.md). */
export function mailMarkdown(r: MailReport): string {
  const t = r.totals;
  const ids = r.clients.map((c) => c.id);
  const lines = [
    "# ACT rules in mail clients",
    "",
    "<!-- Generated by `npm run act:mail` (scripts/act-mail.ts) from reports/act/mail-clients.json: do not edit. -->",
    "",
    "Which accessibility guarantees survive each mail client: every W3C ACT test case that a message can carry is sent",
    "over SMTP as the HTML part of a message to an email job's one-time address, and `email-accessibility-wcag` runs",
    "axe-core on the message as each client profile shows it (after the client's sanitizer: docs/email-clients.md).",
    "A rule's outcome in a client is decided from that client's findings as the webpage report decides it",
    "([act.md](act.md)). The guarantee **survives** a client when every case's outcome there is the expected one",
    "(cantTell counts right, as the W3C counts it); it is **broken** when a case that Assay gets right as a webpage",
    "comes out otherwise in the client, with the client's changes that did it; **not applicable** when no case of the",
    "rule can be a message. Cases Assay gets wrong as a webpage too are not counted against a client.",
    "",
    "```sh",
    `npm run act:mail                       # every case: ${Math.round(r.run.seconds / 60)} minutes measured on 2 cores shared with other work, ${r.run.width} jobs at a time`,
    "bun scripts/act-mail.ts 23a2a8 b5c3f8  # those rules only: prints their table, writes nothing",
    "```",
    "",
    `W3C ACT test cases at w3c/wcag-act-rules ${r.run.testcasesCommit}; axe-core ${r.run.axeVersion}; Assay ${r.run.version}.`,
    "",
    `Cases: ${t.sent} sent as email of the ${t.cases} of the ${t.rules} mapped rules (${t.skipped} cannot be a message, below).`,
    `Outcomes: ${t.cantTell} (case, client) outcomes cantTell, ${t.notRendered} of them because the client's render failed.`,
    `Broken (case, client) outcomes: ${t.failedInClient} cases that pass as a webpage fail in the client (the client broke`,
    `what the case gets right: ids prefixed but not the references to them, attributes or elements dropped), and`,
    `${t.passedInClient} cases that fail as a webpage pass in the client (the client removed the failure, as every client`,
    `drops \`<meta http-equiv="refresh">\`, or hid it from axe).`,
    `Rule × client: ${t.survives} survive, ${t.broken} broken, ${t.notApplicable} not applicable, of ${t.rules} rules × ${r.clients.length} clients (${t.rules - t.rulesSent} rule(s) with no case a message can carry).`,
    "",
    "| client | profile | form factor | rules surviving | rules broken |",
    "| --- | --- | --- | --- | --- |",
    ...r.clients.map(
      (c) =>
        `| ${c.name} (${c.id}) | ${c.profile} | ${c.formFactor} | ${r.byClient[c.id]!.survives} | ${r.byClient[c.id]!.broken} |`,
    ),
    "",
    "## Rule × client",
    "",
    "✓ survives, ✗ broken, – not applicable; beside each mark, the cases whose outcome in the client is right, of those sent.",
    "",
    `| rule | name | ${ids.join(" | ")} |`,
    `| --- | --- | ${ids.map(() => "---").join(" | ")} |`,
    ...r.rules.map(
      (rule) =>
        `| ${rule.ruleId} | ${cell(rule.ruleName)} | ${ids
          .map((id) => {
            const c = rule.clients[id]!;
            return c.status === "not applicable" ? MARK[c.status] : `${MARK[c.status]} ${c.right}/${c.run}`;
          })
          .join(" | ")} |`,
    ),
    "",
    "## Broken guarantees",
    "",
    ...r.rules.flatMap((rule) =>
      ids.flatMap((id) => {
        const broken = rule.clients[id]!.broken;
        return [
          ...broken
            .slice(0, LISTED)
            .map(
              (b) =>
                `- ${rule.ruleId} in ${id}, ${cell(b.title)} (${b.testcaseId.slice(0, 8)}): expected ${b.expected}, ${b.outcome}${b.changes.length ? `; the client: ${b.changes.slice(0, 3).map(code).join("; ")}` : "; no change recorded"}`,
            ),
          ...(broken.length > LISTED
            ? [`- ${rule.ruleId} in ${id}: ${broken.length - LISTED} more (reports/act/mail-clients.json)`]
            : []),
        ];
      }),
    ),
    "",
    "## Cases not sent as email",
    "",
    ...r.skipped.map((s) => `- ${s.cases} case(s), ${cell(s.reason)}: ${s.rules.join(", ")}`),
    "",
  ];
  return lines.join("\n");
}
