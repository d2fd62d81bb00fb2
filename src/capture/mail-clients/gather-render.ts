import { converter, formatRgb, parse, wcagContrast, type Rgb } from "culori";
import type { Page } from "playwright-core";
import type { Box } from "../artifact-shapes";
import type { COMMON_HELPERS } from "../page-functions/common";

type RGB = [number, number, number];

/** What the email checks read from one render, beyond the layout snapshot. */
export interface EmailRenderSnapshot {
  /** The client's canvas colour behind the message. */
  canvas: RGB;
  /** Visible text, per element owning text nodes: its colour against the background composited under it. */
  textBlocks: Array<{ selector: string; text: string; fontSizePx: number; bold: boolean; color: RGB; background: RGB; contrast: number }>;
  images: Array<{
    selector: string;
    /** Where the source points: remote (blocked here), data:, cid: (blocked here too), or nothing. */
    source: "remote" | "data" | "cid" | "none" | "other";
    url: string;
    alt: string | null;
    box: Box;
    shown: boolean;
    loaded: boolean;
    /** The href of the link around it, if any. */
    link: string | null;
    /** What the link around it shows with images off, its text or its images' alt ("" when none or not linked): many links may share an href such as #. */
    linkText: string;
  }>;
  links: Array<{
    selector: string;
    href: string;
    text: string;
    box: Box;
    shown: boolean;
    /** Looks like a button: a background colour unlike its surroundings, a border, a background image, or a coloured cell, table or wrapper around it alone. */
    buttonStyled: boolean;
    /** Its own text colour (of the element inside it that holds its text) blended over what is behind that text (null for a link without text of its own), and that background (background images are blocked, so they do not count). */
    color: RGB | null;
    background: RGB;
    /** Its own text against the background under it (WCAG 2.x ratio); null for a link without text. */
    contrast: number | null;
    /** How much of its width lies within the viewport. */
    visibleShare: number;
  }>;
  /** Words of visible live text (alt text of images not included) and of alt text of images that did not load. */
  words: number;
  altWords: number;
  viewportWidth: number;
}

/** What the page measures; the contrast ratios are computed outside it (withContrast), with culori. */
export type MeasuredEmailRender = Omit<EmailRenderSnapshot, "textBlocks" | "links"> & {
  textBlocks: Array<Omit<EmailRenderSnapshot["textBlocks"][number], "contrast">>;
  links: Array<Omit<EmailRenderSnapshot["links"][number], "contrast">>;
};

/** WCAG 2.x contrast of each text block and each link's own text, to two decimals. */
export function withContrast(measured: MeasuredEmailRender): EmailRenderSnapshot {
  const ratio = (fg: RGB, bg: RGB) => Math.round(wcagContrast(rgbColour(fg), rgbColour(bg)) * 100) / 100;
  return {
    ...measured,
    textBlocks: measured.textBlocks.map((t) => ({ ...t, contrast: ratio(t.color, t.background) })),
    links: measured.links.map((l) => ({ ...l, contrast: l.color ? ratio(l.color, l.background) : null })),
  };
}
const rgbColour = ([r, g, b]: RGB): Rgb => ({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });

/** Runs inside the rendered message (serialised by Playwright, so self-contained). */
export function snapshotEmailRender(args: { helpersKey: string; canvas: RGB }): MeasuredEmailRender {
  const { cssPath, inColouredContainer } = (globalThis as unknown as Record<symbol, typeof COMMON_HELPERS>)[Symbol.for(args.helpersKey)]!;
  const parse = (css: string): [number, number, number, number] => {
    const m = css.match(/rgba?\(([^)]+)\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0, p[3] ?? 1];
  };
  /** The background under an element: its ancestors' background colours composited over the canvas. */
  const backgroundOf = (el: Element | null): RGB => {
    const layers: Array<[number, number, number, number]> = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out: RGB = [...args.canvas];
    for (const [r, g, b, a] of layers.reverse()) out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
    return out.map(Math.round) as RGB;
  };
  const blend = (fg: [number, number, number, number], bg: RGB): RGB =>
    [fg[0] * fg[3] + bg[0] * (1 - fg[3]), fg[1] * fg[3] + bg[1] * (1 - fg[3]), fg[2] * fg[3] + bg[2] * (1 - fg[3])].map(Math.round) as RGB;
  const visible = (el: Element) => {
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    return el.checkVisibility() && cs.visibility !== "hidden" && Number(cs.opacity) > 0 && r.width > 0 && r.height > 0;
  };
  const box = (r: DOMRect): Box => ({ x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height });
  const width = document.documentElement.clientWidth;

  const textBlocks: MeasuredEmailRender["textBlocks"] = [];
  const owners = new Map<Element, string>();
  let words = 0;
  if (document.body) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = (n.nodeValue ?? "").replace(/\s+/g, " ").trim();
      if (!el || !text || el.closest("script, style, noscript, template, title")) continue;
      if (!visible(el)) continue;
      words += text.split(" ").filter((w) => /\w/.test(w)).length;
      owners.set(el, `${owners.get(el) ?? ""} ${text}`.trim());
    }
  }
  for (const [el, text] of owners) {
    if (textBlocks.length >= 400) break;
    const cs = getComputedStyle(el);
    const background = backgroundOf(el);
    const color = blend(parse(cs.color), background);
    textBlocks.push({
      selector: cssPath(el),
      text: text.slice(0, 120),
      fontSizePx: parseFloat(cs.fontSize) || 16,
      bold: Number(cs.fontWeight) >= 600,
      color,
      background,
    });
  }

  /** What a link shows with images off: its text, else the alt text of its images. */
  const linkTextOf = (a: Element | null): string => {
    if (!a) return "";
    const own = (a.textContent ?? "").replace(/\s+/g, " ").trim();
    return own || Array.from(a.querySelectorAll("img")).map((i) => i.getAttribute("alt") ?? "").join(" ").trim();
  };
  let altWords = 0;
  const images: EmailRenderSnapshot["images"] = [];
  for (const img of Array.from(document.images)) {
    const raw = img.getAttribute("src") ?? "";
    const source = !raw ? "none" : /^(https?:)?\/\//i.test(raw) ? "remote" : /^data:/i.test(raw) ? "data" : /^cid:/i.test(raw) ? "cid" : "other";
    const loaded = img.complete && img.naturalWidth > 0;
    const alt = img.getAttribute("alt");
    if (!loaded && alt) altWords += alt.split(/\s+/).filter((w) => /\w/.test(w)).length;
    images.push({
      selector: cssPath(img),
      source,
      url: raw.startsWith("data:") ? `${raw.slice(0, 40)}…` : raw,
      alt,
      box: box(img.getBoundingClientRect()),
      shown: visible(img),
      loaded,
      link: img.closest("a[href]")?.getAttribute("href") ?? null,
      linkText: linkTextOf(img.closest("a[href]")),
    });
  }

  const links: MeasuredEmailRender["links"] = [];
  for (const a of Array.from(document.querySelectorAll("a[href]"))) {
    const cs = getComputedStyle(a);
    const r = a.getBoundingClientRect();
    // A link's box is the union of its own box and its children's (an inline link around a block).
    let left = r.left;
    let right = r.right;
    let top = r.top;
    let bottom = r.bottom;
    for (const child of Array.from(a.querySelectorAll("*"))) {
      const c = child.getBoundingClientRect();
      if (c.width === 0 || c.height === 0) continue;
      left = Math.min(left, c.left);
      right = Math.max(right, c.right);
      top = Math.min(top, c.top);
      bottom = Math.max(bottom, c.bottom);
    }
    const union = new DOMRect(left, top, right - left, bottom - top);
    const own = (a.textContent ?? "").replace(/\s+/g, " ").trim();
    const bg = parse(cs.backgroundColor);
    const parentBg = backgroundOf(a.parentElement);
    const border = Math.max(parseFloat(cs.borderTopWidth) || 0, parseFloat(cs.borderLeftWidth) || 0);
    const buttonStyled =
      (!!cs.backgroundImage && cs.backgroundImage !== "none") ||
      (bg[3] > 0 && blend(bg as [number, number, number, number], parentBg).join() !== parentBg.join()) ||
      (border >= 1 && cs.borderTopStyle !== "none") ||
      // A "bulletproof" button: the coloured cell, table or wrapper around a lone link.
      inColouredContainer(a);
    // The text is drawn in the colour of the element that holds it, which for a link around a table or a
    // <span> is not the link itself: the first element inside it that owns visible text.
    const textHolder = [...owners.keys()].find((el) => a === el || a.contains(el)) ?? a;
    const linkBackground = backgroundOf(textHolder);
    const inside = Math.max(0, Math.min(union.right, width) - Math.max(union.left, 0));
    links.push({
      selector: cssPath(a),
      href: a.getAttribute("href") ?? "",
      text: linkTextOf(a).slice(0, 120),
      box: box(union),
      shown: visible(a) || Array.from(a.children).some((c) => visible(c)),
      buttonStyled,
      color: own ? blend(parse(getComputedStyle(textHolder).color), linkBackground) : null,
      background: linkBackground,
      visibleShare: union.width > 0 ? Math.round((inside / union.width) * 100) / 100 : 0,
    });
  }
  return { canvas: args.canvas, textBlocks, images, links, words, altWords, viewportWidth: width };
}

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
  const next = kind === "background" ? Math.max(0.07, 1 - l) : mode === "partial-invert" ? Math.min(0.93, Math.max(0.75, 1 - l)) : 1 - l;
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
  const elements = [document.documentElement, ...Array.from(document.querySelectorAll("body, body *"))] as HTMLElement[];
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
  const plan = read.map(([color, background, border]) => [invertedColour(color, "text", mode), invertedColour(background, "background", mode), invertedColour(border, "background", mode)] as [string | null, string | null, string | null]);
  return page.evaluate(writeColoursInPage, plan);
}

/** Apple Mail's choice in dark mode: does the message declare dark support, and does it set colours of its own? */
export function appleDarkDecisionInPage(defaultText: string): { declared: boolean; coloured: boolean } {
  const metas = Array.from(document.querySelectorAll('meta[name="color-scheme" i], meta[name="supported-color-schemes" i]'));
  const declared =
    metas.some((m) => /dark/i.test(m.getAttribute("content") ?? "")) || /dark/i.test(getComputedStyle(document.documentElement).colorScheme || "");
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
 * VML boxes (drawn by the sanitizer) are left alone.
 */
export function applyWordLimitsInPage(): number {
  let changed = 0;
  for (const el of Array.from(document.querySelectorAll("body *")) as HTMLElement[]) {
    if (el.hasAttribute("data-assay-vml")) continue;
    const tag = el.tagName.toLowerCase();
    const cs = getComputedStyle(el);
    if (["div", "p", "span"].includes(tag)) {
      el.style.setProperty("width", "auto", "important");
      el.style.setProperty("height", "auto", "important");
      changed++;
    }
    if (tag !== "table" && cs.maxWidth !== "none") el.style.setProperty("max-width", "none", "important");
    if (!["td", "th"].includes(tag) && ["paddingTop", "paddingRight", "paddingBottom", "paddingLeft"].some((p) => parseFloat(cs[p as "paddingTop"]) > 0)) {
      el.style.setProperty("padding", "0", "important");
      changed++;
    }
  }
  return changed;
}
