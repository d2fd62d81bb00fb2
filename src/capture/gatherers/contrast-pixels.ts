import { PNG } from "pngjs";
import type { AxeRuleResult, Box, ContrastPixels, ContrastRule, GlyphContrast } from "../artifact-shapes";
import { measureGlyphs } from "../glyph-pixels";
import type { CaptureSize } from "../vocabulary";
import { axeGatherer, axeRulesAgain } from "./axe";
import { defineWebGatherer, type WebPage } from "./web-page";

/**
 * Elements measured per size (axe keeps 20 per rule), and the time the measuring may take: no batch starts after
 * TIME_BUDGET_MS of measuring at a size (each size its own, so the sizes measured last are not left to what the
 * first spared), nor once the page has been loaded for LATE_AFTER_LOAD_MS, whatever the sizes (axe on a long page
 * took most of the capture's 45 s; a render past the viewport of a 16,000px page takes a second).
 */
const MAX_ELEMENTS = 20;
const TIME_BUDGET_MS = 5000;
const LATE_AFTER_LOAD_MS = 15_000;
/** A region is cut (its top part measured) above this area, in CSS px², so four renders stay small… */
const MAX_REGION_AREA = 160_000;
/** …and elements near one another are rendered together while the region around them stays within this. */
const MAX_BATCH_AREA = 120_000;
/** Renders are taken at twice the page's scale: the glyphs' cores are then wide enough to find. */
const RENDER_SCALE = 2;

/** axe's reasons for leaving contrast undecided that are about whether the text is text, not about its colours. */
const NOT_A_COLOUR_QUESTION = new Set(["shortTextContent", "nonBmp", "equalRatio"]);

/** The text variants rendered besides the page as shown: transparent shows what is behind the glyphs. */
type Variant = "transparent" | "black" | "white";
const VARIANTS: Variant[] = ["transparent", "black", "white"];

/** The size axe ran at (the size the page loaded at): there its results are read, elsewhere color-contrast runs again. */
const AXE_SIZE: CaptureSize = "desktop-md";

/**
 * "contrast-pixels": at each size a check that judges contrast is read at (only there: it costs an axe run and
 * renders), axe-core's color-contrast rule (at desktop-md the "axe" gatherer's results, elsewhere the rule run again
 * on the resized page), and the elements it left undecided (text over a background image, a gradient, overlapping or
 * translucent layers) measured from rendered pixels. Each element's text box is rendered four times (as shown, then
 * with its text transparent, black and white; its children keep their own colours), and glyph-pixels.ts turns the
 * renders into a contrast distribution. Up to MAX_ELEMENTS elements and TIME_BUDGET_MS a size; `capped`
 * says when a cap stopped it.
 */
export const contrastPixelsGatherer = defineWebGatherer({
  kind: "contrast-pixels",
  sizes: "each",
  onlyAtSizesRead: true,
  dependsOn: [axeGatherer],
  async gather(page, size, { axe }): Promise<{ contrastPixels?: ContrastPixels }> {
    if (!axe) return {};
    const summary = size === AXE_SIZE || axe.notRun ? axe : await axeRulesAgain(page.world, ["color-contrast"]);
    const rule: ContrastRule = {
      version: summary.version,
      passed: summary.passes.some((r) => r.id === "color-contrast"),
      ...pick("violation", summary.violations),
      ...pick("incomplete", summary.incomplete),
      ...(summary.notRun ? { notRun: summary.notRun } : {}),
    };
    const none = { viewport: size, axe: rule, elements: [], candidates: 0 };
    if (!rule.incomplete) return { contrastPixels: none };
    return { contrastPixels: { ...none, ...(await measureUndecided(page, rule.incomplete)) } };
  },
});

/** The color-contrast rule among axe's results of one kind, under `field`. */
function pick<F extends string>(field: F, rules: AxeRuleResult[]): Partial<Record<F, AxeRuleResult>> {
  const found = rules.find((r) => r.id === "color-contrast");
  return (found ? { [field]: found } : {}) as Partial<Record<F, AxeRuleResult>>;
}

/** The elements axe left undecided, measured from pixels on the page as it is now, within the caps. */
async function measureUndecided(
  page: WebPage,
  undecided: AxeRuleResult,
): Promise<Pick<ContrastPixels, "elements" | "candidates" | "capped">> {
  const started = performance.now();
  // Where axe doubts the text is text (one character that may be an icon, a symbol outside the basic plane, text
  // as light as its background and so maybe meant unseen), the colours are not the question: pixels do not decide.
  const measurable = undecided.nodes.filter((n) => !NOT_A_COLOUR_QUESTION.has(n.contrast?.messageKey ?? ""));
  const targets = measurable.slice(0, MAX_ELEMENTS).map((n) => n.target);
  const found = await page.world
    .run(prepareTexts, { targets, maxArea: MAX_REGION_AREA })
    .catch((e: Error) =>
      targets.map(() => ({ unmeasured: `the page could not be read: ${e.message.split("\n")[0]}` })),
    );
  const elements: GlyphContrast[] = targets.map((target, i) => {
    const f = found[i]!;
    return "unmeasured" in f ? { target, unmeasured: f.unmeasured } : { target };
  });
  let capped: string | undefined;
  try {
    for (const batch of batches(found)) {
      const late = performance.now() - page.loadedAt > LATE_AFTER_LOAD_MS;
      if (late || performance.now() - started > TIME_BUDGET_MS) {
        capped = late
          ? `${LATE_AFTER_LOAD_MS / 1000} s after the page loaded`
          : `${TIME_BUDGET_MS / 1000} s of measuring`;
        for (const i of batch) elements[i] = { target: targets[i]!, unmeasured: "beyond the time cap" };
        continue;
      }
      // A page that breaks a render (it navigated, it removed the element) leaves those elements needing review;
      // the check still reads axe's verdicts.
      const measured = await measureBatch(page, batch, found as Prepared[]).catch((e: Error) =>
        batch.map((i) => [i, { unmeasured: `the renders failed: ${e.message.split("\n")[0]}` }] as const),
      );
      for (const [i, m] of measured) elements[i] = { target: targets[i]!, ...m };
    }
  } finally {
    await page.world.run(forgetTexts).catch(() => undefined);
  }
  // axe's results keep 20 elements of a rule (gatherers/axe.ts); at most MAX_ELEMENTS of those are measured.
  if (undecided.nodeCount > undecided.nodes.length || measurable.length > targets.length)
    capped ??= `the ${targets.length} elements axe reports of ${undecided.nodeCount}`;
  return { elements, candidates: undecided.nodeCount, ...(capped ? { capped } : {}) };
}

/**
 * Elements rendered together (one render per variant for a batch: a render costs a frame, wherever it is): the
 * prepared elements in order, a batch taking the next one while none of its members contains it or is inside it,
 * their boxes do not meet, and the region around them stays within MAX_BATCH_AREA.
 */
function batches(found: Array<Prepared | { unmeasured: string }>): number[][] {
  const out: Array<{ members: number[]; region: Box }> = [];
  found.forEach((f, i) => {
    if ("unmeasured" in f) return;
    const fits = out.find(
      (b) =>
        b.members.every(
          (j) => !(found[j] as Prepared).nested.includes(i) && !meets((found[j] as Prepared).box, f.box),
        ) && area(union(b.region, f.box)) <= MAX_BATCH_AREA,
    );
    if (fits) {
      fits.members.push(i);
      fits.region = union(fits.region, f.box);
    } else out.push({ members: [i], region: f.box });
  });
  return out.map((b) => b.members);
}

const area = (b: Box) => b.width * b.height;
const meets = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
function union(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** One batch rendered as shown and in each variant; each member measured on its own box of the renders. */
async function measureBatch(
  { world, cdp }: WebPage,
  batch: number[],
  found: Prepared[],
): Promise<Array<[number, Omit<GlyphContrast, "target">]>> {
  const region = batch.map((i) => found[i]!.box).reduce(union);
  const { viewportTop, viewportBottom } = found[batch[0]!]!;
  // Inside the viewport the region is rendered as it is; beyond it Chromium renders past the viewport.
  const captureBeyondViewport = region.y < viewportTop || region.y + region.height > viewportBottom;
  const shot = async () => {
    const { data } = await cdp.send("Page.captureScreenshot", {
      format: "png",
      clip: { ...region, scale: RENDER_SCALE },
      captureBeyondViewport,
    });
    return PNG.sync.read(Buffer.from(data, "base64"));
  };
  const renders: Partial<Record<Variant | "asShown", PNG>> = { asShown: await shot() };
  try {
    for (const variant of VARIANTS) {
      await world.run(paintTexts, { indices: batch, variant });
      renders[variant] = await shot();
    }
  } finally {
    await world.run(restoreTexts, batch);
  }
  return batch.map((i) => {
    const { box, partial, fontSizePx, fontWeight, shadow } = found[i]!;
    const crop = (v: keyof typeof renders) => cropRgba(renders[v]!, region, box);
    const measure = measureGlyphs({
      width: box.width * RENDER_SCALE,
      height: box.height * RENDER_SCALE,
      asShown: crop("asShown"),
      transparent: crop("transparent"),
      black: crop("black"),
      white: crop("white"),
    });
    const base = { box, fontSizePx, fontWeight, ...(partial ? { partial } : {}) };
    if ("unmeasured" in measure) return [i, { ...base, unmeasured: measure.unmeasured }];
    const { haloPixels, ...measured } = measure;
    return [i, { ...base, shadow: shadow || haloPixels > 0, ...measured }];
  });
}

/** The pixels of `box` in a render of `region` (both in page pixels, whole numbers), at the render's scale. */
function cropRgba(png: PNG, region: Box, box: Box): Uint8Array {
  const width = box.width * RENDER_SCALE;
  const height = box.height * RENDER_SCALE;
  const left = (box.x - region.x) * RENDER_SCALE;
  const top = (box.y - region.y) * RENDER_SCALE;
  const out = new Uint8Array(width * height * 4);
  for (let row = 0; row < height && top + row < png.height; row++) {
    const from = ((top + row) * png.width + left) * 4;
    out.set(png.data.subarray(from, from + Math.min(width, png.width - left) * 4), row * width * 4);
  }
  return out;
}

interface Prepared {
  box: Box;
  partial: boolean;
  fontSizePx: number;
  fontWeight: number;
  shadow: boolean;
  /** The other candidates (by index) this one contains or is inside: they cannot be painted together. */
  nested: number[];
  viewportTop: number;
  viewportBottom: number;
}

/** What the page keeps of one prepared element between calls: it, its descendants, their inline styles and colours. */
interface PaintState {
  elements: Array<HTMLElement | SVGElement>;
  styles: Array<string | null>;
  pins: Array<{ color: string; fill: string; shadow: string }>;
}

/**
 * In the page: finds each element, its text's box (document pixels, cut to `maxArea` from the top), its font,
 * whether a shadow or stroke draws its text, and which other candidates it contains or is inside; remembers its
 * and its descendants' inline styles and colours (to pin and restore them). Text that is animating, or has no
 * box, is not measured. Self-contained.
 */
function prepareTexts(args: { targets: string[]; maxArea: number }): Array<Prepared | { unmeasured: string }> {
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
  const states: Array<PaintState | null> = [];
  const prepared = found.map((el): Prepared | { unmeasured: string } => {
    states.push(null);
    if (!el) return { unmeasured: "the element was not found" };
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
        return { color: s.color, fill: s.getPropertyValue("-webkit-text-fill-color"), shadow: s.textShadow };
      }),
    };
    return {
      box: { x, y, width, height },
      partial: height < fullHeight,
      fontSizePx: Number.parseFloat(style.fontSize),
      fontWeight: Number.parseInt(style.fontWeight, 10) || 400,
      shadow: style.textShadow !== "none" || strokeWidth > 0,
      nested: found.flatMap((other, j) =>
        other && other !== el && (other.contains(el) || el.contains(other)) ? [j] : [],
      ),
      viewportTop: window.scrollY,
      viewportBottom: window.scrollY + window.innerHeight,
    };
  });
  (globalThis as any).__assayTextPaint = states;
  return prepared;
}

/**
 * In the page: paints the text of the prepared elements at `indices` transparent, black or white (fill, colour, no
 * shadow, no transition), their descendants pinned to the colours they had, so only their own text changes.
 * Self-contained.
 */
function paintTexts(args: { indices: number[]; variant: "transparent" | "black" | "white" }) {
  const states = (globalThis as any).__assayTextPaint as Array<PaintState | null>;
  const colour = args.variant === "transparent" ? "transparent" : args.variant === "black" ? "#000" : "#fff";
  for (const index of args.indices) {
    const state = states[index]!;
    state.elements.forEach((e, i) => {
      const pin = i === 0 ? { color: colour, fill: colour, shadow: "none" } : state.pins[i]!;
      e.style.setProperty("transition", "none", "important");
      e.style.setProperty("color", pin.color, "important");
      e.style.setProperty("-webkit-text-fill-color", pin.fill, "important");
      e.style.setProperty("text-shadow", pin.shadow, "important");
    });
  }
  void document.documentElement.getBoundingClientRect();
}

/**
 * In the page: puts back the inline styles of the prepared elements at `indices` and their descendants,
 * transitions held off until the colours are back (so none animates from the painted colour). Self-contained.
 */
function restoreTexts(indices: number[]) {
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
function forgetTexts() {
  (globalThis as any).__assayTextPaint = undefined;
}
