import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ACT_MAPPING } from "../../scripts/act/mapping";
import {
  type CaseResult,
  type CheckResult,
  consistencyOf,
  decide,
  ruleCriteria,
  type TestCase,
} from "../../scripts/act/judge";
import { loadTestcases, runCases, TESTCASES_COMMIT } from "../../scripts/act/run";
import type { Summary } from "../../scripts/act/report";
import { ROOT } from "../support/harness";

/**
 * The W3C ACT implementation report (`npm run act`, docs/act.md) cannot go backwards: the committed report keeps
 * its floor, the README states its figures, and a sample of cases run afresh through the HTTP API gets the
 * outcomes the committed EARL report holds. The full run takes minutes, so it is not part of the suite.
 */
const summary = JSON.parse(readFileSync(join(ROOT, "reports", "act", "summary.json"), "utf8")) as Summary;
const earl = JSON.parse(readFileSync(join(ROOT, "reports", "act", "earl.json"), "utf8")) as {
  "@graph": Array<{ "@type": string | string[]; subject?: { source: string }; result?: { outcome: string } }>;
};
const assertions = earl["@graph"].filter((n) => n["@type"] === "Assertion");

/** The floor: what the committed report reached when this test was written. */
const FLOOR = { complete: 53, completeFullyAutomated: 50 };

const tc = (expected: TestCase["expected"], approved = true): TestCase => ({
  ruleId: "abc123",
  ruleName: "A rule",
  testcaseId: `${expected}-${Math.random()}`,
  testcaseTitle: expected,
  url: "https://www.w3.org/WAI/content-assets/wcag-act-rules/testcases/abc123/x.html",
  relativePath: "testcases/abc123/x.html",
  expected,
  approved,
});
const result = (t: TestCase, outcome: CaseResult["decision"]["outcome"]): CaseResult => ({
  testcase: t,
  decision: { outcome, decidedBy: "test" },
});

describe("consistency, as the W3C computes it", () => {
  test("complete: every failed case detected, nothing else failed; partial: some detected; inconsistent: a passed or inapplicable case failed, or nothing detected", () => {
    const [p, f1, f2, i] = [tc("passed"), tc("failed"), tc("failed"), tc("inapplicable")];
    expect(consistencyOf([result(p, "passed"), result(f1, "failed"), result(f2, "failed")], true)).toBe("complete");
    expect(consistencyOf([result(p, "cantTell"), result(f1, "failed"), result(f2, "cantTell")], true)).toBe("complete");
    expect(consistencyOf([result(p, "passed"), result(f1, "failed"), result(f2, "passed")], true)).toBe("partial");
    expect(consistencyOf([result(i, "failed"), result(f1, "failed"), result(f2, "failed")], true)).toBe("inconsistent");
    expect(consistencyOf([result(p, "passed"), result(f1, "passed")], true)).toBe("inconsistent");
    expect(consistencyOf([result(p, "passed"), result(f1, "cantTell")], true)).toBe("partial");
    expect(consistencyOf([result(p, "passed"), result(f1, "passed")], false)).toBe("untested");
  });

  test("when a rule has approved cases, its proposed ones do not count", () => {
    const proposed = tc("passed", false);
    expect(consistencyOf([result(proposed, "failed"), result(tc("failed"), "failed")], true)).toBe("complete");
  });

  test("a case fails on a violation of a mapped axe rule only; axe's needs review is cantTell", () => {
    const mapping = ACT_MAPPING["23a2a8"]!;
    const finding = (rule: string, review = false) => ({
      message: `${rule}: help`,
      selector: "img",
      measured: { rule, ...(review ? { outcome: "needs review" } : {}) },
    });
    const run = (findings: ReturnType<typeof finding>[]) =>
      decide(mapping, [{ validationId: "accessibility-wcag", verdict: "fail", reasoning: "", findings }]);
    expect(run([finding("image-alt")]).outcome).toBe("failed");
    expect(run([finding("image-alt")]).decidedBy).toContain("accessibility-wcag: image-alt: help at img");
    expect(run([finding("color-contrast")]).outcome).toBe("passed");
    expect(run([finding("image-alt", true)]).outcome).toBe("cantTell");
    expect(decide(mapping, null, "HTTP 500").outcome).toBe("cantTell");
  });

  test("a contrast finding its pixels measured as a pass, or the rule does not apply to, is no violation (accessibility-wcag's undecided contrast)", () => {
    const mapping = ACT_MAPPING["09o5cg"]!;
    const contrast = (outcome?: string) => ({
      message: "color-contrast: measured from pixels",
      selector: "p",
      measured: { rule: "color-contrast", method: "pixels", ...(outcome ? { outcome } : {}) },
    });
    const run = (findings: ReturnType<typeof contrast>[]) =>
      decide(mapping, [{ validationId: "accessibility-wcag", verdict: "pass", reasoning: "", findings }]).outcome;
    expect(run([contrast("pass")])).toBe("passed");
    expect(run([contrast("pass"), contrast("needs review")])).toBe("cantTell");
    expect(run([contrast("pass"), contrast()])).toBe("failed");
    expect(run([contrast("not applicable")])).toBe("passed");
    expect(run([contrast("not applicable"), contrast("needs review")])).toBe("cantTell");
  });

  test("a procedure that reads its check's findings decides by what they measured, not by the verdict: a trap each keyboard rule reads by what let focus out of it", () => {
    type Finding = CheckResult["findings"][number];
    const trap = (leftBy: string | null): Finding => ({
      message: "Tab keeps focus in a loop",
      selector: "#b1",
      measured: leftBy === "announced key" ? { outcome: "pass", leftBy } : { loop: ["#b1"], leftBy },
    });
    const review: Finding = { message: "needs review: help", selector: "#help", measured: { outcome: "needs review" } };
    const run = (rule: string, verdict: "pass" | "fail", ...findings: Finding[]) =>
      decide(ACT_MAPPING[rule]!, [{ validationId: "no-keyboard-trap", verdict, reasoning: "", findings }]).outcome;
    // Nothing lets focus out: every keyboard rule fails.
    for (const rule of ["a1b64e", "ebe86a", "80af7b"]) expect(run(rule, "fail", trap(null))).toBe("failed");
    // A key the page announces lets it out (the check passes): standard navigation (a1b64e) still failed.
    expect(run("a1b64e", "pass", trap("announced key"))).toBe("failed");
    expect(run("ebe86a", "pass", trap("announced key"))).toBe("passed");
    expect(run("80af7b", "pass", trap("announced key"))).toBe("passed");
    // Shift+Tab leaves it backwards (the check fails): a1b64e holds Tab forwards; the whole page may cycle backwards.
    expect(run("a1b64e", "fail", trap("Shift+Tab"))).toBe("failed");
    expect(run("80af7b", "fail", trap("Shift+Tab"))).toBe("cantTell");
    expect(run("80af7b", "pass", review)).toBe("cantTell");
    expect(run("80af7b", "pass")).toBe("passed");
  });

  test("every rule's WCAG criteria are known, as the W3C's EARL context names them", () => {
    const cases = loadTestcases();
    expect(ruleCriteria(cases.find((c) => c.ruleId === "23a2a8")!)).toEqual(["WCAG2:non-text-content"]);
    for (const c of cases) expect(() => ruleCriteria(c)).not.toThrow();
  });
});

describe("the committed report", () => {
  test("keeps its floor, with no rule inconsistent, for the test cases' pinned commit", () => {
    expect(summary.testcasesCommit).toBe(TESTCASES_COMMIT);
    expect(summary.totals.inconsistent).toBe(0);
    expect(summary.totals.complete).toBeGreaterThanOrEqual(FLOOR.complete);
    expect(summary.totals.completeFullyAutomated).toBeGreaterThanOrEqual(FLOOR.completeFullyAutomated);
  });

  test("holds one EARL assertion per case of every mapped rule, and the README states its figures", () => {
    const mapped = loadTestcases().filter((c) => ACT_MAPPING[c.ruleId]);
    expect(assertions.map((a) => a.subject!.source).sort()).toEqual(mapped.map((c) => c.url).sort());
    const t = summary.totals;
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(
      `${t.complete} rules complete (${t.completeFullyAutomated} fully automated), ${t.partial} partial, ${t.inconsistent} inconsistent`,
    );
    expect(readme).toContain(TESTCASES_COMMIT.slice(0, 12));
  });

  test("a sample of cases run afresh through the HTTP API gets the committed outcomes", async () => {
    // A failed and a passed case of rules decided by each kind of procedure (axe's tagged rules, a rule axe runs by
    // name, Assay's own axe rules, Assay's keyboard checks), and the XML document Chromium shows in its viewer.
    const sample: Array<[string, string]> = [
      ["23a2a8", "Failed Example 1"],
      ["23a2a8", "Passed Example 1"],
      ["2779a5", "Failed Example 1"],
      ["b33eff", "Failed Example 1"],
      ["b33eff", "Passed Example 1"],
      ["akn7bn", "Failed Example 1"],
      ["akn7bn", "Passed Example 1"],
      ["d0f69e", "Failed Example 3"],
      ["d0f69e", "Passed Example 6"],
      ["b5c3f8", "Inapplicable Example 2"],
      // The keyboard checks (the page driven with Tab) and a best-practice rule of Assay's.
      ["a1b64e", "Failed Example 1"],
      ["oj04fd", "Failed Example 1"],
      ["047fe0", "Failed Example 1"],
    ];
    const cases = loadTestcases();
    const chosen = sample.map(([rule, title]) => cases.find((c) => c.ruleId === rule && c.testcaseTitle === title)!);
    const committed = new Map(assertions.map((a) => [a.subject!.source, a.result!.outcome]));
    const fresh = await runCases(chosen, 1);
    expect(fresh.map((r) => `${r.testcase.url} earl:${r.decision.outcome}`)).toEqual(
      chosen.map((c) => `${c.url} ${committed.get(c.url)}`),
    );
  }, 240_000);
});
