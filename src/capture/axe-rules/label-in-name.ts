/**
 * axe-core's label-content-name-mismatch (WCAG 2.5.3, W3C ACT 2ee8b8) compares an element's visible text with its
 * accessible name letter for letter, and failed three kinds of text that are not a mismatch: text set in an icon font
 * (a ligature such as "search" drawn as a magnifier is not a visible label), an abbreviation the name spells out
 * ("Ave." in "University Avenue") and a word the name hyphenates ("nonstandard", "non-standard"). This check takes
 * the place of axe's in the rule: it passes those, and asks axe's own check about everything else.
 */
export function labelInNameEvaluate(
  this: unknown,
  node: Element,
  options: unknown,
  virtualNode: unknown,
): boolean | undefined {
  const axe = (globalThis as unknown as { axe: any }).axe;
  const font = getComputedStyle(node).fontFamily;
  if (/\b(icons?|material symbols|awesome|glyph\w*)\b/i.test(font)) return true;
  const words = (s: string) =>
    s
      .toLowerCase()
      .replace(/[-\u2010\u2011]/g, "")
      .split(/[^\p{L}\p{N}.]+/u)
      .filter((w) => w.replace(/\./g, ""));
  const shown = words((node as HTMLElement).innerText ?? node.textContent ?? "");
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
  return axe._audit.checks["label-content-name-mismatch"].evaluate.call(this, node, options, virtualNode);
}

/** The check's id, and the options axe gives its own (the rule's `any`). */
export const LABEL_IN_NAME_CHECK = "assay-label-in-name";
