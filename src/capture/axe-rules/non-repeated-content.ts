import type { AssayAxeRule } from "./rule";

/**
 * The page's first block of navigation: a navigation landmark, or a list each of whose items holds a link (a menu
 * of pages or chapters, the content a site repeats on its pages), shown on screen; null when the page has none.
 * Installed in the page as a global for the rules below (index.ts), serialised: self-contained.
 */
export function assayNavigationBlock(): Element | null {
  const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility === "visible";
  for (const el of Array.from(document.body?.querySelectorAll("nav, [role=navigation], ol, ul") ?? [])) {
    if (!shown(el)) continue;
    if (el.matches("nav, [role=navigation]")) return el;
    const items = Array.from(el.children).filter((c) => c.localName === "li");
    if (items.length >= 2 && items.every((li) => li.querySelector("a"))) return el;
  }
  return null;
}

type WithBlock = { assayNavigationBlock: typeof assayNavigationBlock };

/**
 * W3C ACT rule b40fd1 (a way to bypass blocks, WCAG 2.4.1 technique ARIA11): a page with a block of navigation has
 * a main landmark, exposed to assistive technology and holding text, so that a screen reader user can go straight to
 * the content the page does not repeat. A best practice: axe's landmark-one-main asks it of every page, navigation
 * or not.
 */
export const mainLandmarkAfterNavigation: AssayAxeRule = {
  id: "main-landmark-after-navigation",
  selector: "html",
  tags: ["cat.keyboard", "best-practice", "assay"],
  impact: "moderate",
  actId: "b40fd1",
  description: "Ensure a page with a block of navigation has a main landmark with its own content",
  help: "A page with navigation must have a main landmark holding the content it does not repeat",
  messages: {
    pass: "The page has a main landmark with content",
    fail: "The page has a block of navigation but no main landmark exposed to assistive technology: the content it does not repeat cannot be reached by landmark",
    incomplete: "Whether the page has a main landmark could not be read",
  },
  // Runs in the page, serialised: self-contained but for the navigation block's global.
  matches: function mainLandmarkAfterNavigationMatches(): boolean {
    return (globalThis as unknown as WithBlock).assayNavigationBlock() !== null;
  },
  evaluate: function mainLandmarkAfterNavigationEvaluate(): boolean {
    const axe = (globalThis as unknown as { axe: any }).axe;
    return Array.from(document.querySelectorAll("main, [role=main]")).some(
      (main) =>
        axe.commons.aria.getRole(main) === "main" &&
        axe.commons.dom.isVisibleToScreenReaders(main) &&
        (main.textContent ?? "").trim() !== "",
    );
  },
};

/**
 * W3C ACT rule 047fe0 (WCAG 2.4.1 technique H69): after the page's block of navigation, the content it does not
 * repeat starts with a heading, shown and exposed to assistive technology, so that moving by heading reaches it.
 * Passes when such a heading comes after the block before any text of 20 characters or more that is not in one
 * (a number or a rule before the heading does not count), or when no such text follows it; a heading hidden from view
 * or from assistive technology does not count.
 */
export const headingAfterNavigation: AssayAxeRule = {
  id: "heading-after-navigation",
  selector: "html",
  tags: ["cat.keyboard", "best-practice", "assay"],
  impact: "moderate",
  actId: "047fe0",
  description: "Ensure the content after a page's block of navigation starts with a heading",
  help: "The content after the navigation must start with a heading",
  messages: {
    pass: "A heading starts the content after the navigation",
    fail: "Text follows the block of navigation before any heading: moving by heading does not reach the start of the content",
    incomplete: "Whether a heading starts the content could not be read",
  },
  matches: function headingAfterNavigationMatches(): boolean {
    return (globalThis as unknown as WithBlock).assayNavigationBlock() !== null;
  },
  evaluate: function headingAfterNavigationEvaluate(): boolean {
    const axe = (globalThis as unknown as { axe: any }).axe;
    const block = (globalThis as unknown as WithBlock).assayNavigationBlock()!;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Only what follows the block, its own content left out.
      if (block.contains(node) || !(block.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      if (node instanceof Element) {
        if (axe.commons.aria.getRole(node) !== "heading") continue;
        if (axe.commons.dom.isVisibleToScreenReaders(node) && axe.commons.dom.isVisibleOnScreen(node)) return true;
        // A heading hidden from view or from assistive technology: its text is content before any heading.
        continue;
      }
      const text = (node.textContent ?? "").trim();
      const parent = node.parentElement;
      if (text.length >= 20 && parent && parent.getClientRects().length > 0) {
        const inShownHeading = parent.closest("h1, h2, h3, h4, h5, h6, [role=heading]");
        if (
          !inShownHeading ||
          !axe.commons.dom.isVisibleToScreenReaders(inShownHeading) ||
          !axe.commons.dom.isVisibleOnScreen(inShownHeading)
        )
          return false;
      }
    }
    // Nothing of substance follows the block (a footer's navigation): there is no content to reach.
    return true;
  },
};
