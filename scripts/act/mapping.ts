/**
 * Which of Assay's reports decides each W3C ACT rule: the data `npm run act` runs by (docs/act.md).
 *
 * A procedure is one Assay check, and for accessibility-wcag the axe-core rules inside it whose findings count
 * (a finding names its rule in `measured.rule`). The axe rules are the ones axe-core itself maps to the ACT rule
 * (each axe rule's `actIds`), limited to those Assay runs (WCAG 2.0-2.2 A, AA and, when a AAA standard is asked for,
 * AAA; best-practice, experimental and deprecated rules do not run). An ACT rule with no entry here is untested: Assay reports nothing that decides
 * it; LEFT_OUT says why for the rules axe maps that are left out.
 */
export interface Procedure {
  check: string;
  /** The axe-core rules whose findings decide, when the check is accessibility-wcag. */
  axe?: string[];
  parameters?: Record<string, unknown>;
  /**
   * For a check whose findings say more than its verdict (no-keyboard-trap's say what let focus out of a trap): what
   * each finding means for this rule, from its `measured`: "failed", "cantTell", or undefined (it does not count).
   * The check's verdict is then not read.
   */
  findings?: (measured: Record<string, unknown>) => "failed" | "cantTell" | undefined;
}

export interface RuleMapping {
  procedures: Procedure[];
}

/** accessibility-wcag held to WCAG 2.2 AA, so that every A and AA rule axe has runs. */
const axe = (...rules: string[]): Procedure => ({
  check: "accessibility-wcag",
  axe: rules,
  parameters: { standard: "wcag22aa" },
});

/** accessibility-wcag with axe's best-practice rules: for the ACT rules no WCAG criterion requires. */
const axeBestPractice = (...rules: string[]): Procedure => ({
  check: "accessibility-wcag",
  axe: rules,
  parameters: { standard: "wcag22aa", bestPractices: true },
});

/** accessibility-wcag held to WCAG 2.2 AAA: for the ACT rules of AAA success criteria. */
const axeAAA = (...rules: string[]): Procedure => ({
  check: "accessibility-wcag",
  axe: rules,
  parameters: { standard: "wcag22aaa" },
});

/**
 * no-keyboard-trap, its findings read by what let focus out of the trap Tab went round (`measured.leftBy`: the
 * walk's TrapExit, null when nothing did) as `outcomes` says; a finding that needs review is cantTell.
 */
const trapsLeftBy = (outcomes: Record<string, "failed" | "cantTell">): Procedure => ({
  check: "no-keyboard-trap",
  findings: (m) => (m.outcome === "needs review" ? "cantTell" : "leftBy" in m ? outcomes[String(m.leftBy)] : undefined),
});

export const ACT_MAPPING: Record<string, RuleMapping> = {
  "674b10": { procedures: [axe("aria-roles", "aria-deprecated-role")] },
  "6a7281": { procedures: [axe("aria-valid-attr-value")] },
  "5f99a7": { procedures: [axe("aria-valid-attr")] },
  de46e4: { procedures: [axe("valid-lang")] },
  m6b1q3: { procedures: [axe("button-name", "aria-command-name")] },
  akn7bn: { procedures: [axe("frame-focusable-content", "frame-tab-order")] },
  "24afc2": { procedures: [axe("avoid-inline-spacing")] },
  "9e45ec": { procedures: [axe("avoid-inline-spacing")] },
  "78fd32": { procedures: [axe("avoid-inline-spacing")] },
  "73f2c2": { procedures: [axe("autocomplete-valid")] },
  "97a4e1": { procedures: [axe("button-name", "input-button-name", "aria-command-name")] },
  e086e5: { procedures: [axe("label", "select-name", "aria-input-field-name", "aria-toggle-field-name")] },
  bf051a: { procedures: [axe("html-lang-valid")] },
  // Assay's language rules (src/validations/shared/language-rules.ts): the text of each lang attribute's scope, by
  // language detection; what the text is too short to decide needs review.
  ucwvc8: { procedures: [axe("html-lang-matches-text")] },
  off6ek: { procedures: [axe("lang-matches-text")] },
  "2779a5": { procedures: [axe("document-title")] },
  "59796f": { procedures: [axe("input-image-alt")] },
  "23a2a8": { procedures: [axe("image-alt", "role-img-alt")] },
  c487ae: { procedures: [axe("link-name", "area-alt")] },
  "7d6734": { procedures: [axe("svg-img-alt")] },
  "307n5z": { procedures: [axe("nested-interactive")] },
  a25f45: { procedures: [axe("td-headers-attr")] },
  "6cfa84": { procedures: [axe("aria-hidden-focus")] },
  b4f0c3: { procedures: [axe("meta-viewport")] },
  "8fc3b6": { procedures: [axe("object-alt")] },
  b5c3f8: { procedures: [axe("html-has-lang")] },
  "0ssw9k": { procedures: [axe("scrollable-region-focusable")] },
  // Rules axe-core has no actIds for, or runs only by name (src/capture/gatherers/axe.ts).
  "2t702h": { procedures: [axe("summary-name")] },
  b33eff: { procedures: [axe("css-orientation-lock")] },
  // The color-contrast check: axe's contrast rule, then rendered pixels where axe cannot decide.
  afw4f7: { procedures: [{ check: "color-contrast" }] },
  "4e8ab6": { procedures: [axe("aria-required-attr")] },
  ff89c9: { procedures: [axe("aria-required-parent", "aria-required-children")] },
  bc4a75: { procedures: [axe("aria-required-children", "list")] },
  "5c01ea": { procedures: [axe("aria-allowed-attr", "aria-conditional-attr", "aria-prohibited-attr")] },
  cf77f2: { procedures: [axe("bypass")] },
  ye5d6e: { procedures: [axe("bypass")] },
  "3e12e1": { procedures: [axe("bypass")] },
  "4b1c6c": { procedures: [axe("frame-title-unique")] },
  cae760: { procedures: [axe("frame-title")] },
  d0f69e: { procedures: [axe("th-has-data-cells", "header-assigned-cells")] },
  bc659a: { procedures: [axe("meta-refresh")] },
  "09o5cg": { procedures: [axeAAA("color-contrast", "color-contrast-enhanced")] },
  // Partial: axe asks for review on same-named links whose purpose it cannot compare.
  b20e66: { procedures: [axeAAA("identical-links-same-purpose")] },
  // axe lets ARIA 1.3's braille and roledescription properties pass where prohibited: Assay's rule decides those.
  kb1m8s: { procedures: [axe("aria-prohibited-attr", "aria-allowed-attr", "aria-braille-prohibited")] },
  bisz58: { procedures: [axeAAA("meta-refresh", "meta-refresh-no-exceptions")] },
  // axe's rule with Assay's check in it (src/capture/axe-rules/label-in-name.ts): icon fonts, abbreviations, hyphens,
  // a lone symbol. Assay's checks also stand in axe's for 6a7281, kb1m8s/5c01ea and 6cfa84 (src/capture/axe-rules/index.ts).
  "2ee8b8": { procedures: [axe("label-content-name-mismatch")] },
  // Assay's rule on the page laid out as zoomed to 200% (src/capture/axe-rules/zoomed-text-clipped.ts).
  "59br37": { procedures: [axe("zoomed-text-clipped")] },
  // Assay's keyboard checks: the page driven with Tab (src/capture/gatherers/keyboard.ts). Standard navigation is
  // Tab forwards (the rule's Failed Example 2 fails a trap Shift+Tab leaves) and Escape: a trap only another key
  // leaves fails it.
  a1b64e: {
    procedures: [trapsLeftBy({ null: "failed", "Shift+Tab": "failed", "announced key": "failed", help: "failed" })],
  },
  // Non-standard navigation, where standard navigation cannot leave: the key the page's text, or the help a stop of
  // the trap reveals, announces ("Press Ctrl+M to exit") is tried. A trap Shift+Tab leaves backwards may be one the
  // whole page cycles through backwards (80af7b's Passed Example 7) or not (its Failed Example 2): a person judges.
  ebe86a: { procedures: [trapsLeftBy({ null: "failed", "Shift+Tab": "cantTell" })] },
  // The composite of a1b64e and ebe86a: a trap either way out leaves passes.
  "80af7b": { procedures: [trapsLeftBy({ null: "failed", "Shift+Tab": "cantTell" })] },
  oj04fd: { procedures: [{ check: "focus-visible" }] },
  // Best practice: ARIA's name computation and presentational roles, no WCAG criterion.
  ffd0e9: { procedures: [axeBestPractice("empty-heading")] },
  "46ca7f": { procedures: [axeBestPractice("presentation-role-conflict")] },
  // Best practice: techniques of WCAG 2.4.1 (ARIA11, H69), Assay's rules (src/capture/axe-rules/non-repeated-content.ts).
  b40fd1: { procedures: [axeBestPractice("main-landmark-after-navigation")] },
  "047fe0": { procedures: [axeBestPractice("heading-after-navigation")] },
  // WCAG 1.4.2: axe's no-autoplay-audio with Assay's check in it, on the media measured in the page
  // (src/capture/axe-rules/media-probe.ts); its two input rules (techniques G60, G170) are Assay's best-practice rules.
  "80f0bf": { procedures: [axe("no-autoplay-audio")] },
  aaa1bf: { procedures: [axeBestPractice("autoplay-audio-short")] },
  "4c31df": { procedures: [axeBestPractice("autoplay-audio-has-control")] },
};

/** ACT rules axe-core maps that Assay does not claim, with the axe rule and the reason (docs/act.md). */
export const LEFT_OUT: Record<string, Record<string, string>> = {
  eac66b: { "video-caption": "the cases' videos are not vendored, and axe asks for review on every video it sees" },
};
