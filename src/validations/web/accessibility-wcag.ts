import { Type } from "@sinclair/typebox";
import { pass, type Finding, type WebValidation } from "../types";
import type { AxeNode, AxeRuleResult, ContrastPixels } from "../../capture/artifacts";
import { domCheck } from "./_helpers";
import { outcomeOf, undecidedFinding } from "./_contrast";
import { ZOOMED_AXE_RULES } from "../../capture/axe-rules";
import { withLanguageRules } from "../shared/language-rules";

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, " ");

export const STANDARDS = [
  "wcag2a",
  "wcag2aa",
  "wcag2aaa",
  "wcag21a",
  "wcag21aa",
  "wcag21aaa",
  "wcag22a",
  "wcag22aa",
  "wcag22aaa",
] as const;
export type Standard = (typeof STANDARDS)[number];
const VERSIONS = ["wcag2", "wcag21", "wcag22"];

/**
 * The axe tags a standard takes in: every earlier version's rules, and the lower levels' (wcag21aa: wcag2a, wcag2aa,
 * wcag21a, wcag21aa). axe tags its AAA rules wcag2aaa alone, whatever the version.
 */
export function standardTags(standard: Standard): string[] {
  const [, version, level] = /^(wcag2\d?)(a{1,3})$/.exec(standard)!;
  const levels = ["a", "aa"].filter((l) => l.length <= level!.length);
  const tags = VERSIONS.slice(0, VERSIONS.indexOf(version!) + 1).flatMap((v) => levels.map((l) => `${v}${l}`));
  return level === "aaa" ? [...tags, "wcag2aaa"] : tags;
}

/** The tags beyond A and AA that axe must run for a standard (ParameterSpec.axeTags): AAA's. */
const extraAxeTags = (standard: unknown) =>
  typeof standard === "string" && standard.endsWith("aaa") ? ["wcag2aaa"] : [];

/** axe's best-practice rules run only when a check asks for them (`bestPractices`). */
const bestPracticeTags = (asked: unknown) => (asked === true ? ["best-practice"] : []);

export const label = (standard: Standard) => {
  const [, version, level] = /^wcag(2\d?)(a{1,3})$/.exec(standard)!;
  return `WCAG ${version === "2" ? "2.0" : `${version![0]}.${version![1]}`} ${level!.toUpperCase()}`;
};

const findingsOf = (rule: AxeRuleResult, review: boolean, tags: string[]): Finding[] =>
  rule.nodes.map((n) => ({
    message: `${review ? "needs review: " : ""}${rule.id}${rule.impact ? ` (${rule.impact})` : ""}: ${rule.help}${n.failureSummary ? `. ${clip(oneLine(n.failureSummary), 300)}` : ""}`,
    selector: n.target,
    url: rule.helpUrl,
    // A rule judged on the page laid out as zoomed to 200% was read at no capture size (its message says where).
    ...(ZOOMED_AXE_RULES.includes(rule.id) ? {} : { viewport: "desktop-md" }),
    measured: {
      rule: rule.id,
      impact: rule.impact,
      tags: rule.tags.filter((t) => tags.includes(t) || /^wcag\d+$/.test(t) || t === "best-practice"),
      ...n.measured,
      ...(review ? { outcome: "needs review" } : {}),
    },
  }));

/**
 * A color-contrast element axe left undecided, as the pixels decide it (undecidedFinding), with the rule's fields.
 * Under an AAA standard the pixels are held to the enhanced ratio and the finding is color-contrast-enhanced's: axe
 * leaves such an element undecided under color-contrast alone, so the minimum ratio would pass what AAA fails.
 */
function contrastFinding(rule: AxeRuleResult, n: AxeNode, pixels: ContrastPixels, tags: string[]): Finding {
  const enhanced = tags.includes("wcag2aaa");
  // The enhanced rule's own elements already carry the enhanced ratio axe asked of them.
  const f = undecidedFinding(n, pixels, enhanced && rule.id !== "color-contrast-enhanced");
  const id = enhanced ? "color-contrast-enhanced" : rule.id;
  return {
    ...f,
    message: `${id}${rule.impact ? ` (${rule.impact})` : ""}: ${f.message}`,
    // axe's help pages are named by rule id: the enhanced rule's sits beside the minimum's.
    url: enhanced ? rule.helpUrl.replace(/\/color-contrast(?=\?|$)/, "/color-contrast-enhanced") : rule.helpUrl,
    measured: {
      rule: id,
      impact: rule.impact,
      tags: [...rule.tags.filter((t) => tags.includes(t) || /^wcag\d+$/.test(t)), ...(enhanced ? ["wcag2aaa"] : [])],
      ...f.measured,
    },
  };
}

export const accessibilityWcag: WebValidation = {
  meta: domCheck({
    id: "accessibility-wcag",
    name: "WCAG A and AA (axe-core)",
    category: "accessibility",
    severity: "major",
    summary: "axe-core finds no violation of its rules for the chosen WCAG version and level (WCAG 2.1 AA by default).",
    judgment:
      "axe-core runs once on the loaded page at desktop-md (1280×800); only its rules tagged for the `standard` asked for count (wcag21aa, the default: the rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa; wcag22aa adds WCAG 2.2 rules such as target-size; the AAA standards add axe's AAA rules, enhanced contrast, a meta refresh without exception and identical links with the same purpose, which run only when asked for). Fails when any of those rules reports a violation; each element that violates a rule is a finding with its selector, what to fix, and the rule's help page. axe's meta-refresh rules judge only the refresh a browser follows (the first one it can parse). axe's label-content-name-mismatch does not count text in an icon font, an abbreviation the name spells out (\"Ave.\" for \"Avenue\"), a word the name hyphenates or a lone symbol or letter standing as the whole text (\"×\", \"X\" for close: non-text content) as a mismatch. Some of what axe leaves for review is decided: an ARIA attribute with an empty value is as if not set (no invalid value); aria-label or aria-labelledby on a role WAI-ARIA prohibits naming (a div, a paragraph) is a violation whether or not the element has text; a focusable element in aria-hidden content beside an open modal, or with a focus handler, is focused in the browser, and fails when focus stays in the hidden content (passes when the page moves it out). Beyond the tagged rules, axe's css-orientation-lock (WCAG 1.3.4, which axe marks experimental) runs too, and Assay's own axe rules for W3C ACT rules axe leaves out (frame-tab-order: an iframe taken out of the tab order while its content can take focus, WCAG 2.1.1; header-assigned-cells: a table header no cell is assigned to, WCAG 1.3.1; aria-braille-prohibited: ARIA 1.3's aria-braillelabel where a name is prohibited, or a role description on an element with no role, WCAG 4.1.2; zoomed-text-clipped: text a box with overflow hidden or clip cuts off when the page is zoomed to 200%, WCAG 1.4.4, judged on the page laid out at 640×512 CSS pixels, as a 1280×1024 screen zoomed to 200% lays it out, then given back at desktop-md; text cut with an ellipsis, in a box one line tall or by a line clamp, and text hidden whole, such as visually-hidden text, are not reported), and two language rules: html-lang-matches-text, the html element's lang names the language of the page's text, WCAG 3.1.1, and lang-matches-text, an element's lang names the language of its text, WCAG 3.1.2, decided by language detection on each lang attribute's text, failing only where the text is long enough or English dictionary words decide, and needing review where it is too short to say (docs/act.md). axe's no-autoplay-audio (WCAG 1.4.2) is decided by Assay on media measured in the page: an audio or video element that plays by itself (autoplay, or playing before anyone touched the page; Chromium lets pages autoplay, as a visitor's browser that allows it), not muted, whose sound (decoded, audible at -60 dBFS or above; its media fragment honoured, a loop endless) lasts more than 3 seconds fails unless it has visible controls or a button of the page pauses or mutes it when tried; where links or fields were not tried, or the media could not be read, it needs review; with `bestPractices`, its two input rules (autoplay-audio-short, autoplay-audio-has-control) count too. An XML document without a stylesheet, which Chromium shows in its own viewer, is not judged (a pass that says so). Text contrast axe cannot decide (color-contrast incomplete: text over an image, a gradient or overlapping elements) is decided from the same rendered pixels the color-contrast check reads (see color-contrast): a fail or a pass where 95% of the glyphs' pixels are on one side of the required ratio (method pixels; under an AAA standard the enhanced ratio, 7:1 or 4.5:1 for large text, as color-contrast-enhanced, whose own undecided elements are measured too), else needing review with the measured range; a lone symbol in a widget named otherwise is held to 3:1 and text the colour of its background hidden from assistive technology is not applicable, as color-contrast decides them. Anything else axe cannot decide is listed as needing review and does not fail the page, nor do axe's best-practice rules outside WCAG unless `bestPractices` asks for them. The reasoning names every rule that ran.",
    needs: ["axe", "contrast-pixels"],
    method: "axe",
    parameters: [
      {
        name: "standard",
        description:
          "The WCAG version and level the page is held to: wcag2a, wcag2aa, wcag2aaa (WCAG 2.0), wcag21a, wcag21aa, wcag21aaa (WCAG 2.1), wcag22a, wcag22aa or wcag22aaa (WCAG 2.2). Each takes in the earlier versions' rules and the lower levels'. WCAG 2.1 AA is the level most contracts and laws name (EN 301 549, the ADA's rule for public bodies); AAA adds the few AAA success criteria axe-core can test (1.4.6 enhanced contrast, 2.2.4 and 3.2.5 a meta refresh, 2.4.9 links).",
        format: STANDARDS.join(" | "),
        schema: Type.Union(STANDARDS.map((s) => Type.Literal(s))),
        default: "wcag21aa",
        example: "wcag22aa",
        axeTags: extraAxeTags,
      },
      {
        name: "bestPractices",
        description:
          "Also hold the page to axe-core's best-practice rules, which no WCAG success criterion requires but which find what assistive technology reads wrong: a heading with no text (empty-heading, W3C ACT ffd0e9), an element marked decorative that is still exposed because it has a label or takes focus (presentation-role-conflict, ACT 46ca7f), a page without a main landmark or an h1; and Assay's two for a page with a block of navigation (a nav, or a list of links): it has a main landmark (main-landmark-after-navigation, ACT b40fd1), and the content after the block starts with a heading (heading-after-navigation, ACT 047fe0); and Assay's two for sound that plays by itself (WCAG 1.4.2's techniques G60 and G170): it lasts 3 seconds or less (autoplay-audio-short, ACT aaa1bf), and it has a visible, named control that pauses or mutes it (autoplay-audio-has-control, ACT 4c31df). Their findings are tagged best-practice and fail the check like the WCAG rules'.",
        format: "boolean",
        schema: Type.Boolean(),
        default: false,
        example: true,
        axeTags: bestPracticeTags,
      },
    ],
    references: [
      {
        title: "axe-core rule descriptions",
        url: "https://github.com/dequelabs/axe-core/blob/develop/doc/rule-descriptions.md",
      },
      { title: "WCAG 2.2", url: "https://www.w3.org/TR/WCAG22/" },
    ],
  }),
  async evaluate(artifacts, params) {
    if (!artifacts.axe) throw new Error("no axe-core results gathered");
    const axe = await withLanguageRules(artifacts.axe);
    if (axe.notRun) return pass(`axe-core ${axe.version} did not run: ${axe.notRun}.`);
    const standard = params.standard as Standard;
    const tags = standardTags(standard);
    const inStandard = (r: { tags: string[] }) => r.tags.some((t) => tags.includes(t));
    const bestPractice = (r: { tags: string[] }) => r.tags.includes("best-practice");
    const counts = (r: { tags: string[] }) =>
      params.bestPractices === true ? inStandard(r) || bestPractice(r) : inStandard(r) && !bestPractice(r);
    const violations = axe.violations.filter(counts);
    const incomplete = axe.incomplete.filter(counts);
    const passes = axe.passes.filter(counts);
    const ran = [
      ...new Set([...violations, ...incomplete, ...passes, ...axe.inapplicable.filter(counts)].map((r) => r.id)),
    ].sort();
    // Contrast axe left undecided is decided from the pixels color-contrast reads too, where they were measured.
    const contrast = incomplete.find((r) => r.id === "color-contrast");
    const pixels = artifacts.contrastPixels?.["desktop-md"];
    // Under an AAA standard, what the enhanced rule alone left undecided was measured too; an element both rules
    // left undecided is color-contrast's, already held to the enhanced ratio.
    const enhanced = incomplete.find((r) => r.id === "color-contrast-enhanced");
    const both = new Set(contrast?.nodes.map((n) => n.target));
    const enhancedNodes = enhanced?.nodes.filter((n) => !both.has(n.target)) ?? [];
    const measured = (n: AxeNode) => pixels?.elements.some((e) => e.target === n.target) ?? false;
    const byPixels = pixels
      ? [
          ...(contrast?.nodes.map((n) => contrastFinding(contrast, n, pixels, tags)) ?? []),
          ...enhancedNodes.filter(measured).map((n) => contrastFinding(enhanced!, n, pixels, tags)),
        ]
      : [];
    const pixelFails = byPixels.filter((f) => outcomeOf(f) === "fail");
    const decided = byPixels.filter((f) => outcomeOf(f) !== "needs review").length;
    const unmeasured = (v: AxeRuleResult) =>
      !pixels
        ? v
        : v === contrast
          ? null
          : v === enhanced
            ? { ...v, nodes: enhancedNodes.filter((n) => !measured(n)) }
            : v;
    const findings = [
      ...violations.flatMap((v) => findingsOf(v, false, tags)),
      ...pixelFails,
      ...incomplete.flatMap((v) => {
        const rest = unmeasured(v);
        return rest ? findingsOf(rest, true, tags) : [];
      }),
      ...byPixels.filter((f) => outcomeOf(f) !== "fail"),
    ];
    const inapplicable = byPixels.filter((f) => outcomeOf(f) === "not applicable").length;
    const duplicates = (enhanced?.nodes.length ?? 0) - enhancedNodes.length;
    const review = incomplete.reduce((n, r) => n + r.nodeCount, 0) - decided - duplicates;
    const stats =
      `axe-core ${axe.version}, ${label(standard)} (${tags.join(", ")}${params.bestPractices === true ? ", and best-practice" : ""}): ${ran.length} rule(s) ran, ${passes.length} passed, ` +
      `${violations.length} violated, ${review} element(s) needed review${incomplete.length ? ` (${incomplete.map((r) => `${r.id} ×${r.nodeCount}`).join(", ")})` : ""}` +
      `${byPixels.length ? `; of the color-contrast elements axe could not decide, rendered pixels failed ${pixelFails.length} and passed ${byPixels.filter((f) => outcomeOf(f) === "pass").length}${inapplicable ? `, and ${inapplicable} are not text the rule applies to` : ""}` : ""}. ` +
      `Rules: ${ran.join(", ")}.`;
    if (violations.length === 0 && pixelFails.length === 0) return pass(stats, findings);
    const where = [
      ...violations.slice(0, 3).map((v) => `${v.id} at ${v.nodes[0]?.target ?? "the page"}: ${v.help}`),
      ...(pixelFails.length
        ? [
            `${pixelFails[0]!.measured?.rule} at ${pixelFails[0]!.selector} (measured from pixels): ${(contrast ?? enhanced)!.help}`,
          ]
        : []),
    ].slice(0, 3);
    const failed = violations.length + (pixelFails.length ? 1 : 0);
    const elements = violations.reduce((n, r) => n + r.nodeCount, 0) + pixelFails.length;
    return {
      verdict: "fail",
      reason: `Fix ${failed} ${label(standard)} rule violation(s) on ${elements} element(s) at desktop-md: ${where.join("; ")}${failed > 3 ? `; +${failed - 3} more rule(s)` : ""}`,
      reasoning: `${stats} Violations: ${[...violations.map((v) => `${v.id} ×${v.nodeCount}`), ...(pixelFails.length ? [`${pixelFails[0]!.measured?.rule} ×${pixelFails.length} (pixels)`] : [])].join(", ")}.`,
      findings,
    };
  },
};
