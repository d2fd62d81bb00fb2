/**
 * From Assay's verdicts to ACT outcomes, and from outcomes to each rule's consistency, as the W3C computes it for
 * its implementation reports (act-rules/act-tools, src/map-implementation: get-test-result, get-consistency,
 * accessibility-requirements, get-act-implementation-report). Pure, so the test reads it without a browser.
 */
import type { Procedure, RuleMapping } from "./mapping";

export type Expected = "passed" | "failed" | "inapplicable";
export type Outcome = Expected | "cantTell" | "untested";

export interface TestCase {
  ruleId: string;
  ruleName: string;
  testcaseId: string;
  testcaseTitle: string;
  url: string;
  relativePath: string;
  expected: Expected;
  approved?: boolean;
  ruleAccessibilityRequirements?: Record<string, unknown> | null;
}

export interface CheckResult {
  validationId: string;
  verdict: "pass" | "fail" | "error";
  reason?: string;
  reasoning: string;
  findings: Array<{ message: string; selector?: string; measured?: Record<string, unknown> }>;
}

/** What decided one case: the outcome, and the check and finding (its rule and element) behind it. */
export interface Decision {
  outcome: Outcome;
  decidedBy: string;
}

const procedureName = (p: Procedure) => (p.axe ? `${p.check}[${p.axe.join(",")}]` : p.check);

/** The name of a rule's procedure set in the EARL report (`test.title`). */
export const mappingName = (m: RuleMapping) => m.procedures.map(procedureName).join(" + ");

/**
 * One case's outcome from its job's results: failed when a procedure reports a finding (for accessibility-wcag, a
 * violation of one of the procedure's axe rules, not a pass its pixels measured; for a procedure that reads its
 * check's findings, one it reads as failed; for another check, a fail), cantTell when the only findings need
 * review (axe's, or a check's `measured.outcome`, or read so) or a procedure's check errored, passed otherwise. Assay does not say that a rule did not
 * apply, so an inapplicable case reads as passed (the W3C counts both alike).
 */
export function decide(mapping: RuleMapping, results: CheckResult[] | null, why = "the job failed"): Decision {
  if (!results) return { outcome: "cantTell", decidedBy: why };
  const unsure: string[] = [];
  for (const p of mapping.procedures) {
    const r = results.find((x) => x.validationId === p.check);
    if (!r || r.verdict === "error") {
      unsure.push(`${p.check}: ${r ? `error: ${r.reason ?? r.reasoning}` : "no result"}`);
      continue;
    }
    if (p.axe) {
      const mine = r.findings.filter((f) => p.axe!.includes(String(f.measured?.rule)));
      // A finding measured as a pass (contrast axe left undecided, passed from pixels), or as one the rule does not
      // apply to, is no violation.
      const violation = mine.find(
        (f) => !["needs review", "pass", "not applicable"].includes(String(f.measured?.outcome ?? "")),
      );
      if (violation)
        return { outcome: "failed", decidedBy: `${p.check}: ${violation.message} at ${violation.selector}` };
      const review = mine.find((f) => f.measured?.outcome === "needs review");
      if (review) unsure.push(`${p.check}: ${review.message} at ${review.selector}`);
    } else if (p.findings) {
      for (const f of r.findings) {
        const outcome = p.findings(f.measured ?? {});
        if (outcome === "failed") return { outcome, decidedBy: `${p.check}: ${f.message} at ${f.selector}` };
        if (outcome === "cantTell") unsure.push(`${p.check}: ${f.message} at ${f.selector}`);
      }
    } else if (r.verdict === "fail") {
      const f = r.findings[0];
      return { outcome: "failed", decidedBy: `${p.check}: ${f ? `${f.message} at ${f.selector}` : r.reason}` };
    } else {
      const review = r.findings.find((f) => f.measured?.outcome === "needs review");
      if (review) unsure.push(`${p.check}: ${review.message} at ${review.selector}`);
    }
  }
  if (unsure.length) return { outcome: "cantTell", decidedBy: unsure.join("; ") };
  return { outcome: "passed", decidedBy: `${mapping.procedures.map((p) => p.check).join(", ")}: no finding` };
}

/** WCAG 2 success criteria by number, as the W3C's EARL context names them (WCAG2:<id>). */
const CRITERIA: Record<string, string> = {
  "1.1.1": "non-text-content",
  "1.2.1": "audio-only-and-video-only-prerecorded",
  "1.2.2": "captions-prerecorded",
  "1.2.3": "audio-description-or-media-alternative-prerecorded",
  "1.2.5": "audio-description-prerecorded",
  "1.2.8": "media-alternative-prerecorded",
  "1.3.1": "info-and-relationships",
  "1.3.3": "sensory-characteristics",
  "1.3.4": "orientation",
  "1.3.5": "identify-input-purpose",
  "1.4.2": "audio-control",
  "1.4.3": "contrast-minimum",
  "1.4.4": "resize-text",
  "1.4.5": "images-of-text",
  "1.4.6": "contrast-enhanced",
  "1.4.9": "images-of-text-no-exception",
  "1.4.10": "reflow",
  "1.4.12": "text-spacing",
  "2.1.1": "keyboard",
  "2.1.2": "no-keyboard-trap",
  "2.1.3": "keyboard-no-exception",
  "2.1.4": "character-key-shortcuts",
  "2.2.1": "timing-adjustable",
  "2.2.2": "pause-stop-hide",
  "2.2.4": "interruptions",
  "2.4.1": "bypass-blocks",
  "2.4.2": "page-titled",
  "2.4.4": "link-purpose-in-context",
  "2.4.6": "headings-and-labels",
  "2.4.7": "focus-visible",
  "2.4.9": "link-purpose-link-only",
  "2.5.3": "label-in-name",
  "2.5.4": "motion-actuation",
  "3.1.1": "language-of-page",
  "3.1.2": "language-of-parts",
  "3.2.5": "change-on-request",
  "3.3.1": "error-identification",
  "4.1.2": "name-role-value",
};

/** The WCAG 2 criteria a rule's accessibility requirements name (secondary ones too, as the W3C counts them). */
export function ruleCriteria(c: Pick<TestCase, "ruleAccessibilityRequirements">): string[] {
  const out: string[] = [];
  for (const key of Object.keys(c.ruleAccessibilityRequirements ?? {})) {
    const num = /^wcag2\d:(.*)$/i.exec(key)?.[1];
    if (!num) continue;
    const id = CRITERIA[num];
    if (!id) throw new Error(`no WCAG 2 criterion ${num} in judge.ts's table (rule requirement ${key})`);
    if (!out.includes(`WCAG2:${id}`)) out.push(`WCAG2:${id}`);
  }
  return out;
}

export type Consistency = "complete" | "partial" | "inconsistent" | "untested";

export interface CaseResult {
  testcase: TestCase;
  decision: Decision;
}

/** Whether an outcome is what the case expects (cantTell is never wrong, and never a detection). */
export function isRight(expected: Expected, outcome: Outcome): boolean {
  if (outcome === "cantTell") return true;
  if (outcome === "untested") return false;
  return expected === "failed" ? outcome === "failed" : outcome !== "failed";
}

/**
 * A rule's consistency, as act-tools' getConsistency computes it for one procedure set: when any case is approved,
 * proposed cases are left out; a passed or inapplicable case reported failed makes it inconsistent; complete when
 * every case has an outcome, no failed case reads passed or inapplicable, at least one failed case is reported
 * failed, and the reported requirements are the rule's (ours are, by construction: test.isPartOf is the rule's
 * criteria); partial when at least one failed case is reported failed, or when there are cantTells and no
 * inapplicable case reads otherwise than passed or inapplicable; inconsistent otherwise (a mapping that detects
 * nothing is inconsistent too); untested when nothing decides the rule (no mapping, no assertion).
 */
export function consistencyOf(results: CaseResult[], mapped: boolean): Consistency {
  if (!mapped) return "untested";
  const counted = results.some((r) => r.testcase.approved) ? results.filter((r) => r.testcase.approved) : results;
  const outcome = (r: CaseResult) => r.decision.outcome;
  const expected = (r: CaseResult) => r.testcase.expected;
  if (counted.some((r) => expected(r) !== "failed" && outcome(r) === "failed")) return "inconsistent";
  const truePositive = counted.some((r) => expected(r) === "failed" && outcome(r) === "failed");
  const falseNegative = counted.some(
    (r) => expected(r) === "failed" && ["passed", "inapplicable", "untested"].includes(outcome(r)),
  );
  const untested = counted.some((r) => outcome(r) === "untested");
  if (truePositive && !falseNegative && !untested) return "complete";
  if (truePositive) return "partial";
  const inapplicableRight = counted.every(
    (r) => expected(r) !== "inapplicable" || ["passed", "inapplicable"].includes(outcome(r)),
  );
  if (counted.some((r) => outcome(r) === "cantTell") && inapplicableRight) return "partial";
  return "inconsistent";
}

/** Complete without a single cantTell among the counted cases: decided by the machine alone. */
export function fullyAutomated(results: CaseResult[]): boolean {
  const counted = results.some((r) => r.testcase.approved) ? results.filter((r) => r.testcase.approved) : results;
  return counted.every((r) => r.decision.outcome !== "cantTell" && r.decision.outcome !== "untested");
}
