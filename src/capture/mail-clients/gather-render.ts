import { wcagContrast, type Rgb } from "culori";
import type { CDPSession, Page } from "playwright-core";
import type { Screenshot } from "../artifact-shapes";
import { gathererFor } from "../gatherers/gatherer";
import { gathererTable } from "../gatherers/run";
import { PAGE_HELPERS_KEY } from "../page-helpers";
import { LAYOUT_HELPERS, snapshotLayout } from "../page-functions/layout";
import type { CaptureSize } from "../vocabulary";
import {
  EMAIL_RENDER_HELPERS,
  snapshotEmailRender,
  type EmailRenderSnapshot,
  type MeasuredEmailRender,
  type RGB,
  type TextColours,
} from "./snapshot-email-render";

export type { EmailRenderSnapshot, MeasuredEmailRender } from "./snapshot-email-render";

/** What a message rendered in a mail client offers the render's gatherers (render.ts brings it there). */
export interface RenderPage {
  page: Page;
  /** The page's DevTools session: the screenshot is taken over it in one call. */
  cdp: CDPSession;
  formFactor: CaptureSize;
  /** The client's canvas colour behind the message, as the render left it (dark mode may have changed it). */
  canvas: RGB;
  screenshotMaxHeight: number;
}

const defineRenderGatherer = gathererFor<RenderPage>();

/** The render's geometry, as a webpage's layout (page-functions/layout.ts). */
const layoutGatherer = defineRenderGatherer({
  kind: "layout",
  sizes: "once",
  dependsOn: [],
  helpers: [LAYOUT_HELPERS],
  gather: async ({ page }) => ({ layout: await page.evaluate(snapshotLayout, PAGE_HELPERS_KEY) }),
});

/** What the email checks read beyond the layout (snapshot-email-render.ts), with the contrast of its text. */
const snapshotGatherer = defineRenderGatherer({
  kind: "snapshot",
  sizes: "once",
  dependsOn: [],
  helpers: [EMAIL_RENDER_HELPERS],
  gather: async ({ page, canvas }) => ({
    snapshot: withContrast(await page.evaluate(snapshotEmailRender, { helpersKey: PAGE_HELPERS_KEY, canvas })),
  }),
});

/**
 * A full-page JPEG of the render, cut at the height limit: the picture Playwright's full-page screenshot takes
 * (same clip, quality, fonts awaited, caret hidden, beyond the viewport when the page does not fit it), in one
 * evaluate and one Page.captureScreenshot instead of its six round trips (87 against 151 ms a screenshot in a bare script, load 20).
 */
const screenshotGatherer = defineRenderGatherer({
  kind: "screenshot",
  sizes: "once",
  dependsOn: [],
  async gather({ page, cdp, formFactor, screenshotMaxHeight }) {
    const extent = await page.evaluate(prepareScreenshot, CARET_KEY);
    const viewport = page.viewportSize();
    const fits = !!viewport && extent.fullWidth <= viewport.width && extent.fullHeight <= viewport.height;
    const { width, height } = extent;
    const clipHeight = Math.max(1, Math.min(height, screenshotMaxHeight));
    try {
      const shoot = () =>
        cdp.send("Page.captureScreenshot", {
          format: "jpeg",
          quality: 80,
          clip: { x: 0, y: 0, width, height: clipHeight, scale: 1 },
          captureBeyondViewport: !fits,
        });
      // Chromium answers "Unable to capture screenshot" when the compositor had no frame to copy (seen once in the
      // suite under load): one more try, a frame later.
      const { data } = await shoot().catch(async (e: Error) => {
        if (!/Unable to capture screenshot/.test(e.message)) throw e;
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
        return shoot();
      });
      const screenshot: Screenshot = {
        viewport: formFactor,
        contentType: "image/jpeg",
        width,
        height: clipHeight,
        pageHeight: height,
        cut: height > clipHeight,
        data: Buffer.from(data, "base64"),
      };
      return { screenshot };
    } finally {
      if (extent.caretsHidden) await page.evaluate(restoreCarets, CARET_KEY);
    }
  },
});

/** Where prepareScreenshot keeps the carets it hid, for restoreCarets. */
const CARET_KEY = "assay.hidden-carets";

/**
 * In the page, before its screenshot: waits for its fonts, hides the caret of editable elements (as Playwright does)
 * and reads the document's extent (documentExtent's) and its full size (Playwright's, to decide whether it fits).
 */
async function prepareScreenshot(caretKey: string) {
  await document.fonts.ready;
  const root = document.documentElement;
  const body = document.body;
  const hidden: Array<[HTMLElement, string, string]> = [];
  for (const el of Array.from(document.querySelectorAll<HTMLElement>("input,textarea,[contenteditable]"))) {
    hidden.push([el, el.style.getPropertyValue("caret-color"), el.style.getPropertyPriority("caret-color")]);
    el.style.setProperty("caret-color", "transparent", "important");
  }
  (globalThis as unknown as Record<symbol, unknown>)[Symbol.for(caretKey)] = hidden;
  const boxes = body ? [body, root] : [root];
  return {
    width: root.clientWidth,
    height: Math.max(root.scrollHeight, body?.scrollHeight ?? 0),
    fullWidth: Math.max(...boxes.flatMap((e) => [e.scrollWidth, e.offsetWidth, e.clientWidth])),
    fullHeight: Math.max(...boxes.flatMap((e) => [e.scrollHeight, e.offsetHeight, e.clientHeight])),
    caretsHidden: hidden.length,
  };
}

/** In the page, after its screenshot: the carets prepareScreenshot hid, as they were. */
function restoreCarets(caretKey: string): void {
  const key = Symbol.for(caretKey);
  const hidden = (globalThis as unknown as Record<symbol, Array<[HTMLElement, string, string]>>)[key] ?? [];
  for (const [el, value, priority] of hidden)
    if (value) el.style.setProperty("caret-color", value, priority);
    else el.style.removeProperty("caret-color");
  delete (globalThis as unknown as Record<symbol, unknown>)[key];
}

/** What a render gathers once the client has shown the message: every one of them, each render. */
export const RENDER_GATHERERS = gathererTable([layoutGatherer, snapshotGatherer, screenshotGatherer]);

/** WCAG 2.x contrast, to two decimals. */
const ratio = (fg: RGB, bg: RGB) => Math.round(wcagContrast(rgbColour(fg), rgbColour(bg)) * 100) / 100;

/** WCAG 2.x contrast of each text block and each link's own text, to two decimals. */
export function withContrast(measured: MeasuredEmailRender): EmailRenderSnapshot {
  return {
    ...measured,
    textBlocks: measured.textBlocks.map((t) => ({ ...t, contrast: ratio(t.color, t.background) })),
    links: measured.links.map((l) => ({ ...l, contrast: l.color ? ratio(l.color, l.background) : null })),
  };
}
/** A dark render's text blocks with the contrast the same text had in light mode (matched by selector). */
export function withLightContrast(snapshot: EmailRenderSnapshot, light: TextColours): EmailRenderSnapshot {
  const bySelector = new Map(light.map((t) => [t.selector, ratio(t.color, t.background)]));
  return {
    ...snapshot,
    textBlocks: snapshot.textBlocks.map((t) => {
      const lightContrast = bySelector.get(t.selector);
      return lightContrast === undefined ? t : { ...t, lightContrast };
    }),
  };
}

const rgbColour = ([r, g, b]: RGB): Rgb => ({ mode: "rgb", r: r / 255, g: g / 255, b: b / 255 });
