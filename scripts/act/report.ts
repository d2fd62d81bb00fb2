/**
 * The two things `npm run act` writes: the EARL report in JSON-LD, as W3C ACT implementation reports take it
 * (act-rules/act-tools reads subject.source, test.title, test.isPartOf, result.outcome and mode), and the summary
 * per rule with the W3C's consistency and every wrong case.
 */
import { ACT_MAPPING } from "./mapping";
import {
  consistencyOf,
  fullyAutomated,
  isRight,
  mappingName,
  ruleCriteria,
  type CaseResult,
  type Consistency,
} from "./judge";

/** The W3C's EARL context (content-assets/wcag-act-rules/earl-context.json), the parts this report uses. */
const CONTEXT = {
  "@vocab": "http://www.w3.org/ns/earl#",
  earl: "http://www.w3.org/ns/earl#",
  WCAG2: "http://www.w3.org/TR/WCAG2/#",
  dct: "http://purl.org/dc/terms/",
  sch: "https://schema.org/",
  doap: "http://usefulinc.com/ns/doap#",
  WebPage: "sch:WebPage",
  source: "dct:source",
  title: "dct:title",
  Project: "doap:Project",
  Version: "doap:Version",
  name: "doap:name",
  description: "doap:description",
  release: "doap:release",
  revision: "doap:revision",
  homepage: { "@id": "doap:homepage", "@type": "@id" },
  assertedBy: { "@type": "@id" },
  outcome: { "@type": "@id" },
  mode: { "@type": "@id" },
  isPartOf: { "@id": "dct:isPartOf", "@type": "@id" },
};

export interface Meta {
  version: string;
  axeVersion: string;
  testcasesCommit: string;
}

/** A blank node: the project publishes no canonical URL to name it by. */
const ASSERTOR = "_:assay";

export function earlReport(results: CaseResult[], meta: Meta) {
  const assertor = {
    "@id": ASSERTOR,
    "@type": ["earl:Assertor", "earl:Software", "doap:Project"],
    name: "Assay",
    description: `Assay's checks through its HTTP API (accessibility-wcag runs axe-core ${meta.axeVersion})`,
    release: { "@type": "doap:Version", revision: meta.version },
  };
  const assertions = results
    .filter((r) => ACT_MAPPING[r.testcase.ruleId])
    .map(({ testcase, decision }) => ({
      "@type": "Assertion",
      mode: "earl:automatic",
      assertedBy: ASSERTOR,
      subject: { "@type": ["earl:TestSubject", "sch:WebPage"], source: testcase.url },
      test: {
        "@type": "TestCase",
        title: mappingName(ACT_MAPPING[testcase.ruleId]!),
        isPartOf: ruleCriteria(testcase),
      },
      result: { "@type": "TestResult", outcome: `earl:${decision.outcome}`, description: decision.decidedBy },
    }));
  return { "@context": CONTEXT, "@graph": [assertor, ...assertions] };
}

export interface RuleSummary {
  ruleId: string;
  ruleName: string;
  approved: boolean;
  procedure: string | null;
  consistency: Consistency;
  fullyAutomated: boolean;
  cases: number;
  right: number;
  wrong: Array<{ testcaseId: string; title: string; expected: string; outcome: string; decidedBy: string }>;
}

export interface Summary {
  testcasesCommit: string;
  axeVersion: string;
  totals: {
    rules: number;
    complete: number;
    completeFullyAutomated: number;
    partial: number;
    inconsistent: number;
    untested: number;
    cases: number;
    casesRun: number;
    casesRight: number;
  };
  rules: RuleSummary[];
}

export function summarize(results: CaseResult[], meta: Meta): Summary {
  const byRule = new Map<string, CaseResult[]>();
  for (const r of results) byRule.set(r.testcase.ruleId, [...(byRule.get(r.testcase.ruleId) ?? []), r]);
  const rules: RuleSummary[] = [...byRule].map(([ruleId, rs]) => {
    const mapping = ACT_MAPPING[ruleId];
    const consistency = consistencyOf(rs, Boolean(mapping));
    const wrong = rs.filter((r) => mapping && !isRight(r.testcase.expected, r.decision.outcome));
    return {
      ruleId,
      ruleName: rs[0]!.testcase.ruleName,
      approved: rs.some((r) => r.testcase.approved),
      procedure: mapping ? mappingName(mapping) : null,
      consistency,
      fullyAutomated: consistency === "complete" && fullyAutomated(rs),
      cases: rs.length,
      right: mapping ? rs.length - wrong.length : 0,
      wrong: wrong.map((r) => ({
        testcaseId: r.testcase.testcaseId,
        title: r.testcase.testcaseTitle,
        expected: r.testcase.expected,
        outcome: r.decision.outcome,
        decidedBy: r.decision.decidedBy,
      })),
    };
  });
  rules.sort((a, b) => a.ruleName.localeCompare(b.ruleName));
  const count = (c: Consistency) => rules.filter((r) => r.consistency === c).length;
  return {
    testcasesCommit: meta.testcasesCommit,
    axeVersion: meta.axeVersion,
    totals: {
      rules: rules.length,
      complete: count("complete"),
      completeFullyAutomated: rules.filter((r) => r.fullyAutomated).length,
      partial: count("partial"),
      inconsistent: count("inconsistent"),
      untested: count("untested"),
      cases: results.length,
      casesRun: results.filter((r) => ACT_MAPPING[r.testcase.ruleId]).length,
      casesRight: rules.reduce((n, r) => n + r.right, 0),
    },
    rules,
  };
}

/** The summary as Markdown: the totals, then one line per rule, then every wrong case. */
export function summaryMarkdown(s: Summary): string {
  const t = s.totals;
  const lines = [
    `# Assay's ACT implementation report`,
    "",
    `W3C ACT test cases at w3c/wcag-act-rules ${s.testcasesCommit}; accessibility-wcag runs axe-core ${s.axeVersion}.`,
    "",
    `Rules: ${t.complete} complete (${t.completeFullyAutomated} fully automated), ${t.partial} partial, ${t.inconsistent} inconsistent, ${t.untested} untested, of ${t.rules}.`,
    `Cases: ${t.casesRight} right of the ${t.casesRun} run (rules with a mapping); ${t.cases} in all.`,
    "",
    "| rule | name | consistency | right | procedure |",
    "| --- | --- | --- | --- | --- |",
    ...s.rules.map(
      (r) =>
        `| ${r.ruleId} | ${r.ruleName.replace(/\|/g, "\\|")} | ${r.consistency}${r.consistency === "complete" && !r.fullyAutomated ? " (with cantTell)" : ""} | ${r.procedure ? `${r.right}/${r.cases}` : "-"} | ${r.procedure ?? "-"} |`,
    ),
    "",
    "## Wrong cases",
    "",
    ...s.rules.flatMap((r) =>
      r.wrong.map(
        (w) =>
          `- ${r.ruleId} ${w.title} (${w.testcaseId.slice(0, 8)}): expected ${w.expected}, reported ${w.outcome}: ${w.decidedBy.replace(/\s+/g, " ")}`,
      ),
    ),
    "",
  ];
  return lines.join("\n");
}
