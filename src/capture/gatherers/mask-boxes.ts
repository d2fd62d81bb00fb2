import { defineWebGatherer } from "./web-page";

/** A box of an element a mask selector matched, in document CSS pixels (the full-page screenshot's pixels). */
export interface MaskBox {
  selector: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Boxes kept per selector: a selector matching more (every `div`) masks its first ones only. */
const MAX_BOXES_PER_SELECTOR = 100;

/**
 * The boxes of the elements each selector matches, in the page (serialised into Assay's isolated world): each
 * element's border box, rounded outwards, in document coordinates; an invalid selector or one matching nothing has none.
 */
export function measureMaskBoxes(args: { selectors: readonly string[]; max: number }): MaskBox[] {
  const boxes: MaskBox[] = [];
  for (const selector of args.selectors) {
    let found: Element[];
    try {
      found = Array.from(document.querySelectorAll(selector));
    } catch {
      continue;
    }
    for (const element of found.slice(0, args.max)) {
      const r = element.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0) continue;
      const x = Math.floor(r.left + window.scrollX);
      const y = Math.floor(r.top + window.scrollY);
      boxes.push({
        selector,
        x: Math.max(0, x),
        y: Math.max(0, y),
        width: Math.ceil(r.right + window.scrollX) - Math.max(0, x),
        height: Math.ceil(r.bottom + window.scrollY) - Math.max(0, y),
      });
    }
  }
  return boxes;
}

/**
 * "mask-boxes": at each size, where the elements of a run's mask selectors are (WebPage.maskSelectors), so that the
 * visual comparison of that size's screenshot can leave them out. Recorded with the screenshot it goes with.
 */
export const maskBoxesGatherer = defineWebGatherer({
  kind: "mask-boxes",
  sizes: "each",
  dependsOn: [],
  gather: async ({ world, maskSelectors }) => ({
    maskBoxes: maskSelectors.length
      ? await world.run(measureMaskBoxes, { selectors: maskSelectors, max: MAX_BOXES_PER_SELECTOR })
      : [],
  }),
});
