import { pass, type Finding, type WebValidation } from "../types";
import { AXE_TAGS } from "../../capture/axe";
import { domCheck } from "./_helpers";

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export const accessibilityWcag: WebValidation = {
  meta: domCheck({
    id: "accessibility-wcag",
    name: "WCAG 2.2 A and AA (axe-core)",
    category: "accessibility",
    severity: "major",
    summary: "axe-core finds no violation of its WCAG 2.0, 2.1 and 2.2 level A and AA rules.",
    judgment:
      `axe-core runs once on the loaded page at desktop-md (1280×800) with the rules tagged ${AXE_TAGS.join(", ")}. Fails when any rule reports a violation; each element that violates a rule is a finding with its selector, what to fix, and the rule's help page. Rules axe cannot decide (incomplete) and best-practice rules outside WCAG do not fail the page.`,
    needs: ["axe"],
    references: [
      { title: "axe-core rule descriptions", url: "https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md" },
      { title: "WCAG 2.2", url: "https://www.w3.org/TR/WCAG22/" },
    ],
  }),
  evaluate(artifacts) {
    const axe = artifacts.axe;
    if (!axe) throw new Error("no axe-core results gathered");
    const findings: Finding[] = [];
    for (const v of axe.violations) {
      for (const n of v.nodes) {
        findings.push({
          message: `${v.id}${v.impact ? ` (${v.impact})` : ""}: ${v.help}${n.failureSummary ? `. ${clip(n.failureSummary.replace(/\s*\n\s*/g, " "), 300)}` : ""}`,
          selector: n.target,
          url: v.helpUrl,
          viewport: "desktop-md",
          measured: { rule: v.id, impact: v.impact, tags: v.tags.filter((t) => AXE_TAGS.includes(t) || /^wcag\d+$/.test(t)) },
        });
      }
    }
    const stats = `axe-core ${axe.version}: ${axe.passes} rule(s) passed, ${axe.incomplete} needed review, ${axe.violations.length} violated`;
    if (axe.violations.length === 0) return pass(`${stats}.`);
    const where = axe.violations
      .slice(0, 3)
      .map((v) => `${v.id} at ${v.nodes[0]?.target ?? "the page"}: ${v.help}`)
      .join("; ");
    return {
      verdict: "fail",
      reason: `Fix ${axe.violations.length} WCAG A/AA rule violation(s) on ${findings.length} element(s) at desktop-md: ${where}${axe.violations.length > 3 ? `; +${axe.violations.length - 3} more rule(s)` : ""}`,
      reasoning: `${stats} (${axe.violations.map((v) => `${v.id} ×${v.nodes.length}`).join(", ")}).`,
      findings,
    };
  },
};
