import type { AxeCheckOverride } from "./check-override";

/**
 * axe-core's aria-valid-attr-value (W3C ACT 6a7281, WCAG 4.1.2) leaves an ARIA attribute with an empty value for
 * review ("ignored while empty"). WAI-ARIA settles it: an empty value is treated as if the attribute were not set
 * (the property's default applies, as for `aria-live` with no value), so no invalid value is declared and there is
 * nothing to review. This check takes the place of axe's: it asks axe's own check with the empty attributes left out,
 * so every value that is set is still judged (`aria-live="page"` still fails).
 */
export const emptyAriaValue: AxeCheckOverride = {
  replaces: "aria-valid-attr-value",
  evaluate: function emptyAriaValueEvaluate(axeCheck, node, options, virtualNode) {
    const empty = (virtualNode.attrNames as string[]).filter(
      (a) => a.startsWith("aria-") && virtualNode.attr(a) === "",
    );
    const skipped = Array.isArray(options?.value) ? options.value : [];
    return axeCheck(node, { ...options, value: [...skipped, ...empty] }, virtualNode);
  },
};
