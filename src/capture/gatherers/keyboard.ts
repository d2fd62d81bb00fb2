import type { FocusStop, KeyboardWalk } from "../artifact-shapes";
import { PAGE_HELPERS_KEY } from "../page-helpers";
import {
  afterKeyboard,
  announcedKeys,
  afterTwoFrames,
  blurFocused,
  countTabbable,
  FOCUS_HELPERS,
  readFocus,
  refocusBlurred,
  scrollToTop,
  stillStyles,
  type FocusState,
} from "../page-functions/focus";
import { defineWebGatherer, type WebPage } from "./web-page";

/**
 * After each key, the wait for the page's handlers: a focus or blur handler that moves focus with a timer (the W3C's
 * keyboard-trap cases use 10 ms) has run by then.
 */
const SETTLE_MS = 40;
/** Tab presses at most in the walk that looks for a trap: a page with more stops is not walked to its end. */
const MAX_PRESSES = 200;
/** Stops measured for a visible focus: two screenshots each. */
const MAX_MEASURED_STOPS = 40;
/** Keys the page's text announces that are tried to leave a trap. */
const MAX_ANNOUNCED_KEYS = 3;
/** A stop that offers help in leaving: its name asks how, or says help. */
const HELP = /\b(help|how (to|do|can))\b/i;

/**
 * "keyboard": the page driven with the keyboard at the size it loaded at, as a keyboard user meets it. It runs at
 * load, before the sizes, so it gives the page back as it found it (focus let go, styles back, scrolled to the top).
 *
 * First the trap walk: Tab from where the page put focus until focus leaves the page for the browser's controls. A
 * stop met again before that is a loop; Escape is pressed (a dialog may close on it) and the walk goes on; a loop
 * again is a trap, unless a key the page's text announces ("Press Ctrl+M to exit", WCAG 2.1.2 allows a way out the
 * user is told of) lets focus out: each is pressed, then Tab, up to MAX_ANNOUNCED_KEYS of them. Then, focus back at the top, one round of Tab in which each stop is screenshotted
 * focused and then blurred, transitions and animations stopped: when not a pixel differs, focus shows nowhere
 * (WCAG 2.4.7).
 */
export const keyboardGatherer = defineWebGatherer({
  kind: "keyboard",
  sizes: "once",
  dependsOn: [],
  helpers: [FOCUS_HELPERS],
  async gather(page): Promise<{ keyboard: KeyboardWalk }> {
    const tabbable = await page.world.run(countTabbable);
    const walk = await trapWalk(page);
    const round = walk.end === "left" ? await measuredRound(page) : { stops: [], capped: false };
    // It runs at load, before the sizes: the page goes back to how the walk found it for what reads it next.
    await page.world.run(afterKeyboard);
    await page.world.run(afterTwoFrames);
    return {
      keyboard: { tabbable, ...walk, stops: round.stops, stopsCapped: round.capped },
    };
  },
});

const focusAfter = async (page: WebPage, key: string): Promise<FocusState> => {
  await page.page.keyboard.press(key);
  return page.world.run(readFocus, { helpersKey: PAGE_HELPERS_KEY, settleMs: SETTLE_MS });
};

const stopOf = (s: FocusState): FocusStop => ({ selector: s.selector, text: s.text });

async function trapWalk(
  page: WebPage,
): Promise<Pick<KeyboardWalk, "end" | "presses" | "trap" | "escapedBy" | "trapHelp">> {
  let seen = new Map<number, number>();
  let path: FocusState[] = [];
  let escaped = false;
  for (let presses = 1; presses <= MAX_PRESSES; presses++) {
    const now = await focusAfter(page, "Tab");
    if (now.left) return { end: "left", presses };
    if (now.id === null) continue;
    const previous = path.at(-1);
    // Several stops inside a frame from another origin read as the frame: in a row, they are not a loop.
    if (now.opaque && previous?.id === now.id) continue;
    const first = seen.get(now.id);
    if (first === undefined) {
      seen.set(now.id, path.length);
      path.push(now);
      continue;
    }
    const loop = path.slice(first).map(stopOf);
    if (escaped) return { ...(await announcedWayOut(page, path.length + 2)), presses, trap: loop, ...help(loop) };
    // Escape is standard navigation too: a dialog that keeps focus inside it may close on it.
    escaped = true;
    await focusAfter(page, "Escape");
    seen = new Map();
    path = [];
  }
  return { end: "capped", presses: MAX_PRESSES };
}

const help = (loop: FocusStop[]) => {
  const offered = loop.find((s) => HELP.test(s.text));
  return offered ? { trapHelp: offered } : {};
};

/** Whether a key the page's text announces lets focus out of the trap: it is pressed, then Tab `tries` times. */
async function announcedWayOut(page: WebPage, tries: number): Promise<Pick<KeyboardWalk, "end" | "escapedBy">> {
  for (const key of await page.world.run(announcedKeys, MAX_ANNOUNCED_KEYS)) {
    if ((await focusAfter(page, key)).left) return { end: "left", escapedBy: key };
    for (let i = 0; i < tries; i++) if ((await focusAfter(page, "Tab")).left) return { end: "left", escapedBy: key };
  }
  return { end: "trap" };
}

/**
 * One round of Tab from the top of the page (focus has just left it), each stop measured for a visible focus. The
 * trap walk left the page scrolled to its last stop: scrolled back first, or a header that hides on the way down is
 * measured where the reader starting at the top never sees it. A stop Tab scrolled to is screenshotted once what the
 * scroll set off has answered, or a scrollspy's change reads as the stop's focus indicator.
 */
async function measuredRound(page: WebPage): Promise<{ stops: FocusStop[]; capped: boolean }> {
  const stops: FocusStop[] = [];
  const seen = new Set<number>();
  await page.world.run(scrollToTop);
  await page.world.run(afterTwoFrames);
  await page.world.run(stillStyles);
  const shot = async () =>
    ((await page.cdp.send("Page.captureScreenshot", { format: "png" })) as { data: string }).data;
  for (let presses = 0; presses < MAX_PRESSES; presses++) {
    const now = await focusAfter(page, "Tab");
    if (now.left) return { stops, capped: false };
    if (now.id === null) continue;
    if (now.opaque) {
      if (stops.at(-1)?.selector !== now.selector) stops.push(stopOf(now));
      continue;
    }
    // Back at a stop: the round is over (a trap the page's announced key let the trap walk out of sets it again).
    if (seen.has(now.id)) return { stops, capped: false };
    seen.add(now.id);
    if (stops.length >= MAX_MEASURED_STOPS) return { stops, capped: true };
    await page.world.run(afterTwoFrames);
    const focused = await shot();
    if (!(await page.world.run(blurFocused, PAGE_HELPERS_KEY))) {
      stops.push(stopOf(now));
      continue;
    }
    const blurred = await shot();
    await page.world.run(refocusBlurred);
    stops.push({ ...stopOf(now), indicator: focused !== blurred });
  }
  return { stops, capped: true };
}
