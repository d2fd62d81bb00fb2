import type { Box, GlyphContrast } from "../artifact-shapes";

/**
 * In-page functions of the contrast-pixels gatherer (gatherers/contrast-pixels.ts), each self-contained (run in
 * Assay's isolated world, where axe-core is loaded): find the elements axe left undecided and say which are
 * measured, paint their text transparent, black, white or transparent over its own shadow, and put it back.
 */

export interface Prepared {
  box: Box;
  partial: boolean;
  fontSizePx: number;
  fontWeight: number;
  shadow: boolean;
  /** The shadow reaches past the glyphs on every side: a halo (GlyphContrast.halo). */
  halo: boolean;
  symbol?: GlyphContrast["symbol"];
  /** The other candidates (by index) this one contains or is inside: they cannot be painted together. */
  nested: number[];
  viewportTop: number;
  viewportBottom: number;
}

/** Why an element is not measured, and, when the rule does not apply to it at all, why not. */
export type NotPrepared = { unmeasured: string; notApplicable?: string };

/** What the page keeps of one prepared element between calls: it, its descendants, their inline styles and colours. */
interface PaintState {
  elements: Array<HTMLElement | SVGElement>;
  styles: Array<string | null>;
  pins: Array<{ color: string; fill: string; svgFill: string; shadow: string }>;
}

/**
 * In the page: finds each element, its text's box (document pixels, cut to `maxArea` from the top), its font,
 * whether a shadow or stroke draws its text and whether that shadow is a halo, and which other candidates it
 * contains or is inside; remembers its and its descendants' inline styles and colours (to pin and restore them).
 * Text that is animating, or has no box, is not measured. Where axe doubts the text is text (`questions`, its
 * messageKey), the accessibility tree decides (axe-core's own reading of it): a lone character, or characters that
 * are not text, in a widget whose accessible name does not contain them as a word are a symbol, measured; text as light as its background that is
 * also hidden from assistive technology is out of the rule; otherwise it is not measured. Self-contained.
 */
export function prepareTexts(args: {
  targets: string[];
  questions: Array<string | null>;
  maxArea: number;
}): Array<Prepared | NotPrepared> {
  const axe = (globalThis as { axe?: any }).axe;
  let setUp = false;
  // axe's virtual tree costs a walk of the page: built only when a question needs the accessibility tree.
  // Should it fail, the questions stay open (needing review) and the rest is measured as ever.
  if (axe && !axe._tree && args.questions.some((q) => q !== null)) {
    try {
      axe.setup(document);
      setUp = true;
    } catch {}
  }
  const vNode = (el: Element) => (axe?._tree ? axe.utils.getNodeFromTree(el) : null);
  /** The element or its nearest ancestor (across shadow roots) whose role axe types as a widget. */
  const widgetOf = (el: Element): Element | null => {
    for (let e: Element | null = el; e; e = e.parentElement ?? ((e.getRootNode() as ShadowRoot).host || null)) {
      const v = vNode(e);
      if (v && axe.commons.aria.getRoleType(axe.commons.aria.getRole(v)) === "widget") return e;
    }
    return null;
  };
  const words = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  /** Why axe's doubt stands (`unmeasured`), the symbol a lone character is (pixels measure it), or null: colours alone. */
  const question = (el: Element, key: string | null): NotPrepared | { symbol: Prepared["symbol"] } | null => {
    if (key === "equalRatio") {
      const v = vNode(el);
      if (v && !axe.commons.dom.isVisibleToScreenReaders(v))
        return {
          unmeasured: "not measured: text the colour of its background",
          notApplicable:
            "text the colour of its background (1:1), hidden from assistive technology too: not visual presentation of text (WCAG 1.4.3), and read by no one",
        };
      return { unmeasured: "not measured: text as light as its background may be meant unseen" };
    }
    if (key === "shortTextContent" || key === "nonBmp") {
      // One character (shortTextContent), or only characters that are not text (nonBmp: symbols, icon glyphs).
      const character = (el.textContent ?? "").trim();
      const widget = widgetOf(el);
      const name =
        widget && vNode(widget) ? String(axe.commons.text.accessibleTextVirtual(vNode(widget)) ?? "").trim() : "";
      const alone = key === "nonBmp" || [...character].length === 1;
      if (character && alone && name && !words(name).includes(character.toLowerCase()))
        return { symbol: { character, name } };
      return {
        unmeasured:
          key === "nonBmp"
            ? "not measured: characters that are not text (a symbol, an icon) outside a widget named otherwise"
            : "not measured: one character may be an icon rather than text",
      };
    }
    return null;
  };
  const found = args.targets.map((target) => {
    try {
      const el = document.querySelector(target);
      return el instanceof HTMLElement || el instanceof SVGElement ? el : null;
    } catch {
      return null;
    }
  });
  const running = document
    .getAnimations()
    .filter((a) => a.playState === "running" && a.effect instanceof KeyframeEffect)
    .map((a) => (a.effect as KeyframeEffect).target)
    .filter((t): t is Element => !!t);
  /** Whether the shadows, together, reach past the glyphs on every side (a blur, or offsets every way). */
  const haloOf = (textShadow: string) => {
    const reach = { left: false, right: false, up: false, down: false };
    for (const one of textShadow === "none" ? [] : textShadow.split(/,(?![^(]*\))/)) {
      if (/rgba\([^)]*,\s*0\)|transparent/.test(one)) continue;
      const [x = 0, y = 0, blur = 0] = [...one.matchAll(/(-?[\d.]+)px/g)].map((m) => Number.parseFloat(m[1]!));
      reach.right ||= x + blur > 0;
      reach.left ||= x - blur < 0;
      reach.down ||= y + blur > 0;
      reach.up ||= y - blur < 0;
    }
    return reach.left && reach.right && reach.up && reach.down;
  };
  const states: Array<PaintState | null> = [];
  try {
    return found.map((el, index): Prepared | NotPrepared => {
      states.push(null);
      if (!el) return { unmeasured: "the element was not found" };
      const asked = question(el, args.questions[index] ?? null);
      if (asked && "unmeasured" in asked) return asked;
      if (running.some((t) => t.contains(el))) return { unmeasured: "the text or something around it is animating" };
      for (let e: Element | null = el; e; e = e.parentElement) {
        const clip = getComputedStyle(e);
        if (`${clip.backgroundClip} ${clip.getPropertyValue("-webkit-background-clip")}`.includes("text"))
          return { unmeasured: "the text is painted by a background (background-clip: text), not by its colour" };
      }
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
      states[states.length - 1] = {
        elements,
        styles: elements.map((e) => e.getAttribute("style")),
        pins: elements.map((e) => {
          const s = getComputedStyle(e);
          return {
            color: s.color,
            fill: s.getPropertyValue("-webkit-text-fill-color"),
            svgFill: s.fill,
            shadow: s.textShadow,
          };
        }),
      };
      return {
        box: { x, y, width, height },
        partial: height < fullHeight,
        fontSizePx: Number.parseFloat(style.fontSize),
        fontWeight: Number.parseInt(style.fontWeight, 10) || 400,
        shadow: style.textShadow !== "none" || strokeWidth > 0,
        halo: strokeWidth === 0 && haloOf(style.textShadow),
        ...(asked?.symbol ? { symbol: asked.symbol } : {}),
        nested: found.flatMap((other, j) =>
          other && other !== el && (other.contains(el) || el.contains(other)) ? [j] : [],
        ),
        viewportTop: window.scrollY,
        viewportBottom: window.scrollY + window.innerHeight,
      };
    });
  } finally {
    if (setUp) axe.teardown();
    (globalThis as any).__assayTextPaint = states;
  }
}

/**
 * In the page: paints the text of the prepared elements at `indices` transparent, black or white (fill, colour,
 * SVG fill, no shadow, no transition), or transparent over its own shadow ("halo"), their descendants pinned to
 * the colours they had, so only their own text changes. Self-contained.
 */
export function paintTexts(args: { indices: number[]; variant: "transparent" | "black" | "white" | "halo" }) {
  const states = (globalThis as any).__assayTextPaint as Array<PaintState | null>;
  const colour = args.variant === "black" ? "#000" : args.variant === "white" ? "#fff" : "transparent";
  for (const index of args.indices) {
    const state = states[index]!;
    state.elements.forEach((e, i) => {
      const shadow = args.variant === "halo" ? state.pins[0]!.shadow : "none";
      const pin = i === 0 ? { color: colour, fill: colour, svgFill: colour, shadow } : state.pins[i]!;
      e.style.setProperty("transition", "none", "important");
      e.style.setProperty("color", pin.color, "important");
      e.style.setProperty("-webkit-text-fill-color", pin.fill, "important");
      e.style.setProperty("fill", pin.svgFill, "important");
      e.style.setProperty("text-shadow", pin.shadow, "important");
    });
  }
  void document.documentElement.getBoundingClientRect();
}

/**
 * In the page: puts back the inline styles of the prepared elements at `indices` and their descendants,
 * transitions held off until the colours are back (so none animates from the painted colour). Self-contained.
 */
export function restoreTexts(indices: number[]) {
  const states = (globalThis as any).__assayTextPaint as Array<PaintState | null>;
  const put = (hold: boolean) => {
    for (const index of indices) {
      const state = states[index]!;
      state.elements.forEach((e, i) => {
        const original = state.styles[i] ?? null;
        if (hold) e.setAttribute("style", `${original ?? ""};transition:none!important`);
        else if (original === null) e.removeAttribute("style");
        else e.setAttribute("style", original);
      });
    }
  };
  put(true);
  for (const index of indices) void getComputedStyle(states[index]!.elements[0]!).color;
  put(false);
}

/** In the page: drops what prepareTexts kept. Self-contained. */
export function forgetTexts() {
  (globalThis as any).__assayTextPaint = undefined;
}
