import type { CDPSession, Page } from "playwright-core";
import type { AxeSummary } from "../artifact-shapes";
import { AXE_TAGS, runAxe } from "../gatherers/axe";
import { IsolatedWorld } from "../isolated-world";

/**
 * A render's page runs no script (JavaScript off), so no timer fires there, axe-core's included: in Assay's isolated
 * world, a zero-delay timeout (axe yields between rules with one) runs as a microtask, and a delayed one (axe's
 * guards: a frame that never answers, a preload deadline; a message has no frames and no network) never runs.
 */
const TIMERS_WITHOUT_SCRIPT = `(() => {
  window.setTimeout = (fn, ms, ...args) => { if (!ms) queueMicrotask(() => fn(...args)); return 0; };
  window.clearTimeout = () => {};
})();`;

/**
 * axe-core on the rendered message (EmailRender.axe): every WCAG A, AA and AAA rule axe runs on a webpage (a message
 * is a small document; a check keeps its standard's), in an isolated world of the render's page.
 */
export async function axeOnRender(page: Page, cdp: CDPSession): Promise<AxeSummary> {
  const world = await IsolatedWorld.open(page, cdp);
  await world.load(TIMERS_WITHOUT_SCRIPT);
  return runAxe(world, [...AXE_TAGS, "wcag2aaa"]);
}
