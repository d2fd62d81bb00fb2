import type { BrowserPool } from "../browser-pool";
import type { Page } from "playwright-core";
import { withRenderLane, type RenderLane } from "../mail-clients/render";
import { EMAIL_HTML_HELPERS, snapshotEmailHtml, type EmailHtmlSnapshot } from "./snapshot-email-html";
import { helpersScript, PAGE_HELPERS_KEY } from "../page-helpers";
import { gathererFor } from "../gatherers/gatherer";
import { gathererTable, helpersOf, runGatherers, scheduleGatherers } from "../gatherers/run";

export type { EmailHtmlSnapshot } from "./snapshot-email-html";

/** The longest the structure of one message's HTML may take to read, once started; past it the checks that need it error. */
const EMAIL_HTML_TIMEOUT_MS = 30_000;
/**
 * How many messages this process reads at once. A read is short (a context, a page, one evaluate), but a burst
 * of messages arriving together would otherwise open a page each at the same moment and starve one another
 * past the timeout; the rest wait their turn.
 */
const EMAIL_HTML_CONCURRENCY = 3;

/** "email-html": the structure of the message's HTML part, read in a page holding it (snapshot-email-html.ts). */
const emailHtmlGatherer = gathererFor<{ page: Page }>()({
  kind: "email-html",
  sizes: "once",
  dependsOn: [],
  helpers: [EMAIL_HTML_HELPERS],
  gather: async ({ page }) => ({ htmlDom: await page.evaluate(snapshotEmailHtml, PAGE_HELPERS_KEY) }),
});
const EMAIL_HTML_SCHEDULE = scheduleGatherers(gathererTable([emailHtmlGatherer]), ["email-html"]);

let running = 0;
const waiting: Array<() => void> = [];
async function inTurn<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= EMAIL_HTML_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/**
 * Parses a message's text/html part in Chromium, once per job, and reads what the HTML checks need (see
 * snapshotEmailHtml). The page runs no script of the message (JavaScript is off for the context) and loads
 * nothing: every request it would make (images, stylesheets, fonts, frames) is aborted, so a remote image is
 * never fetched and a sender never learns the message was opened. Computed styles come from the message's
 * own inline styles and <style> blocks, at a 1280x800 desktop viewport.
 */
export function gatherEmailHtml(
  pool: BrowserPool,
  html: string,
  { timeoutMs = EMAIL_HTML_TIMEOUT_MS, admissionLane }: { timeoutMs?: number; admissionLane?: string } = {},
): Promise<EmailHtmlSnapshot> {
  return inTurn(() => withRenderLane(pool, (lane) => readEmailHtml(lane, html, timeoutMs), admissionLane));
}

/** The same read on a lane the message's renders also use (EmailCaptureEngine), at 1280x800 in light mode. */
export async function readEmailHtml(
  lane: RenderLane,
  html: string,
  timeoutMs = EMAIL_HTML_TIMEOUT_MS,
): Promise<EmailHtmlSnapshot> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overtime = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`reading the HTML part took longer than ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    const work = (async () => {
      const { page } = await lane.page();
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.emulateMedia({ colorScheme: "light" });
      await page.setContent(withoutHttpEquiv(html), { waitUntil: "domcontentloaded", timeout: timeoutMs });
      await page.evaluate(helpersScript(helpersOf(EMAIL_HTML_SCHEDULE)));
      const { artifacts } = await runGatherers(
        EMAIL_HTML_SCHEDULE,
        { page },
        { sizes: [], resize: async () => {}, phase: "gather", onFailure: "throw" },
      );
      return artifacts.htmlDom!;
    })();
    return await Promise.race([work, overtime]);
  } catch (e) {
    lane.discard();
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Drops every <meta http-equiv> tag, as mail clients do: a refresh would navigate the page away mid-read
 * (whatever its spelling, entity-encoded values included), and a Content-Security-Policy could switch the
 * message's own styles off. A quoted attribute value may hold ">" (quotes open a value only after "=").
 */
function withoutHttpEquiv(html: string): string {
  return html.replace(/<meta\b(?:=\s*"[^"]*"|=\s*'[^']*'|=(?!\s*["'])|[^>=])*>/gi, (tag) =>
    /[\s/]http-equiv\s*=/i.test(tag) ? "" : tag,
  );
}
