import { PNG } from "pngjs";
import type { AxeNode, AxeRuleResult, Box, ContrastPixels, ContrastRule, GlyphContrast } from "../artifact-shapes";
import { measureGlyphs } from "../glyph-pixels";
import { forgetTexts, paintTexts, type Prepared, prepareTexts, restoreTexts } from "../page-functions/text-paint";
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

/**
 * axe's reasons for leaving contrast undecided that are about whether the text is text, not about its colours: the
 * page's accessibility tree answers them (page-functions/text-paint.ts), and pixels measure only what it settles.
 */
const NOT_A_COLOUR_QUESTION = new Set(["shortTextContent", "nonBmp", "equalRatio"]);

/**
 * The text variants rendered besides the page as shown: transparent shows what is behind the glyphs; halo (text
 * transparent over its own shadow) only where a batch has text whose shadow surrounds its glyphs.
 */
type Variant = "transparent" | "black" | "white" | "halo";
const VARIANTS: Variant[] = ["transparent", "black", "white"];

/** The size axe ran at (the size the page loaded at): there its results are read, elsewhere color-contrast runs again. */
const AXE_SIZE: CaptureSize = "desktop-md";

/**
 * "contrast-pixels": at each size a check that judges contrast is read at (only there: it costs an axe run and
 * renders), axe-core's color-contrast rule (at desktop-md the "axe" gatherer's results, elsewhere the rule run again
 * on the resized page), and the elements it left undecided (text over a background image, a gradient, overlapping or
 * translucent layers) measured from rendered pixels. Each element's text box is rendered four times (as shown, then
 * with its text transparent, black and white; its children keep their own colours), a fifth (its text transparent
 * over its own shadow) where that shadow is a halo, and glyph-pixels.ts turns the renders into a contrast
 * distribution. Under an AAA standard, what axe's enhanced rule alone left undecided is measured too. Up to MAX_ELEMENTS elements and TIME_BUDGET_MS a size; `capped`
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
    // Under an AAA standard axe's enhanced rule runs too (at desktop-md): what it alone left undecided is measured
    // as well, for accessibility-wcag to hold to the enhanced ratio.
    const listed = new Set(rule.incomplete?.nodes.map((n) => n.target));
    const enhancedOnly =
      summary.incomplete.find((r) => r.id === "color-contrast-enhanced")?.nodes.filter((n) => !listed.has(n.target)) ??
      [];
    const none = { viewport: size, axe: rule, elements: [], candidates: 0 };
    if (!rule.incomplete && !enhancedOnly.length) return { contrastPixels: none };
    return { contrastPixels: { ...none, ...(await measureUndecided(page, rule.incomplete, enhancedOnly)) } };
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
  undecided: AxeRuleResult | undefined,
  enhancedOnly: AxeNode[],
): Promise<Pick<ContrastPixels, "elements" | "candidates" | "capped">> {
  const started = performance.now();
  const nodes = [...(undecided?.nodes ?? []), ...enhancedOnly];
  const nodeCount = (undecided?.nodeCount ?? 0) + enhancedOnly.length;
  const chosen = nodes.slice(0, MAX_ELEMENTS);
  const targets = chosen.map((n) => n.target);
  const questions = chosen.map((n) =>
    NOT_A_COLOUR_QUESTION.has(n.contrast?.messageKey ?? "") ? n.contrast!.messageKey! : null,
  );
  const found = await page.world
    .run(prepareTexts, { targets, questions, maxArea: MAX_REGION_AREA })
    .catch((e: Error) =>
      targets.map(() => ({ unmeasured: `the page could not be read: ${e.message.split("\n")[0]}` })),
    );
  const elements: GlyphContrast[] = targets.map((target, i) => {
    const f = found[i]!;
    return "unmeasured" in f ? { target, ...f } : { target };
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
  if (nodeCount > targets.length) capped ??= `the ${targets.length} elements axe reports of ${nodeCount}`;
  return { elements, candidates: nodeCount, ...(capped ? { capped } : {}) };
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
  const halos = batch.some((i) => found[i]!.halo);
  try {
    for (const variant of halos ? [...VARIANTS, "halo" as const] : VARIANTS) {
      await world.run(paintTexts, { indices: batch, variant });
      renders[variant] = await shot();
    }
  } finally {
    await world.run(restoreTexts, batch);
  }
  return batch.map((i) => {
    const { box, partial, fontSizePx, fontWeight, shadow, halo, symbol } = found[i]!;
    const crop = (v: keyof typeof renders) => cropRgba(renders[v]!, region, box);
    const measure = measureGlyphs({
      width: box.width * RENDER_SCALE,
      height: box.height * RENDER_SCALE,
      asShown: crop("asShown"),
      transparent: crop("transparent"),
      black: crop("black"),
      white: crop("white"),
      ...(halo ? { behind: crop("halo") } : {}),
    });
    const base = { box, fontSizePx, fontWeight, ...(partial ? { partial } : {}), ...(symbol ? { symbol } : {}) };
    if ("unmeasured" in measure) return [i, { ...base, unmeasured: measure.unmeasured }];
    const { haloPixels, ...measured } = measure;
    return [i, { ...base, shadow: shadow || haloPixels > 0, ...(halo ? { halo } : {}), ...measured }];
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
