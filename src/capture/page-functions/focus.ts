import { COMMON_HELPERS } from "./common";

/** Where keyboard focus is after a key press, as the keyboard gatherer reads it (gatherers/keyboard.ts). */
export interface FocusState {
  /** Focus went out of the page, to the browser's own controls: the document no longer has focus. */
  left: boolean;
  /** The focused element's number in this page (the same element keeps its number); null when none is. */
  id: number | null;
  selector: string;
  text: string;
  /**
   * Focus is inside something whose stops cannot be told apart from here (a frame from another origin, a custom
   * element's closed shadow root, a date field's parts): several Tab presses may stop there in a row.
   */
  opaque: boolean;
}

/** The element that has focus, through same-origin frames and open shadow roots. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  for (;;) {
    if (!active) return null;
    const frameDoc = active instanceof HTMLIFrameElement ? safeContentDocument(active) : null;
    if (frameDoc?.activeElement && frameDoc.activeElement !== frameDoc.body) {
      active = frameDoc.activeElement;
      continue;
    }
    const inner = active.shadowRoot?.activeElement;
    if (inner) {
      active = inner;
      continue;
    }
    return active;
  }
}

function safeContentDocument(frame: HTMLIFrameElement): Document | null {
  try {
    return frame.contentDocument;
  } catch {
    return null;
  }
}

/** Each element's number, kept in Assay's world for the page's life, so a stop met again is known. */
function focusNumber(el: Element): number {
  const store = globalThis as unknown as { assayFocusNumbers?: WeakMap<Element, number>; assayFocusNext?: number };
  store.assayFocusNumbers ??= new WeakMap();
  let n = store.assayFocusNumbers.get(el);
  if (n === undefined) {
    n = store.assayFocusNext = (store.assayFocusNext ?? 0) + 1;
    store.assayFocusNumbers.set(el, n);
  }
  return n;
}

export const FOCUS_HELPERS = { ...COMMON_HELPERS, deepActiveElement, safeContentDocument, focusNumber };

type Helpers = typeof FOCUS_HELPERS;

/**
 * Runs in the page, with FOCUS_HELPERS installed: waits `settleMs` (timers a focus or blur handler set, such as
 * one that takes focus back, run first), then reads where focus is.
 */
export async function readFocus({
  helpersKey,
  settleMs,
}: {
  helpersKey: string;
  settleMs: number;
}): Promise<FocusState> {
  const h = (globalThis as unknown as Record<symbol, Helpers>)[Symbol.for(helpersKey)]!;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const store = globalThis as unknown as { assayFocusLeft?: boolean };
  const leftMeanwhile = store.assayFocusLeft === true;
  store.assayFocusLeft = false;
  const el = h.deepActiveElement();
  const none = !el || el === document.body || el === document.documentElement;
  if (leftMeanwhile || !document.hasFocus()) return { left: true, id: null, selector: "", text: "", opaque: false };
  if (none) return { left: false, id: null, selector: "", text: "", opaque: false };
  const crossOriginFrame = el instanceof HTMLIFrameElement && !h.safeContentDocument(el);
  const closedComponent = el.localName.includes("-") && !el.shadowRoot;
  // Controls whose own parts take Tab in turn (a date's day, month and year; a player's buttons) while they stay focused.
  const parted = el.matches(
    "input[type=date], input[type=time], input[type=datetime-local], input[type=month], input[type=week], video[controls], audio[controls]",
  );
  return {
    left: false,
    id: h.focusNumber(el),
    selector: el.ownerDocument === document ? h.cssPath(el) : `iframe ${el.localName}`,
    text: h.textOfElement(el).slice(0, 80),
    opaque: crossOriginFrame || closedComponent || parted,
  };
}

/**
 * Runs in the page: from now on, focus reaching the browser's own controls is noted as it happens (readFocus reads
 * it). A real browser keeps focus in its controls once there, whatever the page's script then focuses (the W3C's ACT
 * rule 80af7b counts a blur handler's timer as unable to take it back); headless Chromium gives the page focus again,
 * which read 40 ms later would hide that Tab had left. Focus going into a frame blurs the window too, but the
 * document still has focus then.
 */
export function watchLeaving(): void {
  const store = globalThis as unknown as { assayFocusLeft?: boolean; assayWatchingLeave?: boolean };
  store.assayFocusLeft = false;
  if (store.assayWatchingLeave) return;
  store.assayWatchingLeave = true;
  window.addEventListener("blur", () => {
    if (!document.hasFocus()) store.assayFocusLeft = true;
  });
}

/**
 * Runs in the page: whether pressing Enter on the element (by its CSS path) acts within this document: a button
 * that submits no form, an element with the button role, or a link to a place in this same document. Help behind a
 * link to another page, or a form sent, would take the page the other gatherers read away.
 */
export function actsInPlace(selector: string): boolean {
  const el = document.querySelector(selector);
  if (!el) return false;
  if (el instanceof HTMLButtonElement) return el.type !== "submit" || !el.form;
  if (el.getAttribute("role") === "button" || el.localName === "summary") return true;
  if (!(el instanceof HTMLAnchorElement) || !el.hasAttribute("href")) return false;
  const here = new URL(location.href);
  const there = new URL(el.href, here);
  here.hash = "";
  there.hash = "";
  return here.href === there.href && (!el.target || el.target === "_self");
}

/** Runs in the page: takes focus away from the focused element (its blur handlers run), and says which it was. */
export function blurFocused(helpersKey: string): boolean {
  const el = (globalThis as unknown as Record<symbol, Helpers>)[Symbol.for(helpersKey)]!.deepActiveElement();
  if (!el || !(el instanceof HTMLElement || el instanceof SVGElement)) return false;
  (globalThis as unknown as { assayFocusBlurred?: Element }).assayFocusBlurred = el;
  el.blur();
  return true;
}

/** Runs in the page: gives focus back to the element blurFocused took it from, so that Tab goes on from there. */
export function refocusBlurred(): void {
  const el = (globalThis as unknown as { assayFocusBlurred?: HTMLElement }).assayFocusBlurred;
  el?.focus({ preventScroll: true });
}

/** Runs in the page: how many elements are in sequential focus navigation (rendered, tabIndex >= 0, not disabled or inert). */
export function countTabbable(): number {
  let n = 0;
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("*"))) {
    if (!(el.tabIndex >= 0) || (el as HTMLButtonElement).disabled || el.closest("[inert]")) continue;
    const focusable =
      el.matches("a[href], area[href], button, input:not([type=hidden]), select, textarea, summary, iframe") ||
      el.hasAttribute("tabindex") ||
      el.isContentEditable;
    if (focusable && el.getClientRects().length > 0 && getComputedStyle(el).visibility === "visible") n++;
  }
  return n;
}

/**
 * Runs in the page: the keys its visible text tells a user to press ("Press Ctrl+M to exit"), as Playwright names
 * them ("Control+m"), at most `max`: how a page may announce the way out of a trap it sets.
 */
export function announcedKeys(max: number): string[] {
  const text = document.body?.innerText ?? "";
  const modifiers: Record<string, string> = {
    ctrl: "Control",
    control: "Control",
    alt: "Alt",
    option: "Alt",
    shift: "Shift",
    meta: "Meta",
    cmd: "Meta",
    command: "Meta",
  };
  const named: Record<string, string> = { esc: "Escape", escape: "Escape", tab: "Tab", enter: "Enter" };
  const keys: string[] = [];
  const pattern =
    /\bpress(?:ing)?\s+((?:(?:ctrl|control|alt|option|shift|meta|cmd|command)\s*[+-]\s*)*)(esc(?:ape)?|tab|enter|f\d{1,2}|[a-z0-9])\b/gi;
  for (const m of text.matchAll(pattern)) {
    const mods = (m[1] ?? "")
      .split(/[+-]/)
      .map((s) => modifiers[s.trim().toLowerCase()])
      .filter(Boolean);
    const raw = m[2]!.toLowerCase();
    const key = named[raw] ?? (/^f\d/.test(raw) ? raw.toUpperCase() : raw);
    const combo = [...mods, key].join("+");
    if (!keys.includes(combo)) keys.push(combo);
    if (keys.length >= max) break;
  }
  return keys;
}

/**
 * Runs in the page: transitions and animations end at once, scrolling jumps (Bootstrap's smooth scrolling would
 * still be gliding to a stop Tab reached), and carets are not drawn, so that a screenshot shows the focused and the
 * blurred state themselves rather than a frame of the change (or of an unrelated animation).
 */
export function stillStyles(): void {
  const style = document.createElement("style");
  style.dataset.assayStill = "";
  style.textContent =
    "*, *::before, *::after { transition: none !important; animation: none !important; caret-color: transparent !important; scroll-behavior: auto !important; }";
  document.documentElement.append(style);
}

/** Runs in the page: back at the top, as a reader who starts tabbing meets it. */
export function scrollToTop(): void {
  window.scrollTo(0, 0);
}

/**
 * Runs in the page: two frames later, when what a scroll set off has answered: the page's scroll handlers (a header
 * that hides on the way down, as Clean Blog's, shows again at the top) and its intersection observers (a scrollspy
 * marking the section in view, as Bootstrap's).
 */
export async function afterTwoFrames(): Promise<void> {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

/**
 * Runs in the page: as the keyboard walk found it, for the gatherers that read the page after it (the sizes' layout,
 * contrast and screenshots): focus let go (a skip link shown on focus hides again) and scrolled to the top at once,
 * whatever the page's scroll-behavior (a sticky header read over the content it scrolled past is no overlap). The
 * walk's still styles stay until what the scroll sets off has landed (releaseStillStyles).
 */
export function afterKeyboard(): void {
  (document.activeElement as HTMLElement | null)?.blur?.();
  window.scrollTo({ top: 0, left: 0, behavior: "instant" });
}

/**
 * Runs in the page: transitions and animations back. Only once the page has answered the walk's last scroll: a scroll
 * spy's highlight taken off a link must not fade out while the sizes are read (a nav link caught with its background
 * half gone, no longer marked current, was read as a call to action the small sizes hide).
 */
export function releaseStillStyles(): void {
  for (const style of document.querySelectorAll("style[data-assay-still]")) style.remove();
}
