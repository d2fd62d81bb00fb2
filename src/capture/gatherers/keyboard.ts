import type { FocusStop, KeyboardWalk } from "../artifact-shapes";
import { PAGE_HELPERS_KEY } from "../page-helpers";
import {
  actsInPlace,
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
  releaseStillStyles,
  type FocusState,
  watchLeaving,
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
 * user is told of) lets focus out: each is pressed, then Tab, up to MAX_ANNOUNCED_KEYS of them; or one the help a
 * stop of the trap offers reveals once Enter is pressed on it. A trap nothing leaves is tried with Shift+Tab, which
 * may leave it backwards. Then, focus back at the top, one round of Tab in which each stop is screenshotted
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
    const walk = await trapWalk(page, tabbable);
    const round = walk.end === "left" ? await measuredRound(page) : { stops: [], capped: false };
    // It runs at load, before the sizes: the page goes back to how the walk found it for what reads it next, back at
    // the top with transitions stopped until the page has answered the scroll, then with them back.
    await page.world.run(stillStyles);
    await page.world.run(afterKeyboard);
    await page.world.run(afterTwoFrames);
    await page.world.run(releaseStillStyles);
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
  tabbable: number,
): Promise<Pick<KeyboardWalk, "end" | "presses" | "trap" | "leftBy" | "escapedBy" | "helpFollowed" | "trapHelp">> {
  await page.world.run(watchLeaving);
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
    // A loop through every stop is the page wrapping focus round itself: its help, if any, is no way out to follow.
    const help = loop.length < tabbable ? loop.find((s) => HELP.test(s.text)) : undefined;
    if (escaped) return { ...(await wayOut(page, help, path.length + 2, loop.length)), presses, trap: loop };
    // Escape is standard navigation too: a dialog that keeps focus inside it may close on it.
    escaped = true;
    await focusAfter(page, "Escape");
    seen = new Map();
    path = [];
  }
  return { end: "capped", presses: MAX_PRESSES };
}

type WayOut = Pick<KeyboardWalk, "end" | "leftBy" | "escapedBy" | "helpFollowed" | "trapHelp">;

/**
 * What lets focus out of a trap Tab and Escape could not leave, each way pressed then followed by Tab `tries` times:
 * a key the page's text announces (WCAG 2.1.2 allows a way out the user is told of); else, when a stop of the trap
 * offers help, Enter on it (as a keyboard user follows it) and a key the text it revealed announces; else Shift+Tab,
 * standard navigation the other way, which leaves the trap behind but never gets past it.
 */
async function wayOut(page: WebPage, offered: FocusStop | undefined, tries: number, stops: number): Promise<WayOut> {
  const tried: string[] = [];
  const key = await announcedWayOut(page, tried, tries);
  if (key) return { end: "left", leftBy: "announced key", escapedBy: key };
  if (offered) {
    const before = tried.length;
    const followed = (await followHelp(page, offered, stops)) ? await announcedWayOut(page, tried, tries) : null;
    if (followed) return { end: "left", leftBy: "help", escapedBy: followed, helpFollowed: offered };
    // Help that named no key (or could not be followed in place) leaves it to a person.
    if (tried.length === before) return { end: "trap", trapHelp: offered, ...(await backwards(page, tries)) };
    return { end: "trap", helpFollowed: offered, ...(await backwards(page, tries)) };
  }
  return { end: "trap", ...(await backwards(page, tries)) };
}

/** Whether Shift+Tab, pressed up to `tries` times, takes focus out of the page backwards. */
async function backwards(page: WebPage, tries: number): Promise<Pick<KeyboardWalk, "leftBy" | "escapedBy">> {
  for (let i = 0; i < tries; i++)
    if ((await focusAfter(page, "Shift+Tab")).left) return { leftBy: "Shift+Tab", escapedBy: "Shift+Tab" };
  return {};
}

/**
 * Whether a key the page's text announces, not tried before (`tried` grows), lets focus out of the trap: each is
 * pressed, then Tab `tries` times. The key that did, or null.
 */
async function announcedWayOut(page: WebPage, tried: string[], tries: number): Promise<string | null> {
  const keys = (await page.world.run(announcedKeys, MAX_ANNOUNCED_KEYS + tried.length)).filter(
    (k) => !tried.includes(k),
  );
  for (const key of keys.slice(0, MAX_ANNOUNCED_KEYS)) {
    tried.push(key);
    if ((await focusAfter(page, key)).left) return key;
    for (let i = 0; i < tries; i++) if ((await focusAfter(page, "Tab")).left) return key;
  }
  return null;
}

/**
 * A keyboard user's way to the help a trap offers: Tab round the trap to it, then Enter. Only where Enter acts in
 * this page (a button, a link to a place in it): a link to another page would take away the page the walk reads.
 */
async function followHelp(page: WebPage, help: FocusStop, stops: number): Promise<boolean> {
  if (!(await page.world.run(actsInPlace, help.selector))) return false;
  for (let i = 0; i <= stops * 2; i++) {
    const now = await focusAfter(page, "Tab");
    if (now.left) return false;
    if (now.selector !== help.selector) continue;
    await focusAfter(page, "Enter");
    return true;
  }
  return false;
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
