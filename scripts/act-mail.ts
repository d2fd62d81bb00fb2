/**
 * `npm run act:mail`: the W3C ACT test cases as email (scripts/act/mail-clients.ts), each a message's HTML part sent
 * over SMTP to an email job, judged per mail-client profile. Writes reports/act/mail-clients.json (every case's
 * outcome per client, and per rule × client whether the accessibility guarantee survives) and
 * docs/act-mail-clients.md from it.
 *
 * `bun scripts/act-mail.ts <ruleId> ...` runs those rules' cases only and prints their table, writing nothing.
 * `bun scripts/act-mail.ts --report` rewrites the summary and docs/act-mail-clients.md from the committed cases.
 * `bun scripts/act-mail.ts --update <ruleId> ...` runs those rules' cases and puts them in the committed report in
 * place of theirs (a rule newly mapped, without the hour the whole run takes); the run's figures stay the full run's.
 * ASSAY_ACT_WIDTH: jobs at a time (default 2).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTestcases, TESTCASES_COMMIT } from "./act/run";
import { MAIL_CLIENTS, runMailCases, type MailCaseResult } from "./act/mail-clients";
import { mailMarkdown, summarizeMail, type MailReport } from "./act/mail-clients-report";

const ROOT = join(import.meta.dir, "..");
const JSON_OUT = join(ROOT, "reports", "act", "mail-clients.json");
const DOC_OUT = join(ROOT, "docs", "act-mail-clients.md");

const args = process.argv.slice(2);
const write = (report: MailReport) => {
  writeFileSync(JSON_OUT, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(DOC_OUT, mailMarkdown(report));
};

if (args[0] === "--report") {
  const committed = JSON.parse(readFileSync(JSON_OUT, "utf8")) as MailReport;
  write(summarizeMail(committed.cases, committed.run));
} else {
  const update = args[0] === "--update";
  const rules = update ? args.slice(1) : args;
  const chosen = loadTestcases().filter((c) => !rules.length || rules.includes(c.ruleId));
  const started = performance.now();
  const results: MailCaseResult[] = await runMailCases(
    chosen,
    Number(process.env.ASSAY_ACT_WIDTH ?? 2),
    MAIL_CLIENTS,
    (n) => {
      if (n % 50 === 0) console.error(`${n}/${chosen.length} cases`);
    },
  );
  const seconds = Math.round((performance.now() - started) / 1000);
  if (update) {
    const committed = JSON.parse(readFileSync(JSON_OUT, "utf8")) as MailReport;
    const kept = committed.cases.filter((c) => !rules.includes(c.ruleId));
    write(summarizeMail([...kept, ...results], committed.run));
    console.error(`${chosen.length} cases of ${rules.length} rule(s) in ${seconds} s, put in the committed report`);
    process.exit(0);
  }
  const versionOf = (file: string) => (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
  const report = summarizeMail(results, {
    version: versionOf(join(ROOT, "package.json")),
    axeVersion: versionOf(join(ROOT, "node_modules", "axe-core", "package.json")),
    testcasesCommit: TESTCASES_COMMIT,
    seconds,
    width: Number(process.env.ASSAY_ACT_WIDTH ?? 2),
  });
  if (args.length) console.log(mailMarkdown(report));
  else write(report);
  console.error(`${chosen.length} cases in ${seconds} s`);
}
