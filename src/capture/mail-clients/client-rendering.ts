import { converter, formatRgb, parse } from "culori";
import type { Page } from "playwright-core";

/**
 * What a mail client does to a message once it is laid out, before anything is read of it: Outlook for Windows'
 * Word engine's limits, and dark mode (Apple Mail's choice, or the inversion of the message's colours). Run by
 * the render (render.ts); the functions named …InPage run inside the message's page (self-contained).
 */

type DarkInversion = "partial-invert" | "full-invert";
const toHsl = converter("hsl");
const toRgb = converter("rgb");

/**
 * One CSS colour as a dark-mode client rewrites it, or null when it is left alone. "partial-invert": light
 * backgrounds are darkened and dark text lightened, colours already dark (backgrounds) or light (text) kept.
 * "full-invert": every text and background colour has its lightness inverted.
 */
export function invertedColour(css: string, kind: "text" | "background", mode: DarkInversion): string | null {
  const colour = parse(css);
  if (!colour || colour.alpha === 0) return null;
  const { h, s, l } = toHsl(colour);
  const light = l > 0.5;
  if (mode === "partial-invert" && (kind === "text" ? light : !light)) return null;
  // Partial inversion keeps inverted text readable on the darkened backgrounds (as Gmail and Outlook do, they
  // lift it well clear of the dark); a full inversion keeps the lightness relations of the original.
  const next =
    kind === "background"
      ? Math.max(0.07, 1 - l)
      : mode === "partial-invert"
        ? Math.min(0.93, Math.max(0.75, 1 - l))
        : 1 - l;
  return formatRgb({ ...toRgb({ mode: "hsl", h, s, l: next }), alpha: colour.alpha ?? 1 });
}

/** Inside the rendered message: every element's text, background and border colour, in document order. */
export function readColoursInPage(): Array<[string, string, string]> {
  const elements = [document.documentElement, ...Array.from(document.querySelectorAll("body, body *"))];
  return elements.map((el) => {
    const cs = getComputedStyle(el);
    return [cs.color, cs.backgroundColor, cs.borderTopColor];
  });
}

/** Inside the rendered message: writes the new colours (inline, !important) in the same document order; returns how many elements changed. */
export function writeColoursInPage(plan: Array<[string | null, string | null, string | null]>): number {
  const elements = [
    document.documentElement,
    ...Array.from(document.querySelectorAll("body, body *")),
  ] as HTMLElement[];
  let changed = 0;
  elements.forEach((el, i) => {
    const [color, background, border] = plan[i] ?? [null, null, null];
    if (!el.style) return;
    if (color) el.style.setProperty("color", color, "important");
    if (background) el.style.setProperty("background-color", background, "important");
    if (border) el.style.setProperty("border-color", border, "important");
    if (color || background) changed++;
  });
  return changed;
}

/**
 * Dark mode by inversion: colours are all read first and written after, so the order of elements does not
 * matter; the conversions run here, with culori, between the two.
 */
export async function invertColours(page: Page, mode: DarkInversion): Promise<number> {
  const read = await page.evaluate(readColoursInPage);
  const plan = read.map(
    ([color, background, border]) =>
      [
        invertedColour(color, "text", mode),
        invertedColour(background, "background", mode),
        invertedColour(border, "background", mode),
      ] as [string | null, string | null, string | null],
  );
  return page.evaluate(writeColoursInPage, plan);
}

/**
 * Apple Mail's choice in dark mode: does the message declare dark support, and does it set colours of its own (a
 * colour other than the root's, the client's default text)?
 */
export function appleDarkDecisionInPage(): { declared: boolean; coloured: boolean } {
  const defaultText = getComputedStyle(document.documentElement).color;
  const metas = Array.from(
    document.querySelectorAll('meta[name="color-scheme" i], meta[name="supported-color-schemes" i]'),
  );
  const declared =
    metas.some((m) => /dark/i.test(m.getAttribute("content") ?? "")) ||
    /dark/i.test(getComputedStyle(document.documentElement).colorScheme || "");
  let coloured = false;
  for (const el of [document.documentElement, ...Array.from(document.querySelectorAll("body, body *"))]) {
    const cs = getComputedStyle(el);
    const bg = cs.backgroundColor;
    if ((bg && bg !== "rgba(0, 0, 0, 0)" && bg !== "transparent") || (cs.color !== defaultText && !el.closest("a"))) {
      coloured = true;
      break;
    }
  }
  return { declared, coloured };
}

/**
 * Outlook for Windows' Word engine, on what the style blocks set (the sanitizer already cleaned inline
 * styles): no width or height on div/p/span, no max-width outside tables, padding only on table cells.
 * VML boxes (drawn by the sanitizer) are left alone. Each element the limits changed (its padding or max-width
 * dropped, or its box resized) is marked with `mark.value` in `mark.attribute`; returns how many.
 */
export function applyWordLimitsInPage(mark: { attribute: string; value: string }): number {
  const elements = (Array.from(document.querySelectorAll("body *")) as HTMLElement[]).filter(
    (el) => !el.hasAttribute("data-assay-vml"),
  );
  // Sizes are read for all before any is written, and again after: one layout each way.
  const sized = elements.filter((el) => ["div", "p", "span"].includes(el.tagName.toLowerCase()));
  const before = sized.map((el) => el.getBoundingClientRect());
  const changed = new Set<HTMLElement>();
  for (const el of elements) {
    const tag = el.tagName.toLowerCase();
    const cs = getComputedStyle(el);
    if (["div", "p", "span"].includes(tag)) {
      el.style.setProperty("width", "auto", "important");
      el.style.setProperty("height", "auto", "important");
    }
    if (tag !== "table" && cs.maxWidth !== "none") {
      el.style.setProperty("max-width", "none", "important");
      changed.add(el);
    }
    if (
      !["td", "th"].includes(tag) &&
      ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].some((p) => parseFloat(cs[p as "paddingTop"]) > 0)
    ) {
      el.style.setProperty("padding", "0", "important");
      changed.add(el);
    }
  }
  sized.forEach((el, i) => {
    const was = before[i]!;
    const now = el.getBoundingClientRect();
    if (Math.abs(was.width - now.width) >= 1 || Math.abs(was.height - now.height) >= 1) changed.add(el);
  });
  for (const el of changed) {
    const marks = (el.getAttribute(mark.attribute) ?? "").split(" ").filter(Boolean);
    if (!marks.includes(mark.value)) el.setAttribute(mark.attribute, [...marks, mark.value].join(" "));
  }
  return changed.size;
}
