import type { AxeNode, AxeRuleResult, AxeSummary, LanguageScope } from "../../capture/artifacts";
import { loadSpeller } from "../web/data/spellchecker";
import { judgeLanguage, type LanguageJudgement } from "./language-of-text";

/**
 * Assay's two language rules, reported beside axe-core's in accessibility-wcag and email-accessibility-wcag as if
 * axe had run them: each lang attribute's text judged by language detection (language-of-text.ts).
 */
const RULES = [
  {
    id: "html-lang-matches-text",
    page: true,
    actId: "ucwvc8",
    tags: ["cat.language", "wcag2a", "wcag311", "assay"],
    help: "The <html> element's lang attribute must name the language of the page's text",
  },
  {
    id: "lang-matches-text",
    page: false,
    actId: "off6ek",
    tags: ["cat.language", "wcag2aa", "wcag312", "assay"],
    help: "An element's lang attribute must name the language of its text",
  },
] as const;

const SAMPLE = 120;
const percent = (n: number) => `${Math.round(n * 100)}%`;

function summaryOf(scope: LanguageScope, j: LanguageJudgement): string {
  const sample = scope.text.length > SAMPLE ? `${scope.text.slice(0, SAMPLE - 1)}…` : scope.text;
  const scores = j.scores?.map(([l, s]) => `${l} ${s.toFixed(3)}`).join(", ");
  const stretches = j.stretches?.map(([l, s]) => `${l} ${percent(s)}`).join(", ");
  return (
    `lang="${scope.lang}" declares "${j.declared}"; ${j.why}. Method: language detection (franc scores ${scores}; ` +
    `stretches of the text won: ${stretches}${j.englishWords ? `; English dictionary words: ${j.englishWords[0]} of ${j.englishWords[1]}` : ""}). ` +
    `Text (${j.letters} letters): "${sample}"`
  );
}

/** axe's report of one rule, plus what each element's judgement measured. */
function ruleResult(rule: (typeof RULES)[number], nodes: AxeNode[]): AxeRuleResult {
  return {
    id: rule.id,
    impact: "serious",
    help: rule.help,
    helpUrl: `https://www.w3.org/WAI/standards-guidelines/act/rules/${rule.actId}/`,
    tags: [...rule.tags],
    nodeCount: nodes.length,
    nodes,
  };
}

/** The axe summary with Assay's language rules judged on its language scopes and added to its lists. */
export async function withLanguageRules(axe: AxeSummary): Promise<AxeSummary> {
  const scopes = axe.languageScopes;
  if (!scopes || axe.notRun) return axe;
  const speller = scopes.length ? await loadSpeller() : null;
  const isEnglishWord = (w: string) => speller?.correct(w) ?? false;
  const summary = {
    ...axe,
    violations: [...axe.violations],
    incomplete: [...axe.incomplete],
    passes: [...axe.passes],
    inapplicable: [...axe.inapplicable],
  };
  for (const rule of RULES) {
    const judged = scopes
      .filter((s) => s.page === rule.page)
      .map((s) => ({ scope: s, judgement: judgeLanguage(s.text, s.lang, isEnglishWord) }))
      .filter((x) => x.judgement.outcome !== "not judged");
    const nodes = (outcome: string) =>
      judged
        .filter((x) => x.judgement.outcome === outcome)
        .map(({ scope, judgement: { outcome: _, ...measured } }) => ({
          target: scope.target,
          failureSummary: summaryOf(scope, { outcome: _, ...measured }),
          measured: { method: "language detection", ...measured },
        }));
    const [failed, review] = [nodes("fail"), nodes("needs review")];
    if (failed.length) summary.violations.push(ruleResult(rule, failed));
    if (review.length) summary.incomplete.push(ruleResult(rule, review));
    const ran = { id: rule.id, tags: [...rule.tags] };
    if (!judged.length) summary.inapplicable.push(ran);
    else if (!failed.length && !review.length) summary.passes.push(ran);
  }
  return summary;
}
