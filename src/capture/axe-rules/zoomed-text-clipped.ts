import type { AssayAxeRule } from "./rule";

/**
 * W3C ACT rule 59br37 (WCAG 1.4.4 Resize text): text a box with `overflow: hidden` or `clip` cuts off when the page
 * is zoomed to 200% on a 1280×1024 screen. It runs only on the page laid out at 640×512 CSS pixels, the viewport
 * that zoom gives (gatherers/axe.ts, ZOOMED_VIEWPORT), never in the tag run at the size the page loaded at.
 *
 * Applies to a box whose computed overflow-x or overflow-y is hidden or clip (not the root's or the body's that the
 * viewport takes over: they do not clip as boxes), for each visible text node it holds whose parent is an HTML element
 * and that has no aria-hidden="true" ancestor. A text node is visible when part of it is shown after every clipping
 * box it is in, and that part is more than one CSS pixel in both directions: the visually-hidden pattern's 1px box
 * shows no glyph (ACT Inapplicable Example 5), nor does text its box hides entirely (a closed menu, a carousel slide
 * out of view), nor text that is transparent, visibility:hidden or opacity 0.
 *
 * Fails when the box cuts off part of such a text node by more than one CSS pixel (its lines' boxes, shrunk to the
 * line-height where that is smaller than the font's box) in a direction it clips, measured from what the boxes
 * between them leave (a scrolling box inside it shows its overflow by scrolling; a positioned descendant whose
 * containing block is outside the box escapes its clip), except where the ACT rule makes an exception: horizontally,
 * a box with white-space nowrap and a text-overflow other than clip (the cut is marked with an ellipsis); vertically,
 * a box one line tall: its used line-height (1.2 times the font size when normal, as the rule's background says) at
 * least its height (its content box's for overflow-y clip) and its height at least its font size. The rule's text
 * says only "line-height at least the height"; its Failed Example 4 (a 10px box cutting through its one 16px line)
 * fails, so a box shorter than its font, which cuts through the line it shows, is no such exception. A line clamp
 * (-webkit-line-clamp) is an exception too, as the vertical form of text-overflow: the rule's assumptions name text
 * clipped cleanly by text-overflow or line wrapping as no loss, and a clamp ends the text at a line's end with an
 * ellipsis.
 */
export const zoomedTextClipped: AssayAxeRule = {
  id: "zoomed-text-clipped",
  selector: "*",
  tags: ["cat.sensory-and-visual-cues", "wcag2aa", "wcag144", "assay"],
  impact: "serious",
  actId: "59br37",
  description: "Ensure text is not cut off by a box with overflow hidden or clip when the page is zoomed to 200%",
  help: "Text must not be clipped by CSS overflow at 200% zoom",
  messages: {
    pass: "The box shows all of its text at 200% zoom",
    fail: 'At 200% zoom (the page laid out at 640×512 CSS px) this box, ${data.box}, cuts off its text ("${data.text}"), which reaches ${data.cut}: let the box grow with its text (min-height instead of height, no fixed width) or scroll',
    incomplete: "Whether the box cuts off its text at 200% zoom could not be measured",
  },
  // Runs in the page, serialised: self-contained (axe calls it with the rule's element).
  matches: function zoomedTextClippedMatches(node: Element): boolean {
    const clips = (v: string) => v === "hidden" || v === "clip";
    const style = getComputedStyle(node);
    if (!clips(style.overflowX) && !clips(style.overflowY)) return false;
    // The root's overflow, and the body's when the root's is visible, are the viewport's: neither clips as a box.
    const root = node.ownerDocument.documentElement;
    if (node === root) return false;
    if (node === node.ownerDocument.body && node.tagName === "BODY") {
      const r = getComputedStyle(root);
      if (r.overflowX === "visible" && r.overflowY === "visible") return false;
    }
    return /\S/.test(node.textContent ?? "");
  },
  evaluate: function zoomedTextClippedEvaluate(this: { data(d: unknown): void }, node: Element): boolean | undefined {
    type Box = { l: number; t: number; r: number; b: number };
    const clips = (v: string) => v === "hidden" || v === "clip";
    const px = (v: string) => Number.parseFloat(v) || 0;
    // A box's clip edge: its padding box (overflow-clip-margin's default), scaled as a transform scales it.
    const paddingBox = (el: Element): Box => {
      const rect = el.getBoundingClientRect();
      const h = el as HTMLElement;
      const sx = h.offsetWidth ? rect.width / h.offsetWidth : 1;
      const sy = h.offsetHeight ? rect.height / h.offsetHeight : 1;
      const l = rect.left + el.clientLeft * sx;
      const t = rect.top + el.clientTop * sy;
      return { l, t, r: l + el.clientWidth * sx, b: t + el.clientHeight * sy };
    };
    // Whether an element is the containing block of an absolutely (or fixed) positioned descendant.
    const containsFixed = (s: CSSStyleDeclaration) =>
      s.transform !== "none" ||
      s.translate !== "none" ||
      s.rotate !== "none" ||
      s.scale !== "none" ||
      s.perspective !== "none" ||
      s.filter !== "none" ||
      s.backdropFilter !== "none" ||
      /paint|layout|strict|content/.test(s.contain) ||
      /transform|perspective|filter/.test(s.willChange);
    const contains = (s: CSSStyleDeclaration, kind: string) =>
      containsFixed(s) || (kind === "absolute" && s.position !== "static");

    const rootStyle = getComputedStyle(document.documentElement);
    // The viewport's overflow: the root's, or the body's when the root's is visible (CSS Overflow 3, §3.3).
    const viewport =
      rootStyle.overflowX === "visible" && rootStyle.overflowY === "visible" && document.body
        ? getComputedStyle(document.body)
        : rootStyle;
    const style = getComputedStyle(node);
    const clipX = clips(style.overflowX);
    const clipY = clips(style.overflowY);
    const box = paddingBox(node);
    // The ACT rule's exceptions: an ellipsis marks a horizontal cut; a box one line tall cuts between lines.
    const fontSize = px(style.fontSize);
    const lineHeight = style.lineHeight === "normal" ? 1.2 * fontSize : px(style.lineHeight);
    const height =
      style.overflowY === "clip"
        ? node.clientHeight - px(style.paddingTop) - px(style.paddingBottom)
        : (node as HTMLElement).offsetHeight;
    const markedX = style.whiteSpace === "nowrap" && style.textOverflow !== "clip";
    const oneLineY = lineHeight >= height - 0.5 && height >= fontSize - 0.5;
    // A line clamp is text-overflow's vertical form: the text stops at the end of a line, marked with an ellipsis.
    const markedY = (style as unknown as { webkitLineClamp: string }).webkitLineClamp !== "none";
    if ((!clipX || markedX) && (!clipY || oneLineY || markedY)) return true;
    // Content past a scrolling box's right or bottom edge is in its scroll size; past its left or top edge it is cut
    // unreachable, which hides text whole (text-indent: -9999px), not in part: a box that overflows neither way is done.
    const overflowsX = clipX && !markedX && (style.overflowX === "clip" || node.scrollWidth > node.clientWidth + 1);
    const overflowsY =
      clipY && !oneLineY && !markedY && (style.overflowY === "clip" || node.scrollHeight > node.clientHeight + 1);
    if (!overflowsX && !overflowsY) return true;

    // What of a text node is shown after every clipping box it is in (visible), and what reaches this box.
    const shown = (text: Text): { visible: boolean; reach: Box[] } => {
      const parent = text.parentElement!;
      const ps = getComputedStyle(parent);
      const range = document.createRange();
      range.selectNodeContents(text);
      const lh = ps.lineHeight === "normal" ? Number.POSITIVE_INFINITY : px(ps.lineHeight);
      let lines: Box[] = [...range.getClientRects()]
        .filter((r) => r.width > 0 && r.height > 0)
        .map((r) => {
          // The font's box overhangs a line shorter than it: the line-height is where its glyphs belong.
          const half = Math.min(r.height, lh) / 2;
          const mid = (r.top + r.bottom) / 2;
          return { l: r.left, t: mid - half, r: r.right, b: mid + half };
        });
      const cut = (rects: Box[], b: Box, x: boolean, y: boolean) =>
        rects
          .map((r) => ({
            l: x ? Math.max(r.l, b.l) : r.l,
            r: x ? Math.min(r.r, b.r) : r.r,
            t: y ? Math.max(r.t, b.t) : r.t,
            b: y ? Math.min(r.b, b.b) : r.b,
          }))
          .filter((r) => r.r > r.l && r.b > r.t);
      let visible = lines;
      let reach: Box[] | null = null;
      let escaping: string | null = null;
      for (
        let el: Element | null = parent;
        el;
        el = el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null
      ) {
        const s = el === parent ? ps : getComputedStyle(el);
        if (escaping && contains(s, escaping)) escaping = null;
        if (el === node) reach = escaping ? [] : lines;
        if (el === document.documentElement) break;
        const viewportsOwn =
          el === document.body && rootStyle.overflowX === "visible" && rootStyle.overflowY === "visible";
        if (!escaping && !viewportsOwn) {
          const b = paddingBox(el);
          const x = s.overflowX !== "visible";
          const y = s.overflowY !== "visible";
          // A scrolling box shows its overflow by scrolling: what is past it reaches the boxes above it.
          if (el !== node && (x || y)) lines = cut(lines, b, x, y);
          if (clips(s.overflowX) || clips(s.overflowY))
            visible = cut(visible, b, clips(s.overflowX), clips(s.overflowY));
        }
        if (!escaping && (s.position === "absolute" || s.position === "fixed")) escaping = s.position;
      }
      // Nothing left of or above the page's origin can be scrolled to, nor past the viewport where it does not scroll.
      const page = { l: -window.scrollX, t: -window.scrollY, r: Infinity, b: Infinity };
      if (clips(viewport.overflowX)) page.r = page.l + window.innerWidth;
      if (clips(viewport.overflowY)) page.b = page.t + window.innerHeight;
      visible = cut(visible, page, true, true);
      const painted =
        parent.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
        !/^rgba\(.*,\s*0\)$/.test(ps.color);
      return { visible: painted && visible.some((r) => r.r - r.l > 1 && r.b - r.t > 1), reach: reach ?? [] };
    };

    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
      const parent = text.parentElement;
      if (!parent || !/\S/.test(text.data) || parent.namespaceURI !== "http://www.w3.org/1999/xhtml") continue;
      if (parent.closest('[aria-hidden="true"]')) continue;
      const { visible, reach } = shown(text);
      if (!visible) continue;
      // How far the text reaches past each edge the box clips it at.
      const past = { left: 0, right: 0, top: 0, bottom: 0 };
      for (const r of reach) {
        if (overflowsX) {
          past.left = Math.max(past.left, box.l - r.l);
          past.right = Math.max(past.right, r.r - box.r);
        }
        if (overflowsY) {
          past.top = Math.max(past.top, box.t - r.t);
          past.bottom = Math.max(past.bottom, r.b - box.b);
        }
      }
      const cut = Object.entries(past).filter(([, by]) => by > 1);
      if (!cut.length) continue;
      const words = text.data.trim().replace(/\s+/g, " ");
      const overflow =
        style.overflowX === style.overflowY
          ? `overflow: ${style.overflowX}`
          : `overflow-x: ${style.overflowX}, overflow-y: ${style.overflowY}`;
      this.data({
        box: `${Math.round(box.r - box.l)}×${Math.round(box.b - box.t)} px with ${overflow}`,
        cut: cut.map(([edge, by]) => `${Math.round(by)} px past its ${edge} edge`).join(" and "),
        text: words.length > 60 ? `${words.slice(0, 59)}…` : words,
      });
      return false;
    }
    return true;
  },
};
