import { wcagContrast, type Rgb } from "culori";
import type { Page } from "playwright-core";
import { documentExtent, fullPageJpeg } from "../full-page-screenshot";
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

/** A full-page JPEG of the render, cut at the height limit. */
const screenshotGatherer = defineRenderGatherer({
  kind: "screenshot",
  sizes: "once",
  dependsOn: [],
  async gather({ page, formFactor, screenshotMaxHeight }) {
    const extent = await page.evaluate(documentExtent);
    return { screenshot: await fullPageJpeg(page, formFactor, extent, screenshotMaxHeight) };
  },
});

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
