import type { AssayAxeRule } from "./rule";

/**
 * W3C ACT rule akn7bn (WCAG 2.1.1): an iframe taken out of the tab order (a negative tabindex) while its content
 * has an element a keyboard user would tab to leaves that element unreachable. axe-core's frame-focusable-content
 * decides it only where axe runs inside the frame; this reads a same-origin frame's document from the page, and
 * asks for review where the frame's document cannot be read (another origin).
 *
 * Applies to a rendered iframe with a negative tabindex that is not inert (its own `inert`, an inert ancestor, or
 * outside an open modal dialog). Fails when the frame's document has an element in sequential focus navigation
 * (tabIndex >= 0, not disabled, not inert) that is rendered and visible inside the frame's viewport.
 */
export const frameTabOrder: AssayAxeRule = {
  id: "frame-tab-order",
  selector: "iframe[tabindex]",
  tags: ["cat.keyboard", "wcag2a", "wcag211", "assay"],
  impact: "serious",
  actId: "akn7bn",
  description: "Ensure an iframe whose content can take focus is not taken out of the tab order",
  help: "An iframe with focusable content must not have a negative tabindex",
  messages: {
    pass: "The iframe's content has nothing a keyboard user tabs to",
    fail: "The iframe has a negative tabindex, so the focusable content inside it cannot be reached with the Tab key",
    incomplete: "The iframe's document is from another origin: whether it has focusable content could not be read",
  },
  // Runs in the page, serialised: self-contained (axe calls it with the rule's element).
  matches: function frameTabOrderMatches(node: Element): boolean {
    const frame = node as HTMLIFrameElement;
    if (!(frame.tabIndex < 0) || frame.closest("[inert]")) return false;
    const modal = frame.ownerDocument.querySelector("dialog:modal");
    if (modal && !modal.contains(frame)) return false;
    const box = frame.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(frame).visibility === "visible";
  },
  evaluate: function frameTabOrderEvaluate(node: Element): boolean | undefined {
    const frame = node as HTMLIFrameElement;
    let doc: Document | null = null;
    try {
      doc = frame.contentDocument;
    } catch {
      doc = null;
    }
    if (!doc?.documentElement) return undefined;
    const view = doc.defaultView;
    const width = frame.clientWidth;
    const height = frame.clientHeight;
    const tabbable = (el: Element) => {
      const h = el as HTMLElement;
      if (typeof h.tabIndex !== "number" || h.tabIndex < 0) return false;
      if ((h as HTMLButtonElement).disabled || h.closest("[inert]")) return false;
      const focusable =
        h.matches("a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe") ||
        h.hasAttribute("tabindex") ||
        h.isContentEditable ||
        h.matches("audio[controls], video[controls]");
      if (!focusable) return false;
      const style = view?.getComputedStyle(h);
      if (style?.visibility !== "visible") return false;
      return [...h.getClientRects()].some(
        (r) => r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < width && r.top < height,
      );
    };
    return ![...doc.querySelectorAll("*")].some(tabbable);
  },
};
