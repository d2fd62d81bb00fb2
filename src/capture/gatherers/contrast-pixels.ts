import { PNG } from "pngjs";
import type { Box, ContrastPixels, GlyphContrast } from "../artifact-shapes";
import { measureGlyphs } from "../glyph-pixels";
import { axeGatherer } from "./axe";
import { defineWebGatherer, type WebPage } from "./web-page";

/** Elements measured per page (axe keeps 20 per rule), and the time the measuring may take. */
const MAX_ELEMENTS = 20;
const TIME_BUDGET_MS = 6000;
/** A region is cut (its top part measured) above this area, in CSS px², so four renders stay small. */
const MAX_REGION_AREA = 160_000;
/** Renders are taken at twice the page's scale: the glyphs' cores are then wide enough to find. */
const RENDER_SCALE = 2;

/** The text variants rendered besides the page as shown: transparent shows what is behind the glyphs. */
type Variant = "transparent" | "black" | "white";
const VARIANTS: Variant[] = ["transparent", "black", "white"];

/**
 * "contrast-pixels": the elements axe-core left undecided for color-contrast (text over a background image, a
 * gradient, overlapping or translucent layers), measured from rendered pixels at desktop-md, the size axe ran at.
 * Each element's text box is rendered four times (as shown, then with its text transparent, black and white; its
 * children keep their own colours), and glyph-pixels.ts turns the renders into a contrast distribution.
 * Up to MAX_ELEMENTS elements within TIME_BUDGET_MS; `capped` says when a cap stopped it.
 */
export const contrastPixelsGatherer = defineWebGatherer({
  kind: "contrast-pixels",
  sizes: "once",
  dependsOn: [axeGatherer],
  async gather(page, { axe }): Promise<{ contrastPixels?: ContrastPixels }> {
    const undecided = axe?.incomplete.find((r) => r.id === "color-contrast");
    if (!undecided) return {};
    const started = performance.now();
    const elements: GlyphContrast[] = [];
    let capped: string | undefined;
    for (const node of undecided.nodes) {
      if (elements.length >= MAX_ELEMENTS) {
        capped = `the first ${MAX_ELEMENTS} elements`;
        break;
      }
      if (performance.now() - started > TIME_BUDGET_MS) {
        capped = `${TIME_BUDGET_MS / 1000} s of measuring`;
        break;
      }
      elements.push(await measureElement(page, node.target));
    }
    if (!capped && undecided.nodeCount > undecided.nodes.length)
      capped = `the ${undecided.nodes.length} elements axe reports of ${undecided.nodeCount}`;
    return {
      contrastPixels: {
        viewport: "desktop-md",
        elements,
        candidates: undecided.nodeCount,
        ...(capped ? { capped } : {}),
      },
    };
  },
});

async function measureElement({ world, cdp }: WebPage, target: string): Promise<GlyphContrast> {
  const found = await world.run(prepareText, { target, maxArea: MAX_REGION_AREA });
  if ("unmeasured" in found) return { target, unmeasured: found.unmeasured };
  const { box, partial, fontSizePx, fontWeight, shadow } = found;
  const shot = async (captureBeyondViewport: boolean) => {
    const { data } = await cdp.send("Page.captureScreenshot", {
      format: "png",
      clip: { ...box, scale: RENDER_SCALE },
      captureBeyondViewport,
    });
    return PNG.sync.read(Buffer.from(data, "base64"));
  };
  // Inside the viewport the region is rendered as it is; below it Chromium renders beyond the viewport.
  const beyond = box.y + box.height > found.viewportBottom || box.y < found.viewportTop;
  const renders: Partial<Record<Variant | "asShown", PNG>> = { asShown: await shot(beyond) };
  try {
    for (const variant of VARIANTS) {
      await world.run(paintText, variant);
      renders[variant] = await shot(beyond);
    }
  } finally {
    await world.run(restoreText);
  }
  const px = (v: keyof typeof renders) => new Uint8Array(renders[v]!.data);
  const measure = measureGlyphs({
    width: renders.asShown!.width,
    height: renders.asShown!.height,
    asShown: px("asShown"),
    transparent: px("transparent"),
    black: px("black"),
    white: px("white"),
  });
  const base = { target, box, fontSizePx, fontWeight, ...(partial ? { partial } : {}) };
  if ("unmeasured" in measure) return { ...base, unmeasured: measure.unmeasured };
  const { haloPixels, ...measured } = measure;
  return { ...base, shadow: shadow || haloPixels > 0, ...measured };
}

interface Prepared {
  box: Box;
  partial: boolean;
  fontSizePx: number;
  fontWeight: number;
  shadow: boolean;
  viewportTop: number;
  viewportBottom: number;
}

/**
 * In the page: finds the element, its text's box (document pixels, cut to `maxArea` from the top), its font, and
 * whether a shadow or stroke draws its text; remembers its inline styles and its descendants' (to restore them).
 * Text that is animating, or hidden, is not measured. Self-contained.
 */
function prepareText(args: { target: string; maxArea: number }): Prepared | { unmeasured: string } {
  let el: Element | null = null;
  try {
    el = document.querySelector(args.target);
  } catch {}
  if (!(el instanceof HTMLElement || el instanceof SVGElement)) return { unmeasured: "the element was not found" };
  const moving = document
    .getAnimations()
    .some((a) => a.playState === "running" && a.effect instanceof KeyframeEffect && a.effect.target?.contains(el));
  if (moving) return { unmeasured: "the text or something around it is animating" };
  const range = document.createRange();
  range.selectNodeContents(el);
  const r = range.getBoundingClientRect();
  const x = Math.max(0, Math.floor(r.left + window.scrollX));
  const y = Math.max(0, Math.floor(r.top + window.scrollY));
  const width = Math.min(document.documentElement.scrollWidth, Math.ceil(r.right + window.scrollX)) - x;
  const fullHeight = Math.ceil(r.bottom + window.scrollY) - y;
  if (width < 2 || fullHeight < 2) return { unmeasured: "the text has no box on the page" };
  const height = Math.min(fullHeight, Math.max(2, Math.floor(args.maxArea / width)));
  const style = getComputedStyle(el);
  const strokeWidth = Number.parseFloat(style.getPropertyValue("-webkit-text-stroke-width")) || 0;
  const elements = [el, ...Array.from(el.querySelectorAll("*"))].slice(0, 500) as Array<HTMLElement | SVGElement>;
  (globalThis as any).__assayTextPaint = {
    elements,
    styles: elements.map((e) => e.getAttribute("style")),
    pins: elements.map((e) => {
      const s = getComputedStyle(e);
      return { color: s.color, fill: s.getPropertyValue("-webkit-text-fill-color"), shadow: s.textShadow };
    }),
  };
  return {
    box: { x, y, width, height },
    partial: height < fullHeight,
    fontSizePx: Number.parseFloat(style.fontSize),
    fontWeight: Number.parseInt(style.fontWeight, 10) || 400,
    shadow: style.textShadow !== "none" || strokeWidth > 0,
    viewportTop: window.scrollY,
    viewportBottom: window.scrollY + window.innerHeight,
  };
}

/**
 * In the page: paints the prepared element's text transparent, black or white (fill, colour, no shadow, no
 * transition), its descendants pinned to the colours they had, so only its own text changes. Self-contained.
 */
function paintText(variant: "transparent" | "black" | "white") {
  const state = (globalThis as any).__assayTextPaint as {
    elements: Array<HTMLElement | SVGElement>;
    pins: Array<{ color: string; fill: string; shadow: string }>;
  };
  const colour = variant === "transparent" ? "transparent" : variant === "black" ? "#000" : "#fff";
  state.elements.forEach((e, i) => {
    const pin = i === 0 ? { color: colour, fill: colour, shadow: "none" } : state.pins[i]!;
    e.style.setProperty("transition", "none", "important");
    e.style.setProperty("color", pin.color, "important");
    e.style.setProperty("-webkit-text-fill-color", pin.fill, "important");
    e.style.setProperty("text-shadow", i === 0 ? "none" : pin.shadow, "important");
  });
  void getComputedStyle(state.elements[0]!).color;
}

/**
 * In the page: puts back the prepared element's and its descendants' inline styles, transitions held off until the
 * colours are back (so none animates from the painted colour). Self-contained.
 */
function restoreText() {
  const state = (globalThis as any).__assayTextPaint as {
    elements: Array<HTMLElement | SVGElement>;
    styles: Array<string | null>;
  };
  const put = (hold: boolean) =>
    state.elements.forEach((e, i) => {
      const original = state.styles[i] ?? null;
      if (hold) e.setAttribute("style", `${original ?? ""};transition:none!important`);
      else if (original === null) e.removeAttribute("style");
      else e.setAttribute("style", original);
    });
  put(true);
  void getComputedStyle(state.elements[0]!).color;
  put(false);
  (globalThis as any).__assayTextPaint = undefined;
}
