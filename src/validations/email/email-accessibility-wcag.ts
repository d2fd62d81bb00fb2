import { Type } from "@sinclair/typebox";
import { pass, type EmailValidation, type Finding } from "../types";
import type { AxeRuleResult } from "../../capture/artifacts";
import type { EmailRender } from "../../capture/mail-clients/render";
import { label, STANDARDS, standardTags, type Standard } from "../web/accessibility-wcag";
import { withLanguageRules } from "../shared/language-rules";
import { because, changesOfKind, explained, renderCheck, rendersFor, where } from "./_renders";

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ");

/** What axe says of an element whose id reference (aria-labelledby, headers…) finds nothing or the wrong element. */
const ID_REFERENCE =
  /labelledby|describedby|aria-(owns|controls|activedescendant|details|errormessage|flowto)|headers|references/i;

/**
 * One finding per element of a rule in one render, with the client's changes on that element that bear on it; an id
 * reference that misses is explained by the client's prefixed ids, which mark no element.
 */
const findingsOf = (r: EmailRender, rule: AxeRuleResult, review: boolean, tags: string[]): Finding[] =>
  rule.nodes.map((n) => {
    const finding = explained(
      r,
      {
        message: `${r.client.name}: ${review ? "needs review: " : ""}${rule.id}${rule.impact ? ` (${rule.impact})` : ""}: ${rule.help}${n.failureSummary ? `. ${clip(oneLine(n.failureSummary), 300)}` : ""}`,
        selector: n.target,
        url: rule.helpUrl,
        method: "dom",
        measured: {
          rule: rule.id,
          impact: rule.impact,
          tags: rule.tags.filter((t) => tags.includes(t) || /^wcag\d+$/.test(t)),
          ...n.measured,
          ...(review ? { outcome: "needs review" } : {}),
        },
      },
      [n.target],
      "semantics",
    );
    if (finding.measured?.explainedBy || !ID_REFERENCE.test(n.failureSummary)) return finding;
    const prefixed = changesOfKind(r, ["names-prefixed"]);
    return prefixed.length ? { ...finding, measured: { ...finding.measured, explainedBy: prefixed } } : finding;
  });

export const emailAccessibilityWcag: EmailValidation = {
  meta: renderCheck({
    id: "email-accessibility-wcag",
    name: "WCAG A and AA in each mail client (axe-core)",
    category: "accessibility",
    severity: "major",
    standard: ["desktop-md"],
    summary:
      "axe-core finds no WCAG violation in the message as each selected mail client shows it, after the client's sanitizer (WCAG 2.1 AA by default).",
    judgment:
      "Per selected client (by default Apple Mail at desktop-md), axe-core runs on the rendered message: the HTML part after the client's sanitizer (what it drops or rewrites: style blocks, attributes such as aria-* or role, elements), with the client's default styles and, for a dark variant, its dark mode applied. Only axe's rules tagged for the `standard` asked for count (as in accessibility-wcag: wcag21aa by default takes in the wcag2a, wcag2aa, wcag21a and wcag21aa rules; the AAA standards add axe's AAA rules), plus css-orientation-lock, Assay's own axe rules and its language rules (each lang attribute's text by language detection, as in accessibility-wcag). Fails when any of those rules reports a violation in any render; each element that violates a rule is a finding naming the client, the element, what to fix and the rule's help page, and, when the client's changes to that element or its ancestors bear on it, those changes with their source (measured.explainedBy). What axe cannot decide is listed as needing review and does not fail the message. A message is one document whatever the page's title or landmarks: rules about a page's title, skip links or landmarks judge the message as a page.",
    needs: ["render", "render-axe"],
    parameters: [
      {
        name: "standard",
        description:
          "The WCAG version and level the message is held to, as for accessibility-wcag: wcag2a, wcag2aa, wcag2aaa, wcag21a, wcag21aa, wcag21aaa, wcag22a, wcag22aa or wcag22aaa.",
        format: STANDARDS.join(" | "),
        schema: Type.Union(STANDARDS.map((s) => Type.Literal(s))),
        default: "wcag21aa",
        example: "wcag22aa",
      },
    ],
    references: [
      {
        title: "axe-core rule descriptions",
        url: "https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md",
      },
      { title: "WCAG 2.2", url: "https://www.w3.org/TR/WCAG22/" },
      { title: "Email Markup Consortium: accessibility guidelines", url: "https://emailmarkup.org/en/guidelines/" },
    ],
  }),
  async evaluate(email, params) {
    const renders = rendersFor(email, this.meta.id);
    if ("verdict" in renders) return renders;
    const standard = params.standard as Standard;
    const tags = standardTags(standard);
    const counts = (r: { tags: string[] }) => r.tags.some((t) => tags.includes(t)) && !r.tags.includes("best-practice");
    const findings: Finding[] = [];
    const violated: string[] = [];
    const lines: string[] = [];
    for (const r of renders.ok) {
      if (!r.axe) throw new Error(`no axe-core results on the render in ${r.client.id}`);
      const axe = await withLanguageRules(r.axe);
      const violations = axe.violations.filter(counts);
      const incomplete = axe.incomplete.filter(counts);
      findings.push(
        ...violations.flatMap((v) => findingsOf(r, v, false, tags)),
        ...incomplete.flatMap((v) => findingsOf(r, v, true, tags)),
      );
      violated.push(...violations.map((v) => `${v.id} in ${r.client.name}`));
      lines.push(
        `${where(r)}: ${axe.passes.filter(counts).length} rule(s) passed, ${violations.length ? `violated ${violations.map((v) => `${v.id} ×${v.nodeCount}`).join(", ")}` : "none violated"}${incomplete.length ? `, review ${incomplete.map((v) => `${v.id} ×${v.nodeCount}`).join(", ")}` : ""}.`,
      );
    }
    const version = renders.ok[0]!.axe!.version;
    const stats = `axe-core ${version}, ${label(standard)} (${tags.join(", ")}), on the message as each client shows it. ${lines.join(" ")}`;
    if (violated.length === 0) return pass(stats, findings);
    const cited = findings.find((f) => f.measured?.outcome !== "needs review")!;
    return {
      verdict: "fail",
      reason: `Fix ${violated.length} ${label(standard)} rule violation(s) in the message as mail clients show it: ${violated.slice(0, 3).join("; ")}${violated.length > 3 ? `; +${violated.length - 3} more` : ""}. First: ${cited.message.split(". ")[0]} at ${cited.selector}${because(findings, cited)}`,
      reasoning: stats,
      findings,
    };
  },
};
