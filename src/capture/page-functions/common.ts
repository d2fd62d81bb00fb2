/**
 * Page helpers every page function shares (installed by page-helpers.ts, in-page code: each uses nothing but the
 * page and the other helpers). They read the DOM as it is at the moment they run.
 */

/**
 * A cache for one synchronous run of a page function, by name: cleared at the next microtask, since the page may
 * change its DOM between two runs.
 */
export function runCache<K, V>(name: string): Map<K, V> {
  const self = runCache as unknown as { caches?: Map<string, Map<unknown, unknown>> };
  if (!self.caches) {
    const caches = new Map<string, Map<unknown, unknown>>();
    self.caches = caches;
    queueMicrotask(() => {
      if (self.caches === caches) self.caches = undefined;
    });
  }
  let cache = self.caches.get(name);
  if (!cache) self.caches.set(name, (cache = new Map()));
  return cache as Map<K, V>;
}

/**
 * An element's tag:nth-of-type step, computed for all of its parent's children at once (a parent of 100,000
 * children would otherwise be scanned once per child).
 */
export function nthOfTypeStep(node: Element, parent: Element): string {
  const steps = runCache<Element, string>("nth-of-type steps");
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
}

/** A CSS selector that finds this element: the nearest unique id, then tag:nth-of-type steps. */
export function cssPath(el: Element): string {
  const unique = (id: string) => document.querySelectorAll(`#${CSS.escape(id)}`).length === 1;
  if (el.id && unique(el.id)) return `#${CSS.escape(el.id)}`;
  const parts: string[] = [];
  let node: Element | null = el;
  while (node && node !== document.documentElement) {
    if (node.id && unique(node.id)) {
      parts.unshift(`#${CSS.escape(node.id)}`);
      return parts.join(" > ");
    }
    const parent: Element | null = node.parentElement;
    parts.unshift(parent ? nthOfTypeStep(node, parent) : node.tagName.toLowerCase());
    node = parent;
  }
  parts.unshift("html");
  return parts.join(" > ");
}

/**
 * The URL an <img> or <input type=image> loads (currentSrc first), or "" when it has no source. The reflected
 * .src of src="" (or white space) is the page's own URL: an empty source is no source.
 */
export function imageSource(el: Element): string {
  const current = el.tagName === "IMG" ? (el as HTMLImageElement).currentSrc : "";
  if (current) return current;
  return (el.getAttribute("src") ?? "").trim() ? (el as HTMLImageElement).src : "";
}

/** Text with its white space collapsed and trimmed. */
export function squashed(text: string | null): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/** An element's text content, white space collapsed. */
export function textOfElement(el: Element): string {
  return squashed(el.textContent);
}

/** A URL resolved against the document's base, or "" when it does not resolve. */
export function resolvedUrl(raw: string): string {
  try {
    return new URL(raw, document.baseURI).href;
  } catch {
    return "";
  }
}

/** A computed rgb()/rgba() colour as [r, g, b, alpha]; transparent black when it is not one. */
export function rgbaOf(css: string): [number, number, number, number] {
  const m = css.match(/rgba?\(([^)]+)\)/);
  if (!m) return [0, 0, 0, 0];
  const p = m[1]!
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 1];
}

/** A viewport rectangle in page coordinates (the scroll offset added). */
export function pageBox(
  r: DOMRect,
  sx: number = scrollX,
  sy: number = scrollY,
): { x: number; y: number; width: number; height: number } {
  return { x: r.left + sx, y: r.top + sy, width: r.width, height: r.height };
}

/**
 * Rendered with area: not skipped by the browser (display:none, a closed <details>, content-visibility), not
 * visibility:hidden, not fully transparent, and with a box.
 */
export function shownWithArea(el: Element, cs: CSSStyleDeclaration, r: DOMRect): boolean {
  return el.checkVisibility() && cs.visibility !== "hidden" && Number(cs.opacity) > 0 && r.width > 0 && r.height > 0;
}

/** The background colour an element paints itself, or null when it paints none (transparent). */
export function paintedBackground(el: Element): string | null {
  const bg = getComputedStyle(el).backgroundColor;
  return bg !== "transparent" && !/^rgba\([^)]*[,/]\s*0\)$/.test(bg) ? bg : null;
}

/** The background colour painted behind an element: its own or its nearest ancestor's, white when none paints one. */
export function backdropOf(el: Element | null): string {
  for (let n = el; n; n = n.parentElement) {
    const bg = paintedBackground(n);
    if (bg) return bg;
  }
  return "rgb(255, 255, 255)";
}

/**
 * Whether a control is a "bulletproof" button: an ancestor that holds it alone (its text and no other link
 * or button), a cell, a table or a wrapper, paints a background unlike what is behind that ancestor.
 */
export function inColouredContainer(el: Element): boolean {
  const own =
    squashed(el.textContent) ||
    squashed(el.getAttribute("aria-label")) ||
    squashed((el as HTMLInputElement).value ?? "");
  if (!own || own.length >= 60) return false;
  for (let n = el.parentElement; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (squashed(n.textContent) !== own || n.querySelectorAll("a[href], button").length > 1) return false;
    const bg = paintedBackground(n);
    if (bg && bg !== backdropOf(n.parentElement)) return true;
  }
  return false;
}

/**
 * Whether a control's button is painted on an element inside it: an element holding all of its text (a span, div or
 * table inside a link) paints a background unlike what is behind the control, or a border around it.
 */
export function paintedInside(el: Element): boolean {
  const own = squashed(el.textContent);
  if (!own || own.length >= 60) return false;
  const behind = backdropOf(el);
  for (const d of Array.from(el.querySelectorAll("*"))) {
    if (squashed(d.textContent) !== own) continue;
    const r = d.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(d);
    const bg = paintedBackground(d);
    if (bg && bg !== behind) return true;
    const border = Math.min(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0);
    if (border >= 1 && cs.borderTopStyle !== "none" && cs.borderLeftStyle !== "none") return true;
  }
  return false;
}

export const COMMON_HELPERS = {
  runCache,
  nthOfTypeStep,
  cssPath,
  imageSource,
  squashed,
  textOfElement,
  resolvedUrl,
  rgbaOf,
  pageBox,
  shownWithArea,
  paintedBackground,
  backdropOf,
  inColouredContainer,
  paintedInside,
};
