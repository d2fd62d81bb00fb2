import type { AxeCheckOverride } from "./check-override";

/**
 * axe-core's aria-prohibited-attr (W3C ACT kb1m8s and 5c01ea, WCAG 4.1.2) fails aria-label or aria-labelledby on an
 * element whose role prohibits naming (generic, paragraph, none, and the other roles WAI-ARIA 1.2 lists) only when
 * the element has no text; with text, or when aria-labelledby points at visible text or at nothing, it leaves it for
 * review ("not well supported"). WAI-ARIA 1.2 (5.2.5, prohibited states and properties) does not depend on either:
 * authors must not name those roles, and user agents do not expose the name, so what it says is never said (the
 * content is read in its place, without what the name added). This check takes the place of axe's: a prohibited
 * name axe left for review is a violation, with axe's own account of it; everything else is axe's decision.
 */
export const prohibitedName: AxeCheckOverride = {
  replaces: "aria-prohibited-attr",
  evaluate: function prohibitedNameEvaluate(axeCheck, node, options, virtualNode) {
    let found: { role: string | null; prohibited: string[] } | undefined;
    const context = {
      ...this,
      data: (data: typeof found) => {
        found = data;
        this.data(data);
      },
    };
    const result = axeCheck(node, options, virtualNode, context);
    if (result !== undefined || !found) return result;
    const which = found.role !== null ? "hasRole" : "noRole";
    this.data({ ...found, messageKey: `${which}${found.prohibited.length > 1 ? "Plural" : "Singular"}` });
    return true;
  },
};
