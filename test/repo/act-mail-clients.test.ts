import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ACT_MAPPING } from "../../scripts/act/mapping";
import { isRight } from "../../scripts/act/judge";
import { loadTestcases, TESTCASES_COMMIT } from "../../scripts/act/run";
import { caseNotInMail, MAIL_CLIENTS, ruleNotInMail, runMailCases } from "../../scripts/act/mail-clients";
import { mailMarkdown, type MailReport } from "../../scripts/act/mail-clients-report";
import { ROOT } from "../support/harness";

/**
 * The ACT cases as email (`npm run act:mail`, docs/act-mail-clients.md): the committed report holds every case of every
 * mapped rule, each rule × client status follows from its cases, the Markdown and the README say what the JSON says,
 * and a sample of cases sent afresh over SMTP gets the committed outcomes in two clients. The full run takes most of
 * an hour, so it is not part of the suite.
 */
const report = JSON.parse(readFileSync(join(ROOT, "reports", "act", "mail-clients.json"), "utf8")) as MailReport;

describe("the committed mail-client report", () => {
  test("is for the pinned test cases and the clients the run names, and holds every case of every mapped rule", () => {
    expect(report.run.testcasesCommit).toBe(TESTCASES_COMMIT);
    expect(report.clients.map((c) => [c.formFactor, c.id])).toEqual(MAIL_CLIENTS.map((c) => [c.formFactor, c.id]));
    const mapped = loadTestcases().filter((c) => ACT_MAPPING[c.ruleId]);
    expect(report.cases.map((c) => c.testcaseId).sort()).toEqual(mapped.map((c) => c.testcaseId).sort());
    expect(report.rules.map((r) => r.ruleId).sort()).toEqual([...new Set(mapped.map((c) => c.ruleId))].sort());
  });

  test("a case is skipped exactly when a message cannot carry it, and every sent case has an outcome in every client", () => {
    const byId = new Map(loadTestcases().map((c) => [c.testcaseId, c]));
    for (const c of report.cases) {
      const why = ruleNotInMail(ACT_MAPPING[c.ruleId]) ?? caseNotInMail(byId.get(c.testcaseId)!);
      expect({ id: c.testcaseId, skipped: c.skipped ?? null }).toEqual({ id: c.testcaseId, skipped: why });
      if (!c.skipped) expect(Object.keys(c.clients).sort()).toEqual(MAIL_CLIENTS.map((m) => m.id).sort());
    }
  });

  test("each rule × client status follows from its cases: broken by a case right as a webpage and wrong in the client", () => {
    let cells = 0;
    for (const rule of report.rules) {
      const sent = report.cases.filter((c) => c.ruleId === rule.ruleId && !c.skipped);
      const counted = sent.filter((c) => !rule.wrongAsWebpage.includes(c.testcaseId));
      for (const { id } of MAIL_CLIENTS) {
        const cell = rule.clients[id]!;
        const wrong = counted.filter((c) => !isRight(c.expected, c.clients[id]!.outcome));
        const status = counted.length === 0 ? "not applicable" : wrong.length ? "broken" : "survives";
        expect({ rule: rule.ruleId, id, status: cell.status }).toEqual({ rule: rule.ruleId, id, status });
        expect(cell.broken.map((b) => b.testcaseId)).toEqual(wrong.map((c) => c.testcaseId));
        // A broken guarantee names what the client did, or says it recorded nothing.
        for (const b of cell.broken) expect(Array.isArray(b.changes)).toBe(true);
        cells++;
      }
    }
    const t = report.totals;
    expect(t.survives + t.broken + t.notApplicable).toBe(cells);
    expect(t.sent + t.skipped).toBe(t.cases);
  });

  test("docs/act-mail-clients.md is the report's Markdown, and the README points to it with its figures", () => {
    expect(readFileSync(join(ROOT, "docs", "act-mail-clients.md"), "utf8")).toBe(mailMarkdown(report));
    const t = report.totals;
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain("docs/act-mail-clients.md");
    expect(readme).toContain(`${t.survives} rule × client guarantees survive, ${t.broken} are broken`);
  });

  test("a sample of cases sent afresh over SMTP gets the committed outcomes in two clients", async () => {
    // An image named through an id reference (Gmail prefixes ids, not the references), a failed image, and a
    // document language (Gmail's <body> becomes a <div>, the <html> element is the client's).
    const sample: Array<[string, string]> = [
      ["23a2a8", "Passed Example 3"],
      ["23a2a8", "Failed Example 1"],
      ["b5c3f8", "Passed Example 1"],
      ["b5c3f8", "Failed Example 1"],
    ];
    const clients = MAIL_CLIENTS.filter((c) => c.id === "apple-mail" || c.id === "gmail-web");
    const cases = loadTestcases();
    const chosen = sample.map(([rule, title]) => cases.find((c) => c.ruleId === rule && c.testcaseTitle === title)!);
    const committed = new Map(report.cases.map((c) => [c.testcaseId, c]));
    const fresh = await runMailCases(chosen, 1, clients);
    const outcomes = (id: string, of: (client: string) => string) =>
      `${id} ${clients.map((c) => `${c.id}:${of(c.id)}`).join(" ")}`;
    expect(fresh.map((r) => outcomes(r.testcase.testcaseId, (c) => r.clients[c]!.outcome))).toEqual(
      chosen.map((c) => outcomes(c.testcaseId, (id) => committed.get(c.testcaseId)!.clients[id]!.outcome)),
    );
  }, 240_000);
});
