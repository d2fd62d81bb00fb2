import { COMMON_HELPERS, cssPath, runCache } from "../page-functions/common";

/** What the functional email checks read from the structure of the text/html part, gathered once per job. */
export interface EmailHtmlSnapshot {
  /** The <html> element's lang attribute as written, or null when it has none (or the source has no <html> tag). */
  lang: string | null;
  /** Names of <meta name="color-scheme"> / <meta name="supported-color-schemes"> elements, with their content. */
  colorSchemeMetas: Array<{ name: string; content: string }>;
  /** The conditions of @media rules in <style> blocks that test prefers-color-scheme. */
  prefersColorSchemeRules: string[];
  /** The hidden preheader: hidden text placed before the first visible text of <body>; null when there is none. */
  preheader: { text: string; selector: string; hiddenBy: string } | null;
  /** Hidden text before the first visible text that is too short to be a preheader (under 10 characters). */
  shortHiddenLead: { text: string; selector: string } | null;
  /** The first visible text of <body> (what an inbox previews when there is no preheader), and where it is. */
  firstVisibleText: { text: string; selector: string } | null;
  /** Visible text of <body> in reading order (block boundaries become line breaks). */
  visibleText: string;
  /** The same, leaving out the text inside <code> and <pre>. */
  visibleTextOutsideCode: string;
  /** Every <a href>, in document order. */
  links: Array<{ selector: string; href: string; text: string; imageAlt: string; visible: boolean; button: boolean }>;
  /** Visible headings (h1-h6), in document order. */
  headings: Array<{ level: number; text: string; selector: string }>;
  /** Every <img>. */
  images: Array<{ selector: string; src: string; alt: string | null; width: number; height: number; visible: boolean }>;
  /** Every <table>: its role and whether it has its own <th>, <caption> or <thead> (a data table). */
  tables: Array<{ selector: string; role: string | null; dataTable: boolean; depth: number }>;
  /** Each element that directly holds visible text: its computed font size (CSS px) and a sample of the text. */
  textRuns: Array<{ selector: string; fontSizePx: number; text: string; inCode: boolean }>;
  /** Element count, for the reasoning. */
  elementCount: number;
}

/**
 * The structure of a message's HTML part, read in a page holding it (JavaScript off, every request aborted): page
 * helpers (installed by page-helpers.ts) and the page function that composes them, snapshotEmailHtml.
 *
 * Hidden, for an email: display:none, visibility:hidden, opacity:0, max-height:0 (or height:0) with
 * overflow:hidden, or clipped to 1px or less, on the element or an ancestor (for the preheader, mso-hide:all too).
 * Text whose own font size is 0 is hidden too, but font-size:0 does not hide descendants that set a size of their
 * own (the usual way to close the gaps between inline-block columns).
 */

/** Text without the characters that pad preheaders and spacer cells: white space, zero-width and combining joiners, soft hyphens. */
export function meaningful(s: string): string {
  return s
    .replace(
      // biome-ignore lint/suspicious/noMisleadingCharacterClass: each joiner is meant alone, as padding, not in a sequence
      /[\s\u00a0\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202f\u205f\u2060-\u2064\u3000\u3164\ufeff]+/g,
      " ",
    )
    .trim();
}

/** An element whose content is never rendered (script, style, head, …). */
export function neverRendered(el: Element): boolean {
  return ["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "TITLE", "META", "LINK"].includes(el.tagName);
}

/** Why this element itself hides its content, or null. */
export function ownHiding(el: Element): string | null {
  if (neverRendered(el)) return el.tagName.toLowerCase();
  const cs = getComputedStyle(el);
  if (cs.display === "none") return "display:none";
  if (cs.visibility === "hidden" || cs.visibility === "collapse") return "visibility:hidden";
  if (Number(cs.opacity) === 0) return "opacity:0";
  const clips = cs.overflow === "hidden" || cs.overflowY === "hidden" || cs.overflowX === "hidden";
  if (clips && (cs.maxHeight === "0px" || cs.height === "0px" || cs.maxWidth === "0px" || cs.width === "0px"))
    return "max-height:0 with overflow:hidden";
  const r = el.getBoundingClientRect();
  if ((clips || cs.clip.startsWith("rect") || cs.clipPath !== "none") && r.width <= 1 && r.height <= 1)
    return "clipped to 1px";
  return null;
}

/** The outermost element (this or an ancestor) that hides this one, or null when it is rendered. */
export function hiddenRoot(el: Element | null): Element | null {
  if (!el || el === document.documentElement) return null;
  const cache = runCache<Element, Element | null>("email hidden root");
  if (cache.has(el)) return cache.get(el)!;
  const result = hiddenRoot(el.parentElement) ?? (ownHiding(el) ? el : null);
  cache.set(el, result);
  return result;
}

/**
 * mso-hide:all hides an element from Outlook only, so it is not hidden in general (the bulletproof-button fallback a
 * client other than Outlook shows carries it); as a preheader, it is one of the ways to hide.
 */
export function msoHidden(el: Element): boolean {
  return /mso-hide\s*:\s*all/i.test(el.getAttribute("style") ?? "");
}

/** The outermost element that hides this one as a preheader hides (mso-hide:all included), or null. */
export function preheaderRoot(el: Element | null): Element | null {
  if (!el || el === document.documentElement) return null;
  const cache = runCache<Element, Element | null>("email preheader root");
  if (cache.has(el)) return cache.get(el)!;
  const result = preheaderRoot(el.parentElement) ?? (ownHiding(el) || msoHidden(el) ? el : null);
  cache.set(el, result);
  return result;
}

/** The text nodes of <body> with meaningful text, but those whose own font size is 0. */
export function meaningfulTextNodes(): Text[] {
  const textNodes: Text[] = [];
  if (!document.body) return textNodes;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!meaningful(n.nodeValue ?? "")) continue;
    const parent = n.parentElement;
    if (parent && parseFloat(getComputedStyle(parent).fontSize) === 0) continue;
    textNodes.push(n as Text);
  }
  return textNodes;
}

/** What an inbox previews: the hidden text before the first visible text, grouped by the element that hides it (the preheader), and that first visible text. */
export function leadingText(textNodes: Text[]): Pick<
  EmailHtmlSnapshot,
  "preheader" | "shortHiddenLead" | "firstVisibleText"
> & {
  preheaderElement: Element | null;
} {
  let firstVisibleText: EmailHtmlSnapshot["firstVisibleText"] = null;
  const leading = new Map<Element, string[]>();
  for (const n of textNodes) {
    const root = preheaderRoot(n.parentElement);
    if (!root) {
      firstVisibleText = { text: meaningful(n.nodeValue ?? "").slice(0, 120), selector: cssPath(n.parentElement!) };
      break;
    }
    if (neverRendered(root)) continue;
    const list = leading.get(root) ?? [];
    list.push(n.nodeValue ?? "");
    leading.set(root, list);
  }
  let preheader: EmailHtmlSnapshot["preheader"] = null;
  let preheaderElement: Element | null = null;
  let shortHiddenLead: EmailHtmlSnapshot["shortHiddenLead"] = null;
  for (const [el, texts] of leading) {
    const text = meaningful(texts.join(" ")).replace(/\s+/g, " ");
    if ([...text].length >= 10) {
      preheaderElement = el;
      preheader = {
        text,
        selector: cssPath(el),
        hiddenBy: ownHiding(el) ?? (msoHidden(el) ? "mso-hide:all" : "hidden"),
      };
      break;
    }
    if (!shortHiddenLead && text) shortHiddenLead = { text, selector: cssPath(el) };
  }
  return { preheader, shortHiddenLead, firstVisibleText, preheaderElement };
}

/** Font sizes of the elements that directly hold visible text (the preheader is not copy, however it hides). */
export function textRuns(textNodes: Text[], preheaderElement: Element | null): EmailHtmlSnapshot["textRuns"] {
  const byParent = new Map<Element, string[]>();
  for (const n of textNodes) {
    const parent = n.parentElement!;
    if (hiddenRoot(parent) || preheaderElement?.contains(parent)) continue;
    const list = byParent.get(parent) ?? [];
    list.push(n.nodeValue ?? "");
    byParent.set(parent, list);
  }
  return [...byParent].map(([el, texts]) => ({
    selector: cssPath(el),
    fontSizePx: parseFloat(getComputedStyle(el).fontSize),
    text: meaningful(texts.join(" ")).replace(/\s+/g, " ").slice(0, 200),
    inCode: !!el.closest("code, pre"),
  }));
}

/** An element's meaningful text, white space collapsed. */
export function meaningfulTextOf(el: Element): string {
  return meaningful(el.textContent ?? "").replace(/\s+/g, " ");
}

/** A call-to-action button: a text link with its own background, or alone in a painted cell (the bulletproof-button pattern). */
export function looksLikeButton(el: Element): boolean {
  const painted = (e: Element) => {
    const bg = getComputedStyle(e).backgroundColor;
    return bg !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(bg);
  };
  if (!meaningfulTextOf(el) || el.querySelector("img")) return false;
  if (painted(el)) return true;
  const parent = el.parentElement;
  return (
    !!parent &&
    parent.children.length === 1 &&
    /^(TD|TH|DIV|P|SPAN)$/.test(parent.tagName) &&
    painted(parent) &&
    meaningfulTextOf(parent) === meaningfulTextOf(el)
  );
}

/** Every <a href> and <area href>, in document order. */
export function messageLinks(): EmailHtmlSnapshot["links"] {
  return Array.from(document.querySelectorAll("a[href], area[href]")).map((el) => ({
    selector: cssPath(el),
    href: (el.getAttribute("href") ?? "").trim(),
    text: meaningfulTextOf(el),
    imageAlt: Array.from(el.querySelectorAll("img[alt]"))
      .map((i) => i.getAttribute("alt") ?? "")
      .join(" ")
      .trim(),
    visible: !hiddenRoot(el),
    button: looksLikeButton(el),
  }));
}

/** Visible headings with text. */
export function messageHeadings(): EmailHtmlSnapshot["headings"] {
  return Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6"))
    .filter((el) => !hiddenRoot(el) && meaningfulTextOf(el))
    .map((el) => ({ level: Number(el.tagName[1]), text: meaningfulTextOf(el), selector: cssPath(el) }));
}

/** Every <img>, with the size its attributes give. */
export function messageImages(): EmailHtmlSnapshot["images"] {
  return Array.from(document.querySelectorAll("img")).map((el) => ({
    selector: cssPath(el),
    src: (el.getAttribute("src") ?? "").trim(),
    alt: el.getAttribute("alt"),
    width: Number(el.getAttribute("width")) || 0,
    height: Number(el.getAttribute("height")) || 0,
    visible: !hiddenRoot(el),
  }));
}

/** Every <table>: its role, whether it is a data table, how deep in other tables it is. */
export function messageTables(): EmailHtmlSnapshot["tables"] {
  const depthOf = (el: Element) => {
    let d = 0;
    for (let p = el.parentElement?.closest("table"); p; p = p.parentElement?.closest("table")) d++;
    return d;
  };
  return Array.from(document.querySelectorAll("table")).map((t) => ({
    selector: cssPath(t),
    role: t.getAttribute("role"),
    dataTable: Array.from(t.querySelectorAll("th, caption, thead")).some((x) => x.closest("table") === t),
    depth: depthOf(t),
  }));
}

/** <meta name="color-scheme"> and <meta name="supported-color-schemes">. */
export function colorSchemeMetas(): EmailHtmlSnapshot["colorSchemeMetas"] {
  return Array.from(document.querySelectorAll("meta[name]"))
    .map((m) => ({
      name: (m.getAttribute("name") ?? "").trim().toLowerCase(),
      content: m.getAttribute("content") ?? "",
    }))
    .filter((m) => m.name === "color-scheme" || m.name === "supported-color-schemes");
}

/** The conditions of @media rules that test prefers-color-scheme; a rule Chromium's parser dropped still counts as written (the <style> text is read too). */
export function prefersColorSchemeRules(): string[] {
  const found: string[] = [];
  const walkRules = (rules: CSSRuleList) => {
    for (const rule of Array.from(rules)) {
      if (rule instanceof CSSMediaRule && /prefers-color-scheme/i.test(rule.conditionText))
        found.push(rule.conditionText);
      if ("cssRules" in rule && (rule as CSSGroupingRule).cssRules) walkRules((rule as CSSGroupingRule).cssRules);
    }
  };
  for (const sheet of Array.from(document.styleSheets)) {
    try {
      walkRules(sheet.cssRules);
    } catch {}
  }
  if (!found.length) {
    for (const s of Array.from(document.querySelectorAll("style"))) {
      const m = /@media[^{]*prefers-color-scheme[^{]*/i.exec(s.textContent ?? "");
      if (m) found.push(m[0].replace(/^@media\s*/i, "").trim());
    }
  }
  return found;
}

/**
 * Visible text, laid out (innerText keeps block boundaries as line breaks), with and without <code> and <pre>. It
 * takes the hidden elements out of the (throw-away) document, so it is read last.
 */
export function visibleTexts(textNodes: Text[]): Pick<EmailHtmlSnapshot, "visibleText" | "visibleTextOutsideCode"> {
  const hiddenRoots = new Set<Element>();
  for (const n of textNodes) {
    const root = hiddenRoot(n.parentElement);
    if (root) hiddenRoots.add(root);
  }
  for (const el of hiddenRoots) (el as HTMLElement).style?.setProperty("display", "none", "important");
  const body = document.body;
  const visibleText = body ? body.innerText : "";
  for (const el of Array.from(document.querySelectorAll("code, pre")))
    (el as HTMLElement).style.setProperty("display", "none", "important");
  return { visibleText, visibleTextOutsideCode: body ? body.innerText : "" };
}

export const EMAIL_HTML_HELPERS = {
  ...COMMON_HELPERS,
  meaningful,
  neverRendered,
  ownHiding,
  hiddenRoot,
  msoHidden,
  preheaderRoot,
  meaningfulTextNodes,
  leadingText,
  textRuns,
  meaningfulTextOf,
  looksLikeButton,
  messageLinks,
  messageHeadings,
  messageImages,
  messageTables,
  colorSchemeMetas,
  prefersColorSchemeRules,
  visibleTexts,
};

/** Runs in the message's page, with EMAIL_HTML_HELPERS installed: what the functional email checks read of its HTML. */
export function snapshotEmailHtml(helpersKey: string): EmailHtmlSnapshot {
  const h = (globalThis as unknown as Record<symbol, typeof EMAIL_HTML_HELPERS>)[Symbol.for(helpersKey)]!;
  const textNodes = h.meaningfulTextNodes();
  const { preheaderElement, ...lead } = h.leadingText(textNodes);
  const textRuns = h.textRuns(textNodes, preheaderElement);
  const links = h.messageLinks();
  const headings = h.messageHeadings();
  const images = h.messageImages();
  const tables = h.messageTables();
  const colorSchemeMetas = h.colorSchemeMetas();
  const prefersColorSchemeRules = h.prefersColorSchemeRules();
  const lang = document.documentElement.getAttribute("lang");
  const elementCount = document.getElementsByTagName("*").length;
  // Last: it takes the hidden elements out of the document.
  const { visibleText, visibleTextOutsideCode } = h.visibleTexts(textNodes);
  return {
    lang,
    colorSchemeMetas,
    prefersColorSchemeRules,
    preheader: lead.preheader,
    shortHiddenLead: lead.shortHiddenLead,
    firstVisibleText: lead.firstVisibleText,
    visibleText,
    visibleTextOutsideCode,
    links,
    headings,
    images,
    tables,
    textRuns,
    elementCount,
  };
}
