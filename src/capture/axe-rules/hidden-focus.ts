import type { AxeCheckContext, AxeCheckEvaluate, AxeCheckOverride } from "./check-override";

/**
 * axe-core's aria-hidden-focus (W3C ACT 6cfa84, WCAG 4.1.2) leaves for review an aria-hidden element with content in
 * the tab order when a modal dialog is open, or when each such element has a focus handler or no size: focus may be
 * sent elsewhere the moment it arrives (a focus sentinel wrapping focus back into a dialog). The browser can answer
 * that: each of those elements is focused, as sequential navigation reaches it, and the page is given a frame to
 * react. Focus still in aria-hidden content fails (a screen reader user lands where nothing is read); focus moved out
 * of it by the page passes. The page's focus and scroll position are given back afterwards. This check takes the
 * place of each of axe's three checks, and decides only what axe's own left for review.
 */
function hiddenFocusEvaluate(
  this: AxeCheckContext,
  axeCheck: AxeCheckEvaluate,
  node: Element,
  options: unknown,
  virtualNode: any,
): boolean | undefined {
  const result = axeCheck(node, options, virtualNode);
  const focusable = (virtualNode.tabbableElements ?? [])
    .map((v: { actualNode?: Element }) => v.actualNode)
    .filter((el: Element | undefined): el is HTMLElement | SVGElement => !!el && "focus" in el);
  if (result !== undefined || focusable.length === 0) return result;
  const done = this.async();
  // A frame and a task for the page's focus handlers to move focus, or a short wait where frames do not run.
  const settled = () =>
    new Promise<void>((resolve) => {
      requestAnimationFrame(() => setTimeout(resolve));
      setTimeout(resolve, 50);
    });
  const decide = async () => {
    const before = document.activeElement;
    const [x, y] = [window.scrollX, window.scrollY];
    const stayed: Element[] = [];
    for (const el of focusable) {
      el.focus({ preventScroll: true });
      await settled();
      const now = document.activeElement;
      // One element that keeps focus decides the content: the rest need not be focused.
      if (now && (now === el || now.closest('[aria-hidden="true"]'))) {
        stayed.push(el);
        break;
      }
    }
    if (before instanceof HTMLElement && before !== document.body && before.isConnected)
      before.focus({ preventScroll: true });
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    window.scrollTo(x, y);
    if (stayed.length) {
      this.relatedNodes(stayed);
      this.data({ messageKey: "focusStays" });
    } else this.data({ messageKey: "focusMoved" });
    done(stayed.length === 0);
  };
  // One element focused at a time across every aria-hidden element axe checks (its async checks overlap), so that
  // focus one page handler moves later is not read as another's. The queue is a global of Assay's isolated world.
  const world = globalThis as unknown as { assayHiddenFocusTurn?: Promise<void> };
  world.assayHiddenFocusTurn = (world.assayHiddenFocusTurn ?? Promise.resolve())
    .then(decide)
    .catch(() => done(undefined));
  return undefined;
}

const messages = {
  pass: {
    focusMoved: "Focusing the aria-hidden content's focusable elements moves focus out of it (the page sends it back)",
  },
  fail: {
    focusStays:
      "Focus stays inside the aria-hidden content when its focusable element is focused, as Tab would focus it: a screen reader user lands in content it does not read",
  },
};

/** axe's aria-hidden-focus checks, each deciding in the browser what it left for review. */
export const hiddenFocus: AxeCheckOverride[] = [
  "focusable-modal-open",
  "focusable-disabled",
  "focusable-not-tabbable",
].map((replaces) => ({ replaces, evaluate: hiddenFocusEvaluate, messages }));
