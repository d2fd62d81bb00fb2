/** Where the in-page helpers live in the page: a registry symbol, out of the page's usual names. */
export const PAGE_HELPERS_KEY = "assay.page-helpers";

export interface PageHelpers {
  /** A CSS selector that finds this element: the nearest unique id, then tag:nth-of-type steps. */
  cssPath(el: Element): string;
  /** The URL an <img> or <input type=image> loads (currentSrc first), or "" when it has no source. */
  imageSource(el: Element): string;
  /**
   * Whether a control is a "bulletproof" button: an ancestor that holds it alone (its text and no other link
   * or button), a cell, a table or a wrapper, paints a background unlike what is behind that ancestor.
   */
  inColouredContainer(el: Element): boolean;
}

/**
 * Runs inside the page once per capture (serialised by Playwright, so self-contained) and installs the
 * helpers every gatherer shares; gatherers read them with pageHelpers().
 */
export function installPageHelpers(key: string): void {
  const unique = (id: string) => document.querySelectorAll(`#${CSS.escape(id)}`).length === 1;
  // Each element's tag:nth-of-type step, computed for all of a parent's children at once (a parent of 100,000
  // children would otherwise be scanned once per child). Kept for one synchronous run of a gatherer: the
  // page may change its DOM between gatherers.
  let steps: WeakMap<Element, string> | null = null;
  const stepOf = (node: Element, parent: Element): string => {
    if (!steps) {
      steps = new WeakMap();
      queueMicrotask(() => (steps = null));
    }
    if (!steps.has(node)) {
      const counts = new Map<string, number>();
      for (const c of Array.from(parent.children)) counts.set(c.tagName, (counts.get(c.tagName) ?? 0) + 1);
      const seen = new Map<string, number>();
      for (const c of Array.from(parent.children)) {
        const n = (seen.get(c.tagName) ?? 0) + 1;
        seen.set(c.tagName, n);
        steps.set(c, c.tagName.toLowerCase() + (counts.get(c.tagName)! > 1 ? `:nth-of-type(${n})` : ""));
      }
    }
    return steps.get(node)!;
  };
  const cssPath = (el: Element): string => {
    if (el.id && unique(el.id)) return `#${CSS.escape(el.id)}`;
    const parts: string[] = [];
    let node: Element | null = el;
    while (node && node !== document.documentElement) {
      if (node.id && unique(node.id)) {
        parts.unshift(`#${CSS.escape(node.id)}`);
        return parts.join(" > ");
      }
      const parent: Element | null = node.parentElement;
      parts.unshift(parent ? stepOf(node, parent) : node.tagName.toLowerCase());
      node = parent;
    }
    parts.unshift("html");
    return parts.join(" > ");
  };
  // The reflected .src of src="" (or white space) is the page's own URL: an empty source is no source.
  const imageSource = (el: Element): string => {
    const current = el.tagName === "IMG" ? (el as HTMLImageElement).currentSrc : "";
    if (current) return current;
    return (el.getAttribute("src") ?? "").trim() ? (el as HTMLImageElement).src : "";
  };
  const squash = (t: string | null) => (t ?? "").replace(/\s+/g, " ").trim();
  const painted = (el: Element) => {
    const bg = getComputedStyle(el).backgroundColor;
    return bg !== "transparent" && !/^rgba\([^)]*[,/]\s*0\)$/.test(bg) ? bg : null;
  };
  const backdrop = (el: Element | null): string => {
    for (let n = el; n; n = n.parentElement) {
      const bg = painted(n);
      if (bg) return bg;
    }
    return "rgb(255, 255, 255)";
  };
  const inColouredContainer = (el: Element): boolean => {
    const own = squash(el.textContent) || squash(el.getAttribute("aria-label")) || squash((el as HTMLInputElement).value ?? "");
    if (!own || own.length >= 60) return false;
    for (let n = el.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
      if (squash(n.textContent) !== own || n.querySelectorAll("a[href], button").length > 1) return false;
      const bg = painted(n);
      if (bg && bg !== backdrop(n.parentElement)) return true;
    }
    return false;
  };
  Object.defineProperty(globalThis, Symbol.for(key), { value: { cssPath, imageSource, inColouredContainer }, configurable: true });
}
