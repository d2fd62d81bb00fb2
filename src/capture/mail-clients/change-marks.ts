import type { Page } from "playwright-core";
import type { LayoutSnapshot } from "../artifact-shapes";
import type { EmailRenderSnapshot } from "./snapshot-email-render";
import { CHANGE_MARK } from "./sanitize-record";

/**
 * Which of a render's changes apply to the elements its checks name: the sanitizer (sanitize-record.ts) and the Word
 * engine's limits (client-rendering.ts) mark the elements each change applies to; these read the marks back.
 */

/**
 * Inside the rendered message: for each selector a check may cite, the change marks (see CHANGE_MARK) on the element
 * it names and on that element's ancestors; selectors without any are left out.
 */
export function changeMarksInPage(input: { selectors: string[]; attribute: string }): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const selector of input.selectors) {
    let el: Element | null = null;
    try {
      el = document.querySelector(selector);
    } catch {
      continue;
    }
    const marks = new Set<string>();
    for (let n = el; n; n = n.parentElement)
      for (const m of (n.getAttribute(input.attribute) ?? "").split(" ")) if (m) marks.add(m);
    if (marks.size) out[selector] = [...marks];
  }
  return out;
}

/**
 * The changes on each element the render's checks may name (its text blocks, links, images, overflowing and
 * overlapping elements, and `also`), read from the marks the sanitizer and the Word engine's limits left in the page.
 */
export async function changesOf(
  page: Page,
  snapshot: EmailRenderSnapshot,
  layout: LayoutSnapshot,
  marked: Map<string, number>,
  /** More elements a check may cite (axe-core's targets on the render). */
  also: string[] = [],
): Promise<Record<string, number[]>> {
  if (marked.size === 0) return {};
  const selectors = new Set<string>([
    ...snapshot.textBlocks.map((t) => t.selector),
    ...snapshot.links.map((l) => l.selector),
    ...snapshot.images.map((i) => i.selector),
    ...layout.overflowing.map((o) => o.selector),
    ...layout.textOverlaps.flatMap((o) => [o.a, o.b]),
    ...also,
  ]);
  const marks = await page.evaluate(changeMarksInPage, { selectors: [...selectors], attribute: CHANGE_MARK });
  const out: Record<string, number[]> = {};
  for (const [selector, names] of Object.entries(marks)) {
    const indexes = names.map((m) => marked.get(m)).filter((i): i is number => i !== undefined);
    if (indexes.length) out[selector] = indexes.sort((a, b) => a - b);
  }
  return out;
}
