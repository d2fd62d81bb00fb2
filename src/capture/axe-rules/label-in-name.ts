import type { AxeCheckOverride } from "./check-override";

/**
 * axe-core's label-content-name-mismatch (WCAG 2.5.3, W3C ACT 2ee8b8) compares an element's visible text with its
 * accessible name letter for letter, and failed or left for review text that is not a mismatch: text set in an icon
 * font (a ligature such as "search" drawn as a magnifier is not a visible label), an abbreviation the name spells out
 * ("Ave." in "University Avenue"), a word the name hyphenates ("nonstandard", "non-standard"), and a lone symbol.
 * A single character standing alone as the whole visible text, when it is a symbol, punctuation or one letter of a
 * cased alphabet ("×", "→", "…", "X" for close, "B" for bold), is non-text content: WCAG 2.5.3 applies to labels of
 * text, and such a glyph is an icon written with a character. A digit stays text (it is a number: "1" named "1a" is
 * a mismatch), and so does a lone character of a script without case (an ideograph, a kana), which is a word.
 * This check takes the place of axe's in the rule: it passes those, and asks axe's own check about everything else.
 */
export const labelInName: AxeCheckOverride = {
  replaces: "label-content-name-mismatch",
  evaluate: function labelInNameEvaluate(axeCheck, node, options, virtualNode) {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const font = getComputedStyle(node).fontFamily;
    if (/\b(icons?|material symbols|awesome|glyph\w*)\b/i.test(font)) return true;
    const visible = (node as HTMLElement).innerText ?? node.textContent ?? "";
    const glyphs = [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(visible.replace(/\s+/g, ""))];
    if (glyphs.length === 1 && /^[\p{S}\p{P}\p{Lu}\p{Ll}\p{Lt}]/u.test(glyphs[0]!.segment)) return true;
    const words = (s: string) =>
      s
        .toLowerCase()
        .replace(/[-\u2010\u2011]/g, "")
        .split(/[^\p{L}\p{N}.]+/u)
        .filter((w) => w.replace(/\./g, ""));
    const shown = words(visible);
    const named = words(axe.commons.text.accessibleTextVirtual(virtualNode) ?? "");
    // The shown words in order within the name, a word ending in a period standing for any word it begins.
    const same = (shownWord: string, nameWord: string) => {
      const bare = shownWord.replace(/\.+$/, "");
      const plainName = nameWord.replace(/\.+$/, "");
      return shownWord.endsWith(".") ? plainName.startsWith(bare) : plainName === bare;
    };
    const contained =
      shown.length > 0 &&
      named.some((_, start) => shown.every((w, i) => named[start + i] !== undefined && same(w, named[start + i]!)));
    if (contained) return true;
    return axeCheck(node, options, virtualNode);
  },
};
